import type { MatchRecord } from '../tournament.js';

/**
 * What the analyses compare, per match, from the arm's side. `welfare` is the sum of both sides'
 * utilities of the result (each side's reservation value without a deal), the utilitarian welfare
 * over two private utility scales that each run from 0 to 1; `distanceToPareto` exists only for deals.
 */
export type AnalysisMetric =
  | 'armUtility'
  | 'deal'
  | 'opponentUtility'
  | 'distanceToPareto'
  | 'welfare'
  | 'rounds';

/** The metrics the analyses can compare, in table order. */
export const ANALYSIS_METRICS: readonly AnalysisMetric[] = [
  'armUtility',
  'deal',
  'opponentUtility',
  'distanceToPareto',
  'welfare',
  'rounds',
];

/** Names for tables and sentences. */
export const METRIC_LABELS: Readonly<Record<AnalysisMetric, string>> = {
  armUtility: 'arm utility',
  deal: 'deal rate',
  opponentUtility: 'opponent utility',
  distanceToPareto: 'dist. to Pareto',
  welfare: 'welfare (sum of utilities)',
  rounds: 'rounds',
};

/** Whether `name` is one of `ANALYSIS_METRICS`. */
export function isAnalysisMetric(name: string): name is AnalysisMetric {
  return (ANALYSIS_METRICS as readonly string[]).includes(name);
}

/** Welfare of a match: the arm's plus the opponent's utility of the result. */
export function matchWelfare(match: MatchRecord): number {
  return match.metrics.armUtility + match.metrics.opponentUtility;
}

/** The metric's value for one match; null where it does not exist (Pareto distance without a deal). */
export function metricValue(match: MatchRecord, metric: AnalysisMetric): number | null {
  switch (metric) {
    case 'deal':
      return match.metrics.deal ? 1 : 0;
    case 'welfare':
      return matchWelfare(match);
    case 'distanceToPareto':
      return match.metrics.distanceToPareto;
    default:
      return match.metrics[metric];
  }
}
