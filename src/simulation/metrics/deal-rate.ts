import { finishedOnly } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import type { MetricDefinition, MetricFamilyBuilder } from './metric.js';

/**
 * Share of the finished sessions that ended in a deal; null when none finished. Sessions that failed or
 * were stopped (reason `error` or `aborted`) are no result and stay out of the denominator.
 */
export function dealRate(sessions: readonly SessionResult[]): number | null {
  const finished = finishedOnly(sessions);
  if (finished.length === 0) return null;
  return finished.filter((s) => s.outcome.status === 'deal').length / finished.length;
}

/** The deal rate: the share of finished sessions that end in a deal. */
export const DEAL_RATE_METRIC: MetricDefinition = {
  id: 'deal-rate',
  family: 'deal-rate',
  name: 'deal rate',
  unit: 'share',
  contribution: (f) => [f.deal ? 1 : 0, 1],
};

export const dealRateMetrics: MetricFamilyBuilder = () => [DEAL_RATE_METRIC];
