import type { MatchRecord } from '../tournament.js';
import { isFinishedMatch } from '../tournament-results.js';
import { type AnalysisMetric, metricValue } from './analysis-metric.js';

/** One negotiation played by both arms: the unit every paired analysis resamples and relabels. */
export interface PairedUnit {
  /** `role|opponent|scenario|seed`: the same negotiation for both arms. */
  key: string;
  opponent: string;
  a: number;
  b: number;
  /** a - b. */
  diff: number;
}

/** The key that makes two matches the same negotiation: role, opponent, scenario and seed. */
export function negotiationKey(match: MatchRecord): string {
  return `${match.armRole}|${match.opponent}|${match.scenarioId}|${match.seed}`;
}

/**
 * Pairs arm A's matches with arm B's on the same negotiations (role, opponent, scenario, seed), in A's
 * match order. A pair is left out when either match did not finish (a failure or a void match is no
 * result for either arm) or when the metric does not exist for either (Pareto distance needs a deal on
 * both sides, so that comparison is conditional on both arms reaching one).
 */
export function pairedUnits(
  records: readonly MatchRecord[],
  armA: string,
  armB: string,
  metric: AnalysisMetric,
  opponents?: readonly string[],
): PairedUnit[] {
  const keep = (m: MatchRecord) => opponents === undefined || opponents.includes(m.opponent);
  const b = new Map(records.filter((m) => m.arm === armB && keep(m)).map((m) => [negotiationKey(m), m]));
  const units: PairedUnit[] = [];
  for (const match of records) {
    if (match.arm !== armA || !keep(match)) continue;
    const other = b.get(negotiationKey(match));
    if (!other || !isFinishedMatch(match) || !isFinishedMatch(other)) continue;
    const a = metricValue(match, metric);
    const bValue = metricValue(other, metric);
    if (a === null || bValue === null) continue;
    units.push({ key: negotiationKey(match), opponent: match.opponent, a, b: bValue, diff: a - bValue });
  }
  return units;
}
