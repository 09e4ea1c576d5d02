import { deriveSeed } from '../../internal/random.js';
import { finishedOnly } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import {
  type BootstrapOptions,
  ContributionMatrix,
  percentileInterval,
  resolveBootstrapOptions,
} from './bootstrap.js';
import { dealRateMetrics } from './deal-rate.js';
import { labelMetrics } from './label-metrics.js';
import { messageSessionMetrics } from './message-sessions.js';
import {
  isProportion,
  type MetricDefinition,
  type MetricFamily,
  type MetricFamilyBuilder,
  type MetricUnit,
} from './metric.js';
import { priceRatioMetrics } from './price-ratios.js';
import { clopperPearson } from './proportion-tests.js';
import { responseTimeMetrics } from './response-times.js';
import { segmentMetrics } from './segments.js';
import { type SessionFacts, sessionFacts } from './session-facts.js';
import { sessionLengthMetrics } from './session-length.js';

/** Every family, in the order tables show them. */
export const METRIC_FAMILIES: readonly MetricFamilyBuilder[] = [
  dealRateMetrics,
  messageSessionMetrics,
  sessionLengthMetrics,
  priceRatioMetrics,
  responseTimeMetrics,
  segmentMetrics,
  labelMetrics,
];

/**
 * How an interval was drawn: `clopper-pearson`, the exact interval of a proportion of sessions;
 * `bootstrap`, the percentile interval of resampled sessions (means, which have no closed form that
 * holds for their skewed, clustered data).
 */
export type IntervalMethod = 'clopper-pearson' | 'bootstrap';

/** Sessions to measure: results of a run in memory, or loaded from JSONL with `loadSessions`. */
export type SessionSource = readonly SessionResult[];

/** One metric measured on a set of sessions, with its confidence interval. */
export interface MetricEstimate {
  id: string;
  family: MetricFamily;
  name: string;
  unit: MetricUnit;
  /** Null when no session contributes (e.g. a price ratio in a run without deals). */
  value: number | null;
  /** What the value stands on: sessions for shares and per-session means, turns or label uses otherwise. */
  n: number;
  /**
   * Confidence interval at `level`: exact (Clopper-Pearson) for a proportion, never zero-width; the
   * percentile bootstrap over resampled sessions otherwise. Null when the value is.
   */
  ci: [number, number] | null;
  /** Which construction gave `ci`. */
  interval: IntervalMethod;
}

/**
 * The exact interval of a proportion column: successes and sessions are integers (each session adds
 * 0 or 1 of 1), rounded only against floating-point sums. Null without a session.
 */
export function proportionInterval(
  matrix: ContributionMatrix,
  c: number,
  level: number,
): [number, number] | null {
  const n = Math.round(matrix.weight(c));
  if (n < 1) return null;
  return clopperPearson(Math.round(matrix.total(c)), n, level);
}

/** The definitions for a set of runs: keys like categories and labels come from all of them. */
export function metricDefinitions(runs: readonly (readonly SessionFacts[])[]): MetricDefinition[] {
  return METRIC_FAMILIES.flatMap((family) => family(runs));
}

export function contributionMatrix(definitions: readonly MetricDefinition[], facts: readonly SessionFacts[]) {
  return new ContributionMatrix(
    definitions.map((d) => facts.map((f) => d.contribution(f))),
    facts.length,
  );
}

/**
 * Every metric of one run's finished sessions, with confidence intervals: exact (Clopper-Pearson) for
 * proportions of sessions, a seeded bootstrap (sessions resampled with replacement, `resamples` times)
 * for means. Sessions that failed or were stopped are no result: they are left out, so with none
 * finished every value is null.
 */
export function computeMetrics(sessions: SessionSource, options: BootstrapOptions = {}): MetricEstimate[] {
  const { resamples, seed, level } = resolveBootstrapOptions(options);
  const facts = finishedOnly(sessions).map(sessionFacts);
  const definitions = metricDefinitions([facts]);
  const matrix = contributionMatrix(definitions, facts);
  const replicates = facts.length > 0 ? matrix.replicates(resamples, deriveSeed(seed, 0)) : [];
  return definitions.map((d, c) => {
    const value = matrix.value(c);
    const column = replicates[c];
    const exact = isProportion(d);
    let ci: [number, number] | null = null;
    if (value !== null)
      ci = exact ? proportionInterval(matrix, c, level) : column ? percentileInterval(column, level) : null;
    return {
      id: d.id,
      family: d.family,
      name: d.name,
      unit: d.unit,
      value,
      n: matrix.weight(c),
      ci,
      interval: exact ? 'clopper-pearson' : 'bootstrap',
    };
  });
}
