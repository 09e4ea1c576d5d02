import type { EndReason } from './outcome.js';

/**
 * End reasons that mean a session did not finish: a negotiator failed (`error`) or the run was stopped
 * under it (`aborted`). haggle's choice, from the design's "failures are results": such a session is
 * neither a deal nor a no-deal, so every rate leaves it out of its denominator and counts it apart.
 */
export const UNFINISHED_REASONS: readonly EndReason[] = ['error', 'aborted'];

/** True when the session ended by the rules (a deal or a no-deal), false when it failed or was stopped. */
export function isFinished(result: { outcome: { reason: EndReason } }): boolean {
  return !UNFINISHED_REASONS.includes(result.outcome.reason);
}

/** One distinct error and how many sessions (or matches) ended with it. */
export interface ErrorMessageCount {
  /** `Name: message`, as the failing negotiator's error said it. */
  message: string;
  count: number;
}

/** The recorded error of a failed session or match, as one line: `Name: message`. */
export function errorLine(error: { name: string; message: string } | undefined): string {
  if (!error) return '(no error recorded)';
  const oneLine = error.message.replace(/\s*\n\s*/g, ' ').trim();
  return error.name && error.name !== 'Error' ? `${error.name}: ${oneLine}` : oneLine || error.name;
}

/** Counts distinct error messages one at a time; `list()` sorts them by count, most frequent first. */
export class ErrorTally {
  private readonly counts = new Map<string, number>();
  private total = 0;

  add(error: { name: string; message: string } | undefined): void {
    const line = errorLine(error);
    this.counts.set(line, (this.counts.get(line) ?? 0) + 1);
    this.total++;
  }

  /** Failures counted so far. */
  get count(): number {
    return this.total;
  }

  /** Distinct messages, by count (descending), ties by message, so the order is stable. */
  list(): ErrorMessageCount[] {
    return [...this.counts.entries()]
      .map(([message, count]) => ({ message, count }))
      .sort((a, b) => b.count - a.count || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  }
}

/** The distinct errors of the failed sessions among `results`, most frequent first. */
export function countErrorMessages(
  results: Iterable<{ outcome: { reason: EndReason }; error?: { name: string; message: string } }>,
): ErrorMessageCount[] {
  const tally = new ErrorTally();
  for (const result of results) if (!isFinished(result)) tally.add(result.error);
  return tally.list();
}

/** The sessions that finished, in their order: what every rate and distribution is computed over. */
export function finishedOnly<T extends { outcome: { reason: EndReason } }>(results: readonly T[]): T[] {
  return results.filter(isFinished);
}
