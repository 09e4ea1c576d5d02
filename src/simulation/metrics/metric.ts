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
 * What a metric's number means: `share` 0..1 of sessions (or of label uses); `list-ratio` a price over
 * the list price; `turns`; `hours`.
 */
export type MetricUnit = 'share' | 'list-ratio' | 'turns' | 'hours';

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
