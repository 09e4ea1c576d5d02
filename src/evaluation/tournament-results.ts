import { bootstrapMean, type Estimate, type PairedComparison, pairedComparison } from './statistics.js';
import type { MatchRecord } from './tournament.js';

/** Scores of one arm against one opponent (or pooled over opponents, `opponent: '*'`). */
export interface ArmScore {
  arm: string;
  opponent: string;
  matches: number;
  dealRate: Estimate;
  armUtility: Estimate;
  opponentUtility: Estimate;
  /** Over deals only. */
  distanceToNash: Estimate;
  irViolationRate: number;
}

export interface TournamentResults {
  matches: MatchRecord[];
  scores: ArmScore[];
}

function score(arm: string, opponent: string, records: readonly MatchRecord[]): ArmScore {
  const seed = records.length;
  const deals = records.filter((r) => r.metrics.deal);
  return {
    arm,
    opponent,
    matches: records.length,
    dealRate: bootstrapMean(
      records.map((r) => (r.metrics.deal ? 1 : 0)),
      { seed },
    ),
    armUtility: bootstrapMean(
      records.map((r) => r.metrics.armUtility),
      { seed: seed + 1 },
    ),
    opponentUtility: bootstrapMean(
      records.map((r) => r.metrics.opponentUtility),
      { seed: seed + 2 },
    ),
    distanceToNash: bootstrapMean(
      deals.map((r) => r.metrics.distanceToNash ?? 0),
      { seed: seed + 3 },
    ),
    irViolationRate:
      records.length === 0 ? 0 : records.filter((r) => r.metrics.armIrViolation).length / records.length,
  };
}

/** Per arm and opponent, and pooled per arm, each with bootstrap 95% intervals. */
export function tabulateTournament(matches: MatchRecord[]): TournamentResults {
  const arms = [...new Set(matches.map((m) => m.arm))];
  const opponents = [...new Set(matches.map((m) => m.opponent))];
  const scores: ArmScore[] = [];
  for (const arm of arms) {
    const own = matches.filter((m) => m.arm === arm);
    for (const opponent of opponents)
      scores.push(
        score(
          arm,
          opponent,
          own.filter((m) => m.opponent === opponent),
        ),
      );
    scores.push(score(arm, '*', own));
  }
  return { matches, scores };
}

export type PairedMetric = 'armUtility' | 'deal' | 'opponentUtility';

/**
 * Compares two arms on the negotiations both played (same scenario, opponent, seed and role): the
 * paired mean difference of a metric with its CI and a permutation test.
 */
export function compareArms(
  results: TournamentResults,
  armA: string,
  armB: string,
  metric: PairedMetric = 'armUtility',
): PairedComparison {
  const key = (m: MatchRecord) => `${m.armRole}|${m.opponent}|${m.scenarioId}|${m.seed}`;
  const value = (m: MatchRecord) => (metric === 'deal' ? (m.metrics.deal ? 1 : 0) : m.metrics[metric]);
  const b = new Map(results.matches.filter((m) => m.arm === armB).map((m) => [key(m), m]));
  const pairsA: number[] = [];
  const pairsB: number[] = [];
  for (const m of results.matches) {
    if (m.arm !== armA) continue;
    const other = b.get(key(m));
    if (!other) continue;
    pairsA.push(value(m));
    pairsB.push(value(other));
  }
  return pairedComparison(pairsA, pairsB, { seed: pairsA.length });
}
