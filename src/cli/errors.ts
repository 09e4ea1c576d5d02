import { HaggleError } from '../contract/errors.js';

/** A usage problem (bad argument, unreadable file): the CLI prints one line and exits with code 2. */
export class CliUsageError extends HaggleError {
  static override readonly marker: string = 'haggle.error.CliUsageError';
  constructor(message: string) {
    super({ code: 'cli-usage', message });
    this.name = 'CliUsageError';
  }
}

/** More failures than `--max-error-rate` allows (or nothing finished): the CLI exits with code 3. */
export class TooManyFailuresError extends HaggleError {
  static override readonly marker: string = 'haggle.error.TooManyFailuresError';
  constructor(message: string) {
    super({ code: 'too-many-failures', message });
    this.name = 'TooManyFailuresError';
  }
}
