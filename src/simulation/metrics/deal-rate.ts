import type { SessionResult } from '../session-result.js';
import type { MetricDefinition, MetricFamilyBuilder } from './metric.js';

/** Share of sessions that ended in a deal; null for no sessions. */
export function dealRate(sessions: readonly SessionResult[]): number | null {
  if (sessions.length === 0) return null;
  return sessions.filter((s) => s.outcome.status === 'deal').length / sessions.length;
}

export const DEAL_RATE_METRIC: MetricDefinition = {
  id: 'deal-rate',
  family: 'deal-rate',
  name: 'deal rate',
  unit: 'share',
  contribution: (f) => [f.deal ? 1 : 0, 1],
};

export const dealRateMetrics: MetricFamilyBuilder = () => [DEAL_RATE_METRIC];
