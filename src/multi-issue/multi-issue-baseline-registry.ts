import { AdaptiveConcessionNegotiator } from './adaptive-concession-negotiator.js';
import { HardHeadedNegotiator } from './hard-headed-negotiator.js';
import {
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from './multi-issue-baselines.js';
import type { MultiIssueNegotiator } from './multi-issue-turn.js';
import { NashSeekingNegotiator } from './nash-seeking-negotiator.js';

/**
 * The multi-issue baselines by name: what `haggle evaluate --arm NAME`, `haggle suite --opponents` and an
 * experiment file's `"baseline": NAME` build. One list, so the CLI and experiment files never disagree.
 */
export const MULTI_ISSUE_BASELINES = {
  /** Concedes late: holds out near its best outcome until the last rounds. */
  'utility-boulware': utilityBoulware,
  /** Concedes at a constant rate from its best outcome to its reservation. */
  'utility-linear': utilityLinear,
  /** Concedes early, then slowly. */
  'utility-conceder': utilityConceder,
  /** Mirrors the other side's concessions in its own utility. */
  'utility-tit-for-tat': () => new UtilityTitForTatNegotiator(),
  /** Concedes very late; among offers equal to itself, the one its frequency model says pleases the other side (after HardHeaded). */
  'utility-hard-headed': () => new HardHeadedNegotiator(),
  /** Learns the other side's utility (Bayesian model) and concedes towards the estimated Nash point (after Nice Tit-for-Tat). */
  'utility-nash-seeker': () => new NashSeekingNegotiator(),
  /** Time-dependent concession whose speed follows the other side's; offers chosen with a frequency model. */
  'utility-adaptive-concession': () => new AdaptiveConcessionNegotiator(),
} as const satisfies Record<string, () => MultiIssueNegotiator>;

/** The name of a built-in multi-issue baseline, as `haggle evaluate --arm` and experiment files spell it. */
export type MultiIssueBaselineName = keyof typeof MULTI_ISSUE_BASELINES;
/** Every built-in multi-issue baseline's name, in the order the CLI lists them. */
export const MULTI_ISSUE_BASELINE_NAMES = Object.keys(MULTI_ISSUE_BASELINES) as MultiIssueBaselineName[];

/** Whether `name` is a built-in multi-issue baseline (narrows it to `MultiIssueBaselineName`). */
export function isMultiIssueBaselineName(name: string): name is MultiIssueBaselineName {
  return (MULTI_ISSUE_BASELINE_NAMES as string[]).includes(name);
}
