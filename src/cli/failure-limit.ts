import type { Command } from 'commander';
import { DEFAULT_EARLY_STOP } from '../simulation/early-stop.js';
import type { ErrorMessageCount } from '../simulation/failures.js';
import { CliUsageError, TooManyFailuresError } from './errors.js';
import type { CliIo } from './io.js';
import { parseIntegerOption } from './options.js';

/**
 * The exit code of a run that ended with failed sessions or matches beyond `--max-error-rate`, or that
 * stopped early because its first ones all failed alike. 1 stays "haggle itself failed", 2 "bad
 * arguments or input", so a script can tell "the backend failed" from both.
 */
export const EXIT_FAILURES = 3;

/**
 * haggle's choice: 0. Any failed session means the numbers stand on fewer sessions than asked, and
 * failures are rarely random (a timeout hits the long negotiations first), so the exit code says so;
 * the summary is still printed and the run file kept. A run that accepts some failures says how many
 * with `--max-error-rate 0.01`. Whatever the limit, a run in which nothing finished never exits 0.
 */
export const DEFAULT_MAX_ERROR_RATE = 0;

/** How many distinct messages the CLI lists before saying how many more there are. */
const SHOWN_MESSAGES = 10;

/** Parses `--max-error-rate`: a share from 0 to 1. */
export function parseMaxErrorRate(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new CliUsageError(`--max-error-rate must be a share from 0 to 1 (0.05 for 5%), got "${raw}"`);
  }
  return value;
}

export interface FailureCounts {
  /** Sessions or matches in the run, finished or not. */
  total: number;
  /** Those that did not finish (failed or stopped). */
  unfinished: number;
  errorMessages: readonly ErrorMessageCount[];
}

/** `haggle: 3 of 100 sessions failed:` then one line per distinct error with its count, on stderr. */
export function printFailures(io: CliIo, counts: FailureCounts, unit: 'sessions' | 'matches'): void {
  if (counts.unfinished === 0) return;
  io.stderr.write(`haggle: ${counts.unfinished} of ${counts.total} ${unit} failed:\n`);
  for (const { message, count } of counts.errorMessages.slice(0, SHOWN_MESSAGES))
    io.stderr.write(`haggle:   ${count} × ${message}\n`);
  const more = counts.errorMessages.length - SHOWN_MESSAGES;
  if (more > 0)
    io.stderr.write(`haggle:   and ${more} more distinct errors (each run-file line keeps its own)\n`);
}

/** Throws `TooManyFailuresError` when the failures exceed the limit, or when nothing finished. */
export function enforceFailureLimit(
  counts: FailureCounts,
  maxErrorRate: number,
  unit: 'sessions' | 'matches',
): void {
  if (counts.unfinished === 0) return;
  const rate = counts.unfinished / counts.total;
  if (counts.unfinished === counts.total)
    throw new TooManyFailuresError(`all ${counts.total} ${unit} failed; there is no result`);
  if (rate > maxErrorRate)
    throw new TooManyFailuresError(
      `${(rate * 100).toFixed(1)}% of ${unit} failed, more than --max-error-rate ${maxErrorRate} allows; ` +
        'the results above stand on the ones that finished',
    );
}

/**
 * `--max-error-rate` and `--early-stop`, worded for the command's unit: `simulate` and `evaluate` take
 * them alike, so one definition keeps their defaults and help in step.
 */
export function addFailureLimitOptions(command: Command, unit: 'sessions' | 'matches'): Command {
  const run = unit === 'sessions' ? 'a run' : 'a tournament';
  return command
    .option(
      '--max-error-rate <share>',
      `failed ${unit} allowed (0..1) before the exit code is ${EXIT_FAILURES}; ${run} where none finished always fails`,
      parseMaxErrorRate,
      DEFAULT_MAX_ERROR_RATE,
    )
    .option(
      '--early-stop <count>',
      `stop when the first COUNT ${unit} all fail with the same error and none finished (0: never)`,
      parseIntegerOption('early-stop', 0, 1_000_000),
      DEFAULT_EARLY_STOP,
    );
}
