// The multi-issue bargaining game: issue spaces, private utilities, scenarios and their geometry, the
// alternating-offers negotiation, its turn, prompt and LLM agent, baselines, learning strategies and
// opponent models, and the reward. A layer below evaluation/ (suites, tournaments) and env/ (training).
export type { AdaptiveConcessionOptions } from './adaptive-concession-negotiator.js';
export { AdaptiveConcessionNegotiator } from './adaptive-concession-negotiator.js';
export type { UtilityPoint } from './bargaining-geometry.js';
export {
  distanceToFrontier,
  nashPoint,
  paretoFrontier,
  utilityDistance,
} from './bargaining-geometry.js';
export type { BayesianOpponentModelOptions } from './bayesian-opponent-model.js';
export { BayesianOpponentModel } from './bayesian-opponent-model.js';
export type { FrequencyOpponentModelOptions } from './frequency-opponent-model.js';
export { FrequencyOpponentModel } from './frequency-opponent-model.js';
export type { HardHeadedOptions } from './hard-headed-negotiator.js';
export { HardHeadedNegotiator } from './hard-headed-negotiator.js';
export type { Issue, IssueSpace, IssueSpaceInput, Outcome } from './issue-space.js';
export {
  checkOutcome,
  enumerateOutcomes,
  IssueSchema,
  IssueSpaceSchema,
  issueGrid,
  MAX_ENUMERATED_OUTCOMES,
} from './issue-space.js';
export type { MultiIssueBaselineName } from './multi-issue-baseline-registry.js';
export {
  isMultiIssueBaselineName,
  MULTI_ISSUE_BASELINE_NAMES,
  MULTI_ISSUE_BASELINES,
} from './multi-issue-baseline-registry.js';
export type {
  UtilityConcessionOptions,
  UtilityTitForTatOptions,
} from './multi-issue-baselines.js';
export {
  UtilityConcessionNegotiator,
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from './multi-issue-baselines.js';
export type { MultiIssueLlmAgentOptions } from './multi-issue-llm-agent.js';
export { MultiIssueLlmAgent } from './multi-issue-llm-agent.js';
export type {
  MultiIssueEndReason,
  MultiIssueNegotiationOptions,
  MultiIssueResult,
} from './multi-issue-negotiation.js';
export { runMultiIssueNegotiation } from './multi-issue-negotiation.js';
export { multiIssueMessages } from './multi-issue-prompt.js';
export type {
  MultiIssueAction,
  MultiIssueHistoryEntry,
  MultiIssueInput,
  MultiIssueNegotiator,
  MultiIssueTurn,
} from './multi-issue-turn.js';
export {
  MULTI_ISSUE_ACTIONS,
  MultiIssueTurnSchema,
  multiIssueTurnJsonSchema,
  standingProposal,
} from './multi-issue-turn.js';
export type { NashSeekingOptions } from './nash-seeking-negotiator.js';
export { estimatedNashPoint, NashSeekingNegotiator } from './nash-seeking-negotiator.js';
export type { OpponentModel } from './opponent-model.js';
export { learnFromHistory, offersOfOtherSide } from './opponent-model.js';
export type { RankedOutcomes } from './outcome-ranking.js';
export { outcomeDistance, proposalFor, rankOutcomes } from './outcome-ranking.js';
export type { RewardOptions } from './reward.js';
export { bargainingReward } from './reward.js';
export type { Scenario, ScenarioGeometry, ScenarioInput } from './scenario.js';
export { parseScenario, ScenarioSchema, scenarioGeometry } from './scenario.js';
export type { ScenarioGeneratorOptions } from './scenario-generator.js';
export { generateScenario, SECONDARY_ISSUE_NAMES } from './scenario-generator.js';
export type { IssueValuation, SideUtility, SideUtilityInput } from './utility.js';
export {
  IssueValuationSchema,
  parseSideUtility,
  SideUtilitySchema,
  utilityOf,
} from './utility.js';
