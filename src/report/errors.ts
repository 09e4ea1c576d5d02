import { HaggleError } from '../contract/errors.js';

/** The charts' plotting library could not be loaded (an install without it, or a Node before 20.19). */
export class ChartLibraryError extends HaggleError {
  static override readonly marker: string = 'haggle.error.ChartLibraryError';
  constructor(cause: unknown) {
    super({
      code: 'chart-library-missing',
      message:
        'the report charts need @observablehq/plot and linkedom (dependencies of haggle) and Node 20.19 or ' +
        'later, which loads them synchronously: reinstall haggle, or upgrade Node',
      cause,
    });
    this.name = 'ChartLibraryError';
  }
}
