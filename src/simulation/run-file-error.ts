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

  constructor(
    path: string,
    message: string,
    options: { cause?: unknown; systemCode?: string; resumable?: boolean } = {},
  ) {
    super('run-file', `${path}: ${message}`, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'RunFileError';
    this.path = path;
    this.systemCode = options.systemCode;
    this.resumable = options.resumable ?? false;
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
  return new RunFileError(path, `${action} failed: ${what} (${code})`, {
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
