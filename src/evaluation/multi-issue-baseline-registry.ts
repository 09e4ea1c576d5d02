import {
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from './multi-issue-baselines.js';
import type { MultiIssueNegotiator } from './multi-issue-turn.js';

/**
 * The multi-issue baselines by name: what `haggle evaluate --arm NAME`, `haggle suite --opponents` and an
 * experiment file's `"baseline": NAME` build. One list, so the CLI and experiment files never disagree.
 */
export const MULTI_ISSUE_BASELINES = {
  'utility-boulware': utilityBoulware,
  'utility-linear': utilityLinear,
  'utility-conceder': utilityConceder,
  'utility-tit-for-tat': () => new UtilityTitForTatNegotiator(),
} as const satisfies Record<string, () => MultiIssueNegotiator>;

export type MultiIssueBaselineName = keyof typeof MULTI_ISSUE_BASELINES;
export const MULTI_ISSUE_BASELINE_NAMES = Object.keys(MULTI_ISSUE_BASELINES) as MultiIssueBaselineName[];

export function isMultiIssueBaselineName(name: string): name is MultiIssueBaselineName {
  return (MULTI_ISSUE_BASELINE_NAMES as string[]).includes(name);
}
