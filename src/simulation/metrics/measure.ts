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
import type { MetricDefinition, MetricFamily, MetricFamilyBuilder, MetricUnit } from './metric.js';
import { priceRatioMetrics } from './price-ratios.js';
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
  /** Percentile bootstrap interval over resampled sessions; null when the value is. */
  ci: [number, number] | null;
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
 * Every metric of one run's finished sessions, with bootstrap confidence intervals (sessions resampled
 * with replacement, `resamples` times, seeded). Sessions that failed or were stopped are no result: they
 * are left out, so with none finished every value is null.
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
    return {
      id: d.id,
      family: d.family,
      name: d.name,
      unit: d.unit,
      value,
      n: matrix.weight(c),
      ci: value === null || !column ? null : percentileInterval(column, level),
    };
  });
}
