import type { Role } from '../contract/history.js';
import { distanceToFrontier, utilityDistance } from './bargaining-geometry.js';
import type { MultiIssueResult } from './multi-issue-negotiation.js';
import type { Scenario, ScenarioGeometry } from './scenario.js';

/** How one match went, with the scores a paper reports. */
export interface MatchMetrics {
  deal: boolean;
  /** The arm's utility of the result (its reservation value without a deal). */
  armUtility: number;
  opponentUtility: number;
  /** Distance in utility space from the result to the Nash point and to the Pareto frontier (deals only). */
  distanceToNash: number | null;
  distanceToPareto: number | null;
  /** The arm agreed to less than its reservation value. */
  armIrViolation: boolean;
  rounds: number;
}

/**
 * The scores of one finished negotiation for the side `match.armRole` (a tournament's arm, or the trained
 * side of a training environment's episode): the same numbers a tournament writes for every match.
 */
export function scoreMatch(
  match: { armRole: Role; scenario: Scenario },
  result: MultiIssueResult,
  geometry: ScenarioGeometry,
): MatchMetrics {
  const opponentRole: Role = match.armRole === 'seller' ? 'buyer' : 'seller';
  const deal = result.agreement !== null;
  const point = result.utilities;
  return {
    deal,
    armUtility: point[match.armRole],
    opponentUtility: point[opponentRole],
    distanceToNash: deal && geometry.nash ? utilityDistance(point, geometry.nash) : null,
    distanceToPareto: deal ? distanceToFrontier(point, geometry.frontier) : null,
    armIrViolation: deal && point[match.armRole] < match.scenario[match.armRole].reservation,
    rounds: result.rounds,
  };
}
