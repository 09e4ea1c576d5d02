import { type ErrorMessageCount, ErrorTally } from '../simulation/failures.js';
import {
  bootstrapMean,
  type Estimate,
  type PairedComparison,
  pairedComparison,
  proportionEstimate,
} from '../simulation/metrics/estimates.js';
import type { MatchRecord, TournamentHeader } from './tournament-records.js';

/** True when a negotiator threw (reason `error`): infrastructure, not a move of the game. */
export function isFailedMatch(match: MatchRecord): boolean {
  return match.result.reason === 'error';
}

/**
 * True when the opponent broke the match: its negotiator failed, it made an invalid turn, or its turn
 * was pending when the time ran out. The match says nothing about the arm's policy, so it is void for
 * the arm: counted (`void`), shown, and left out of its scores, comparisons and GRPO groups, as
 * `bargainingReward` leaves it without a reward. haggle's choice, after the design's "a match lost to
 * the opponent's failure is void for the other side". The arm's own invalid turn or timeout still
 * costs it (a no-deal at its reservation).
 */
export function isVoidMatch(match: MatchRecord): boolean {
  const opponentRole = match.armRole === 'seller' ? 'buyer' : 'seller';
  return match.result.failedBy === opponentRole;
}

/**
 * True when the match counts in the arm's scores: it ended by the rules of the game (a deal, a
 * walk-away, the deadline, the arm's own invalid turn or timeout), no negotiator failed and the
 * opponent did not break it.
 */
export function isFinishedMatch(match: MatchRecord): boolean {
  return !isFailedMatch(match) && !isVoidMatch(match);
}

/** Scores of one arm against one opponent (or pooled over opponents, `opponent: '*'`). */
export interface ArmScore {
  arm: string;
  opponent: string;
  /** Matches played, failed ones included. */
  matches: number;
  /** Matches that finished: the `n` of every estimate below. */
  finished: number;
  /** Matches the arm's own negotiator failed (it threw), left out of the scores. */
  errors: number;
  /** Matches the opponent broke (its failure, invalid turn or timeout): void for the arm, left out. */
  void: number;
  dealRate: Estimate;
  armUtility: Estimate;
  opponentUtility: Estimate;
  /** Over deals only. */
  distanceToNash: Estimate;
  /** Distance in utility space to the nearest Pareto-optimal outcome, over deals only (0: efficient). */
  distanceToPareto: Estimate;
  /** Sum of both sides' utilities of the result (reservation values without a deal). */
  welfare: Estimate;
  /** Turns played. */
  rounds: Estimate;
  /** Share of finished matches in which the arm agreed below its reservation value; null when none finished. */
  irViolationRate: number | null;
}

/** A tournament tabulated: its matches, each arm's score, and the failures. */
export interface TournamentResults {
  matches: MatchRecord[];
  scores: ArmScore[];
  /** Matches in which a negotiator failed (reason `error`), over the whole tournament. */
  errors: number;
  /** Matches void for their arm (the opponent broke them), over the whole tournament. */
  void: number;
  /** Their distinct errors (`Name: message`), most frequent first. */
  errorMessages: ErrorMessageCount[];
  /** The tournament's header (suite id, config, labels) when the results come from a run or a file. */
  header?: TournamentHeader;
}

function score(arm: string, opponent: string, played: readonly MatchRecord[]): ArmScore {
  const records = played.filter(isFinishedMatch);
  // The seed depends on what the estimates stand on, as before failures were counted apart.
  const seed = records.length;
  const deals = records.filter((r) => r.metrics.deal);
  return {
    arm,
    opponent,
    matches: played.length,
    finished: records.length,
    errors: played.filter((m) => isFailedMatch(m) && !isVoidMatch(m)).length,
    void: played.filter(isVoidMatch).length,
    // A proportion: its exact interval, not a bootstrap (which gives 16 deals of 16 the width 0).
    dealRate: proportionEstimate(records.map((r) => r.metrics.deal)),
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
    distanceToPareto: bootstrapMean(
      deals.map((r) => r.metrics.distanceToPareto ?? 0),
      { seed: seed + 4 },
    ),
    welfare: bootstrapMean(
      records.map((r) => r.metrics.armUtility + r.metrics.opponentUtility),
      { seed: seed + 5 },
    ),
    rounds: bootstrapMean(
      records.map((r) => r.metrics.rounds),
      { seed: seed + 6 },
    ),
    irViolationRate:
      records.length === 0 ? null : records.filter((r) => r.metrics.armIrViolation).length / records.length,
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
  const failures = new ErrorTally();
  for (const m of matches) if (isFailedMatch(m)) failures.add(m.result.error);
  return {
    matches,
    scores,
    errors: failures.count,
    errorMessages: failures.list(),
    void: matches.filter(isVoidMatch).length,
  };
}

/**
 * An arm compared with itself: every paired difference is 0 by construction, the one case where a
 * zero-width interval is the truth rather than an artefact of a small sample.
 */
function sameArm(results: TournamentResults, arm: string): PairedComparison {
  const n = results.matches.filter((m) => m.arm === arm && isFinishedMatch(m)).length;
  return {
    n,
    difference: { n, mean: 0, low: 0, high: 0 },
    pValue: 1,
    verdict: `the same arm on both sides: the difference is 0 by construction (n = ${n})`,
  };
}

/** A per-match metric that `compareArms` can compare between two arms. */
export type PairedMetric = 'armUtility' | 'deal' | 'opponentUtility';

/**
 * Compares two arms on the negotiations both played (same scenario, opponent, seed and role): the
 * paired mean difference of a metric with its CI and a permutation test. A pair in which either match
 * failed is left out: a failure is no result for either arm.
 */
export function compareArms(
  results: TournamentResults,
  armA: string,
  armB: string,
  metric: PairedMetric = 'armUtility',
): PairedComparison {
  if (armA === armB) return sameArm(results, armA);
  const key = (m: MatchRecord) => `${m.armRole}|${m.opponent}|${m.scenarioId}|${m.seed}`;
  const value = (m: MatchRecord) => (metric === 'deal' ? (m.metrics.deal ? 1 : 0) : m.metrics[metric]);
  const b = new Map(results.matches.filter((m) => m.arm === armB).map((m) => [key(m), m]));
  const pairsA: number[] = [];
  const pairsB: number[] = [];
  for (const m of results.matches) {
    if (m.arm !== armA) continue;
    const other = b.get(key(m));
    if (!other || !isFinishedMatch(m) || !isFinishedMatch(other)) continue;
    pairsA.push(value(m));
    pairsB.push(value(other));
  }
  // Deals are 0/1 outcomes: their paired difference gets Tango's score interval, not a bootstrap.
  return pairedComparison(pairsA, pairsB, {
    seed: pairsA.length,
    outcomes: metric === 'deal' ? 'binary' : 'continuous',
  });
}
