import { HaggleError, InvalidInputError, type ValidationIssue } from '../contract/errors.js';

// Without node: imports, so code that reports on an experiment it did not read from
// disk (haggle/ai-sdk's provider participants) stays bundleable for any runtime.

/**
 * An experiment file that cannot be used: each issue names the JSON path (`arms.grpo.llm.apiKeyEnv`) and
 * what to write instead. An `InvalidInputError`, so the CLI exits 2 with one line.
 */
export class ExperimentFileError extends InvalidInputError {
  static override readonly marker: string = 'haggle.error.ExperimentFileError';
  /** The file, as the user named it; undefined for an experiment given as a value. */
  readonly file: string | undefined;

  constructor({
    file,
    issues,
    cause,
  }: { file: string | undefined; issues: ValidationIssue[]; cause?: unknown }) {
    super({ subject: file === undefined ? 'experiment' : `experiment ${file}`, issues, cause });
    this.name = 'ExperimentFileError';
    this.file = file;
  }

  /**
   * The file cannot be read at all (missing, a folder, too large): the message names the file and the
   * reason in words, not the file system's `ENOENT … open`.
   */
  static unreadable(file: string, error: unknown): ExperimentFileError {
    const code = (error as { code?: unknown } | null)?.code;
    const why =
      (typeof code === 'string' ? UNREADABLE[code] : undefined) ??
      (error instanceof Error ? error.message : String(error));
    const unreadable = new ExperimentFileError({
      file,
      issues: [{ path: '(file)', message: why }],
      cause: error,
    });
    unreadable.message = `Cannot read the experiment file ${file}: ${why}`;
    return unreadable;
  }
}

const UNREADABLE: Readonly<Partial<Record<string, string>>> = {
  ENOENT: 'no such file (check the path; it is read from the current folder)',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
};

/** A suite file that cannot be used; the message starts with its path. */
export class SuiteFileError extends HaggleError {
  static override readonly marker: string = 'haggle.error.SuiteFileError';
  readonly path: string;

  constructor({ path, message }: { path: string; message: string }) {
    super({ code: 'suite-file', message: `${path}: ${message}` });
    this.name = 'SuiteFileError';
    this.path = path;
  }
}
