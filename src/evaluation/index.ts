// The multi-issue game (src/multi-issue/) is its own layer below evaluation/ and env/; haggle/evaluation
// keeps exporting it so that a user's imports did not change when it moved out.
export * from '../multi-issue/index.js';
export type { Estimate, PairedComparison } from '../simulation/metrics/estimates.js';
export {
  bootstrapMean,
  formatEstimate,
  pairedComparison,
  pairedProportionEstimate,
  proportionEstimate,
} from '../simulation/metrics/estimates.js';
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
export { SuiteFileError } from './errors.js';
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
export type { GenerateSuiteOptions, Suite, SuiteMatch } from './suite.js';
export {
  DEFAULT_FIRST_MOVER,
  DEFAULT_MAX_ROUNDS,
  DEFAULT_SUITE_OPPONENTS,
  generateSuite,
  loadSuite,
  SUITE_FORMAT,
  SUITE_VERSION,
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
