import type { Role } from '../contract/history.js';
import type { MultiIssueResult } from './multi-issue-negotiation.js';
import type { Scenario } from './scenario.js';
import { utilityOf } from './utility.js';

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
 */
export function bargainingReward(
  scenario: Scenario,
  result: MultiIssueResult,
  role: Role,
  options: RewardOptions = {},
): number {
  if (result.reason === 'invalid-turn' || result.reason === 'error') return options.invalidTurn ?? -1;
  if (!result.agreement) {
    const noDeal = options.noDeal ?? 'reservation';
    return noDeal === 'reservation' ? scenario[role].reservation : noDeal;
  }
  const round = Math.max(0, result.rounds - 1);
  return utilityOf(scenario.space, scenario[role], result.agreement, round);
}
