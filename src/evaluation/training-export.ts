import type { Role } from '../contract/history.js';
import type { MultiIssueHistoryEntry } from '../multi-issue/multi-issue-turn.js';
import { bargainingReward, type RewardOptions } from '../multi-issue/reward.js';
import type { Suite } from './suite.js';
import type { MatchRecord } from './tournament.js';

/** Several rollouts of the same negotiation setting with their rewards: one GRPO group. */
export interface GrpoGroup {
  /** Identifies the setting shared by the rollouts: suite, scenario, opponent, role, arm. */
  groupId: string;
  suiteId: string;
  scenarioId: string;
  opponent: string;
  role: Role;
  arm: string;
  rollouts: { seed: number; reward: number; reason: string; turns: MultiIssueHistoryEntry[] }[];
  /** Mean reward of the group: GRPO's baseline, given for convenience. */
  meanReward: number;
}

/**
 * Groups a tournament's matches into GRPO-ready groups: the rollouts of one arm on one scenario against
 * one opponent in one role (differing only by seed), each with the programmatic reward of the arm's side.
 * A match the opponent broke (its failure, its invalid turn) is void for the arm and left out; a group
 * with no rollout left is left out too. Write them one JSON object per line.
 */
export function grpoGroups(
  suite: Suite,
  matches: readonly MatchRecord[],
  options: RewardOptions = {},
): GrpoGroup[] {
  const scenarios = new Map(suite.scenarios.map((s) => [s.id, s]));
  const groups = new Map<string, GrpoGroup>();
  for (const match of matches) {
    const scenario = scenarios.get(match.scenarioId);
    if (!scenario) continue;
    const groupId = `${suite.id.slice(0, 12)}:${match.scenarioId}:${match.opponent}:${match.armRole}:${match.arm}`;
    let group = groups.get(groupId);
    if (!group) {
      group = {
        groupId,
        suiteId: suite.id,
        scenarioId: match.scenarioId,
        opponent: match.opponent,
        role: match.armRole,
        arm: match.arm,
        rollouts: [],
        meanReward: 0,
      };
      groups.set(groupId, group);
    }
    const reward = bargainingReward(scenario, match.result, match.armRole, options);
    if (reward === null) continue;
    group.rollouts.push({
      seed: match.seed,
      reward,
      reason: match.result.reason,
      turns: match.result.turns.map(({ role, turn }) => ({ role, turn })),
    });
  }
  const kept = [...groups.values()].filter((group) => group.rollouts.length > 0);
  for (const group of kept) {
    group.meanReward = group.rollouts.reduce((sum, r) => sum + r.reward, 0) / group.rollouts.length;
  }
  return kept;
}

/** JSONL text of the groups, one per line. */
export function toJsonl(items: readonly unknown[]): string {
  return items.map((item) => `${JSON.stringify(item)}\n`).join('');
}
