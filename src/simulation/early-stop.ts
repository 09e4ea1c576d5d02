import { InvalidInputError } from '../contract/errors.js';
import { RunFailedEarlyError } from './errors.js';
import { errorLine } from './failures.js';

/**
 * How many sessions (or matches) must fail before any finishes, all with the same error, for a run to
 * stop early. haggle's choice: 4. A dead server, a wrong model id or a bad key fails every session the
 * same way within seconds; four alike, with none finished, is that pattern and not bad luck (the remote
 * backend has already retried each request), while a run that merely has some failures never stops.
 */
export const DEFAULT_EARLY_STOP = 4;

/** Checks an `earlyStop` option: a whole number from 0 (never stop early) upwards. */
export function resolveEarlyStop(value: number | undefined, subject: string): number {
  const limit = value ?? DEFAULT_EARLY_STOP;
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new InvalidInputError({
      subject,
      issues: [{ path: 'earlyStop', message: 'must be a whole number, 0 or more (0: never stop early)' }],
    });
  return limit;
}

/**
 * Watches a run's first endings, in the order they end. It trips when the first `limit` endings (or all
 * of them, in a run that plays fewer) are failures with one message; one finished session or a second
 * message disarms it for the rest of the run.
 */
export class EarlyStop {
  private readonly threshold: number;
  private failures = 0;
  private message: string | undefined;
  private armed: boolean;

  /**
   * @param limit failures that stop the run; 0 disables the check.
   * @param toPlay how many the run plays now (resumed ones excluded): a shorter run stops after all of them.
   */
  constructor(
    limit: number,
    toPlay: number,
    private readonly unit: 'sessions' | 'matches',
  ) {
    this.threshold = Math.min(limit, toPlay);
    this.armed = this.threshold > 0;
  }

  /** Records one ending; returns the error to stop the run with, once the pattern is complete. */
  record(
    finished: boolean,
    error: { name: string; message: string } | undefined,
  ): RunFailedEarlyError | undefined {
    if (!this.armed) return undefined;
    if (finished) {
      this.armed = false;
      return undefined;
    }
    const line = errorLine(error);
    if (this.message !== undefined && line !== this.message) {
      this.armed = false;
      return undefined;
    }
    this.message = line;
    this.failures++;
    if (this.failures < this.threshold) return undefined;
    this.armed = false;
    return new RunFailedEarlyError({ failures: this.failures, errorMessage: line, unit: this.unit });
  }
}
