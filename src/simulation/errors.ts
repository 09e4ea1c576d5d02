import { HaggleError } from '../contract/errors.js';

/**
 * A run file (a simulation's or a tournament's JSONL) cannot be read, written or used as asked. The
 * message is one line that names the file and says what to do; `resumable` is true when the file holds
 * finished work that `--resume` (`resume: true`) continues, so a CLI can print the command.
 */
export class RunFileError extends HaggleError {
  static override readonly marker: string = 'haggle.error.RunFileError';
  readonly path: string;
  /** The file-system error code behind it (`ENOSPC`, `EACCES`, ...), when there is one. */
  readonly systemCode: string | undefined;
  readonly resumable: boolean;

  constructor(args: {
    path: string;
    message: string;
    cause?: unknown;
    /** The file system's code (`ENOSPC`, `EACCES`, ...), when the failure is the file system's. */
    systemCode?: string;
    resumable?: boolean;
  }) {
    super({ code: 'run-file', message: `${args.path}: ${args.message}`, cause: args.cause });
    this.name = 'RunFileError';
    this.path = args.path;
    this.systemCode = args.systemCode;
    this.resumable = args.resumable ?? false;
  }
}

// What a person can do about each failure; the code stays in the message so it can be searched for.
const REMEDIES: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied: choose a folder you may write to, or change its permissions',
  EPERM: 'operation not permitted: choose a folder you may write to, or change its permissions',
  EROFS: 'the file system is read-only: choose another place',
  ENOSPC: 'the disk is full: free some space',
  EDQUOT: 'the disk quota is used up: free some space',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EMFILE: 'too many open files',
};

/**
 * Turns a file-system error (from `node:fs`) into a one-line `RunFileError`; `action` says what was
 * being done (`writing`, `reading`, ...). Anything that is not a file-system error is returned as is.
 */
export function fileSystemError(
  path: string,
  action: string,
  error: unknown,
  options: { resumable?: boolean } = {},
): unknown {
  if (HaggleError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const what = REMEDIES[code] ?? ((error as Error).message || 'failed');
  return new RunFileError({
    path,
    message: `${action} failed: ${what} (${code})`,
    cause: error,
    systemCode: code,
    ...(options.resumable === undefined ? {} : { resumable: options.resumable }),
  });
}

/** Runs a file-system step, turning its failure into a `RunFileError`. */
export function fileStep<T>(
  path: string,
  action: string,
  step: () => T,
  options?: { resumable?: boolean },
): T {
  try {
    return step();
  } catch (error) {
    throw fileSystemError(path, action, error, options);
  }
}

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

  constructor({
    path,
    lockPath,
    holder,
    why,
  }: {
    path: string;
    lockPath: string;
    /** Who holds the lock; absent when the lock file cannot be read. */
    holder?: RunFileLockHolder | undefined;
    /** What happened, the message's start: `another writer holds it`. */
    why: string;
  }) {
    super({ path, message: `${why}; lock file ${lockPath}. ${remedy(lockPath, holder)}` });
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

/**
 * A run stopped early: its first sessions (or matches) all failed with one error and none finished, so
 * the rest would have failed the same way. `errorMessage` is that error as one line.
 */
export class RunFailedEarlyError extends HaggleError {
  static override readonly marker: string = 'haggle.error.RunFailedEarlyError';
  /** How many failed alike before the run stopped. */
  readonly failures: number;
  /** The shared error, `Name: message`. */
  readonly errorMessage: string;

  constructor(args: { failures: number; errorMessage: string; unit: 'sessions' | 'matches' }) {
    super({
      code: 'run-failed-early',
      message:
        `stopped early: the first ${args.failures} ${args.unit} all failed with the same error and none finished: ` +
        `${args.errorMessage}. Check the server, model id, key and base URL; ` +
        `earlyStop: 0 (--early-stop 0) plays every one anyway`,
    });
    this.name = 'RunFailedEarlyError';
    this.failures = args.failures;
    this.errorMessage = args.errorMessage;
  }
}
