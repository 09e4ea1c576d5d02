import type { SessionFacts } from './session-facts.js';

/** The group a metric belongs to: deal rate, messages, session length, price, response time, segment, label. */
export type MetricFamily =
  | 'deal-rate'
  | 'messages'
  | 'session-length'
  | 'price'
  | 'response-time'
  | 'segment'
  | 'label';

/**
 * What a metric's number means: `share` 0..1 of sessions, each session counting 0 or 1 of 1 (a
 * proportion: its interval is exact, see `isProportion`); `list-ratio` a price over the list price;
 * `turns`; `hours`.
 */
export type MetricUnit = 'share' | 'list-ratio' | 'turns' | 'hours';

/**
 * Whether a metric is a proportion of sessions (deal rates, the message-session share, session-length
 * bands, M6): a count of successes out of a count of sessions, whose interval and two-sample test have
 * closed forms (Clopper-Pearson, Fisher) that hold at any sample size. Every other metric is a mean
 * whose interval is the bootstrap's.
 */
export function isProportion(definition: Pick<MetricDefinition, 'unit'>): boolean {
  return definition.unit === 'share';
}

/**
 * One metric, written as a ratio of sums over sessions: value = Σ numerator / Σ denominator. A share
 * of sessions has denominator 1 per session; a mean over turns has the session's turn count. Writing
 * every metric this way lets the bootstrap resample whole sessions (turns of one session are not
 * independent) and recompute any metric from per-session sums.
 */
export interface MetricDefinition {
  /** Stable identifier, e.g. `deal-rate`, `deal-rate/tier/25-100`, `m6/buyer/build_rapport`. */
  id: string;
  family: MetricFamily;
  /** What a reader sees in a table. */
  name: string;
  unit: MetricUnit;
  /** [numerator, denominator] of one session. */
  contribution(facts: SessionFacts): readonly [number, number];
}

/** A metric family builds its definitions from the sessions of every run being measured (keys such as categories or labels come from the data). */
export type MetricFamilyBuilder = (runs: readonly (readonly SessionFacts[])[]) => MetricDefinition[];

/** Σ numerator / Σ denominator; null when no session contributes. */
export function ratioOfSums(pairs: readonly (readonly [number, number])[]): number | null {
  let numerator = 0;
  let denominator = 0;
  for (const [n, d] of pairs) {
    numerator += n;
    denominator += d;
  }
  return denominator > 0 ? numerator / denominator : null;
}
