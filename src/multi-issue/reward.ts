import type { Role } from '../contract/history.js';
import type { MultiIssueResult } from './multi-issue-negotiation.js';
import type { Scenario } from './scenario.js';
import { utilityOf } from './utility.js';

/** Options of `bargainingReward`: what no agreement and an invalid turn earn. */
export interface RewardOptions {
  /**
   * What a negotiation without agreement earns: `reservation` (the side's no-deal utility, the default:
   * walking away is never punished below what it is worth) or a fixed number (e.g. 0 or -1 to push a
   * policy towards deals).
   */
  noDeal?: 'reservation' | number;
  /** Reward for a malformed or illegal turn, which a trainer should see as worst. Default -1. */
  invalidTurn?: number;
}

/**
 * The programmatic utility reward for one side of a finished negotiation, as a GRPO trainer calls it:
 * the side's private utility of the agreement, discounted by the round it was reached in.
 *
 * `null` when the other side broke the negotiation (its backend failed, or it made an invalid turn):
 * the match is void for this side, which did nothing wrong, so it carries no reward at all. haggle's
 * choice, from the design's "a match lost to the opponent's failure is void for the other side": a
 * trainer that scored it -1 would punish a policy for its opponent's outage; one that scored it as a
 * no-deal would teach it nothing true either. `invalidTurn` is for the side's own failure.
 */
export function bargainingReward(
  scenario: Scenario,
  result: MultiIssueResult,
  role: Role,
  options: RewardOptions = {},
): number | null {
  if (result.reason === 'invalid-turn' || result.reason === 'error') {
    // Records written before `failedBy` existed do not say whose failure it was: the side bears it.
    if (result.failedBy !== undefined && result.failedBy !== role) return null;
    return options.invalidTurn ?? -1;
  }
  if (!result.agreement) {
    const noDeal = options.noDeal ?? 'reservation';
    return noDeal === 'reservation' ? scenario[role].reservation : noDeal;
  }
  const round = Math.max(0, result.rounds - 1);
  return utilityOf(scenario.space, scenario[role], result.agreement, round);
}
