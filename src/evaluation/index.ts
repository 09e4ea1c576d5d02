export type { AdaptiveConcessionOptions } from '../multi-issue/adaptive-concession-negotiator.js';
export { AdaptiveConcessionNegotiator } from '../multi-issue/adaptive-concession-negotiator.js';
export type { UtilityPoint } from '../multi-issue/bargaining-geometry.js';
export {
  distanceToFrontier,
  nashPoint,
  paretoFrontier,
  utilityDistance,
} from '../multi-issue/bargaining-geometry.js';
export type { BayesianOpponentModelOptions } from '../multi-issue/bayesian-opponent-model.js';
export { BayesianOpponentModel } from '../multi-issue/bayesian-opponent-model.js';
export type { FrequencyOpponentModelOptions } from '../multi-issue/frequency-opponent-model.js';
export { FrequencyOpponentModel } from '../multi-issue/frequency-opponent-model.js';
export type { HardHeadedOptions } from '../multi-issue/hard-headed-negotiator.js';
export { HardHeadedNegotiator } from '../multi-issue/hard-headed-negotiator.js';
export type { Issue, IssueSpace, IssueSpaceInput, Outcome } from '../multi-issue/issue-space.js';
export {
  checkOutcome,
  enumerateOutcomes,
  IssueSchema,
  IssueSpaceSchema,
  issueGrid,
  MAX_ENUMERATED_OUTCOMES,
} from '../multi-issue/issue-space.js';
export type { MultiIssueBaselineName } from '../multi-issue/multi-issue-baseline-registry.js';
export {
  isMultiIssueBaselineName,
  MULTI_ISSUE_BASELINE_NAMES,
  MULTI_ISSUE_BASELINES,
} from '../multi-issue/multi-issue-baseline-registry.js';
export type {
  UtilityConcessionOptions,
  UtilityTitForTatOptions,
} from '../multi-issue/multi-issue-baselines.js';
export {
  UtilityConcessionNegotiator,
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from '../multi-issue/multi-issue-baselines.js';
export type { MultiIssueLlmAgentOptions } from '../multi-issue/multi-issue-llm-agent.js';
export { MultiIssueLlmAgent } from '../multi-issue/multi-issue-llm-agent.js';
export type {
  MultiIssueEndReason,
  MultiIssueNegotiationOptions,
  MultiIssueResult,
} from '../multi-issue/multi-issue-negotiation.js';
export { runMultiIssueNegotiation } from '../multi-issue/multi-issue-negotiation.js';
export { multiIssueMessages } from '../multi-issue/multi-issue-prompt.js';
export type {
  MultiIssueAction,
  MultiIssueHistoryEntry,
  MultiIssueInput,
  MultiIssueNegotiator,
  MultiIssueTurn,
} from '../multi-issue/multi-issue-turn.js';
export {
  MULTI_ISSUE_ACTIONS,
  MultiIssueTurnSchema,
  multiIssueTurnJsonSchema,
  standingProposal,
} from '../multi-issue/multi-issue-turn.js';
export type { NashSeekingOptions } from '../multi-issue/nash-seeking-negotiator.js';
export { estimatedNashPoint, NashSeekingNegotiator } from '../multi-issue/nash-seeking-negotiator.js';
export type { OpponentModel } from '../multi-issue/opponent-model.js';
export { learnFromHistory, offersOfOtherSide } from '../multi-issue/opponent-model.js';
export type { RankedOutcomes } from '../multi-issue/outcome-ranking.js';
export { outcomeDistance, proposalFor, rankOutcomes } from '../multi-issue/outcome-ranking.js';
export type { RewardOptions } from '../multi-issue/reward.js';
export { bargainingReward } from '../multi-issue/reward.js';
export type { Scenario, ScenarioGeometry, ScenarioInput } from '../multi-issue/scenario.js';
export { parseScenario, ScenarioSchema, scenarioGeometry } from '../multi-issue/scenario.js';
export type { ScenarioGeneratorOptions } from '../multi-issue/scenario-generator.js';
export { generateScenario, SECONDARY_ISSUE_NAMES } from '../multi-issue/scenario-generator.js';
export type { IssueValuation, SideUtility, SideUtilityInput } from '../multi-issue/utility.js';
export {
  IssueValuationSchema,
  parseSideUtility,
  SideUtilitySchema,
  utilityOf,
} from '../multi-issue/utility.js';
export type {
  AnalyseTournamentOptions,
  AnalysisMetric,
  AnalysisOptions,
  AnalysisTable,
  ArmComparison,
  DifferenceOfDifferences,
  GainContrast,
  GroupedGains,
  OpponentGroup,
  OpponentGrouping,
  PairedDifference,
  PairedUnit,
  PermutationOptions,
  PermutationPValue,
  TestOptions,
  TournamentAnalysis,
  TournamentData,
} from './analysis/index.js';
export {
  ANALYSIS_METRICS,
  analyseTournament,
  analysisTables,
  armOpponentInteractions,
  armsWithBase,
  bootstrapDifferenceOfMeans,
  compareArmsByOpponent,
  comparisonVerdict,
  differenceOfDifferences,
  formatP,
  gainContrast,
  gainsOverBase,
  groupedGains,
  holm,
  isAnalysisMetric,
  labelPermutationPValue,
  METRIC_LABELS,
  matchWelfare,
  metricValue,
  negotiationKey,
  opponentGroups,
  pairedDifference,
  pairedUnits,
  pooledVerdicts,
  signFlipPValue,
} from './analysis/index.js';
export type { PrivateValues, TradeScore } from './bilateral-trade.js';
export { scoreTrade } from './bilateral-trade.js';
export { canonicalJson, contentHash } from './canonical-json.js';
export type { LoadedExperiment } from './experiment-file.js';
export { ExperimentFileError, loadExperiment, parseExperiment } from './experiment-file.js';
export type { ExperimentParticipants, ExperimentParticipantsOptions } from './experiment-participants.js';
export { experimentLlmAgent, experimentParticipants } from './experiment-participants.js';
export type { ExperimentRecord } from './experiment-record.js';
export { experimentRecord } from './experiment-record.js';
export type {
  Experiment,
  ExperimentArm,
  ExperimentLlm,
  ExperimentOpponent,
  ExperimentParticipant,
} from './experiment-schema.js';
export {
  EXPERIMENT_FORMAT,
  EXPERIMENT_VERSION,
  ExperimentArmSchema,
  ExperimentLlmSchema,
  ExperimentOpponentSchema,
  ExperimentSchema,
} from './experiment-schema.js';
export type { ExperimentRunOptions, ExperimentTournament } from './experiment-tournament.js';
export { experimentTournament, runExperiment } from './experiment-tournament.js';
export type { LoadedTournament } from './load-tournament.js';
export { loadTournament } from './load-tournament.js';
export type { ParticipantLabel, ParticipantLabels } from './participant-label.js';
export { plannedMatchCount } from './planned-matches.js';
export type { SftExportOptions, ShareGptExample } from './sft-export.js';
export { renderQwen3NoThinkTraining, sftExamples, turnTarget } from './sft-export.js';
export type { Estimate, PairedComparison } from './statistics.js';
export {
  bootstrapMean,
  formatEstimate,
  pairedComparison,
  pairedProportionEstimate,
  proportionEstimate,
} from './statistics.js';
export type { GenerateSuiteOptions, Suite, SuiteMatch } from './suite.js';
export {
  DEFAULT_FIRST_MOVER,
  DEFAULT_MAX_ROUNDS,
  DEFAULT_SUITE_OPPONENTS,
  generateSuite,
  loadSuite,
  SUITE_FORMAT,
  SUITE_VERSION,
  SuiteFileError,
  SuiteSchema,
  saveSuite,
  suiteIdentity,
  suiteMatches,
} from './suite.js';
export type {
  MatchMetrics,
  MatchRecord,
  TournamentEvents,
  TournamentHeader,
  TournamentOptions,
  TournamentRun,
} from './tournament.js';
export { runTournament } from './tournament.js';
export { readTournamentFile } from './tournament-file.js';
export type { ArmScore, PairedMetric, TournamentResults } from './tournament-results.js';
export {
  compareArms,
  isFailedMatch,
  isFinishedMatch,
  isVoidMatch,
  tabulateTournament,
} from './tournament-results.js';
export type { GrpoGroup } from './training-export.js';
export { grpoGroups, toJsonl } from './training-export.js';
