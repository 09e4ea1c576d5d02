import {
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from '../evaluation/multi-issue-baselines.js';
import type { MultiIssueNegotiator } from '../evaluation/multi-issue-turn.js';

/** Multi-issue negotiators the CLI builds by name (arms and opponents of `haggle evaluate`). */
export const MULTI_ISSUE_AGENTS = {
  'utility-boulware': utilityBoulware,
  'utility-linear': utilityLinear,
  'utility-conceder': utilityConceder,
  'utility-tit-for-tat': () => new UtilityTitForTatNegotiator(),
} as const satisfies Record<string, () => MultiIssueNegotiator>;

export type MultiIssueAgentName = keyof typeof MULTI_ISSUE_AGENTS;
export const MULTI_ISSUE_AGENT_NAMES = Object.keys(MULTI_ISSUE_AGENTS) as MultiIssueAgentName[];

export function isMultiIssueAgentName(name: string): name is MultiIssueAgentName {
  return (MULTI_ISSUE_AGENT_NAMES as string[]).includes(name);
}
