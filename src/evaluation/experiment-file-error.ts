import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';

// Its own file, without node: imports, so code that reports on an experiment it did not read from
// disk (haggle/ai-sdk's provider participants) stays bundleable for any runtime.

/**
 * An experiment file that cannot be used: each issue names the JSON path (`arms.grpo.llm.apiKeyEnv`) and
 * what to write instead. An `InvalidInputError`, so the CLI exits 2 with one line.
 */
export class ExperimentFileError extends InvalidInputError {
  static override readonly marker: string = 'haggle.error.ExperimentFileError';
  /** The file, as the user named it; undefined for an experiment given as a value. */
  readonly file: string | undefined;

  constructor(file: string | undefined, issues: ValidationIssue[], options?: { cause?: unknown }) {
    super(file === undefined ? 'experiment' : `experiment ${file}`, issues, options);
    this.name = 'ExperimentFileError';
    this.file = file;
  }
}
