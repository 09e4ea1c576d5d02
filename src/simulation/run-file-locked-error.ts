import { RunFileError } from './run-file-error.js';

/** Who holds a run file's lock, as its lock file says. */
export interface RunFileLockHolder {
  pid: number;
  host: string;
  /** When the holder took the lock (ISO 8601). */
  started: string;
}

/**
 * Another writer holds the run file: a second `simulate`, `evaluate` or `merge` on the same `out`.
 * Nothing was opened, cut or appended. `holder` is undefined when the lock file cannot be read (then the
 * message says so); the message names the lock file and when deleting it is safe.
 */
export class RunFileLockedError extends RunFileError {
  static override readonly marker: string = 'haggle.error.RunFileLockedError';
  readonly lockPath: string;
  readonly holder: RunFileLockHolder | undefined;

  constructor(path: string, lockPath: string, holder: RunFileLockHolder | undefined, why: string) {
    super(path, `${why}; lock file ${lockPath}. ${remedy(lockPath, holder)}`);
    this.name = 'RunFileLockedError';
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

function remedy(lockPath: string, holder: RunFileLockHolder | undefined): string {
  const gone =
    holder === undefined
      ? 'if no haggle process writes this file any more'
      : `if process ${holder.pid} on ${holder.host} is gone (a crash, or a machine that shares this folder)`;
  return `Wait for it to end or write to another file; ${gone}, delete ${lockPath} and run again`;
}
