// The main entry's flat names from before the subpaths: kept in the Node build so that existing
// imports work, each marked deprecated with the subpath to import it from instead. Browsers, Deno and
// edge runtimes get the main entry without them. Drop in 0.3 (haggle's choice: one minor release of notice).
// Written by scripts/generate-flat-names.mjs; scripts/mark-deprecated-types.mjs puts the marks into dist.

export {
  /** @deprecated Import from `haggle/decoding`. */
  allowedTokenIds,
  /** @deprecated Import from `haggle/decoding`. */
  CompiledGrammar,
  /** @deprecated Import from `haggle/decoding`. */
  type CompileOptions,
  /** @deprecated Import from `haggle/decoding`. */
  type ConstrainedDecodeOptions,
  /** @deprecated Import from `haggle/decoding`. */
  type ConstrainedDecodeResult,
  /** @deprecated Import from `haggle/decoding`. */
  compileSchema,
  /** @deprecated Import from `haggle/decoding`. */
  countAllowed,
  /** @deprecated Import from `haggle/decoding`. */
  type DecoderVocabulary,
  /** @deprecated Import from `haggle/decoding`. */
  decodeConstrained,
  /** @deprecated Import from `haggle/decoding`. */
  decoderVocabulary,
  /** @deprecated Import from `haggle/decoding`. */
  type EncodeText,
  /** @deprecated Import from `haggle/decoding`. */
  GrammarMatcher,
  /** @deprecated Import from `haggle/decoding`. */
  isAllowed,
  /** @deprecated Import from `haggle/decoding`. */
  type JumpForward,
  /** @deprecated Import from `haggle/decoding`. */
  jumpForward,
  /** @deprecated Import from `haggle/decoding`. */
  prepareVocabulary,
  /** @deprecated Import from `haggle/decoding`. */
  type SchemaCompileOptions,
  /** @deprecated Import from `haggle/decoding`. */
  type SchemaLimit,
  /** @deprecated Import from `haggle/decoding`. */
  SchemaLimitError,
  /** @deprecated Import from `haggle/decoding`. */
  SUPPORTED_KEYWORDS,
  /** @deprecated Import from `haggle/decoding`. */
  TokenSampler,
  /** @deprecated Import from `haggle/decoding`. */
  type TokenSamplerOptions,
  /** @deprecated Import from `haggle/decoding`. */
  type TokenTrie,
  /** @deprecated Import from `haggle/decoding`. */
  UnsatisfiableSchemaError,
  /** @deprecated Import from `haggle/decoding`. */
  UnsupportedSchemaError,
} from '../decoding/index.js';

export {
  /** @deprecated Import from `haggle/evaluation`. */
  ANALYSIS_METRICS,
  /** @deprecated Import from `haggle/evaluation`. */
  type AnalyseTournamentOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type AnalysisMetric,
  /** @deprecated Import from `haggle/evaluation`. */
  type AnalysisOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type AnalysisTable,
  /** @deprecated Import from `haggle/evaluation`. */
  type ArmComparison,
  /** @deprecated Import from `haggle/evaluation`. */
  type ArmScore,
  /** @deprecated Import from `haggle/evaluation`. */
  analyseTournament,
  /** @deprecated Import from `haggle/evaluation`. */
  analysisTables,
  /** @deprecated Import from `haggle/evaluation`. */
  armOpponentInteractions,
  /** @deprecated Import from `haggle/evaluation`. */
  armsWithBase,
  /** @deprecated Import from `haggle/evaluation`. */
  bargainingReward,
  /** @deprecated Import from `haggle/evaluation`. */
  bootstrapDifferenceOfMeans,
  /** @deprecated Import from `haggle/evaluation`. */
  bootstrapMean,
  /** @deprecated Import from `haggle/evaluation`. */
  canonicalJson,
  /** @deprecated Import from `haggle/evaluation`. */
  checkOutcome,
  /** @deprecated Import from `haggle/evaluation`. */
  compareArms,
  /** @deprecated Import from `haggle/evaluation`. */
  compareArmsByOpponent,
  /** @deprecated Import from `haggle/evaluation`. */
  comparisonVerdict,
  /** @deprecated Import from `haggle/evaluation`. */
  contentHash,
  /** @deprecated Import from `haggle/evaluation`. */
  DEFAULT_FIRST_MOVER,
  /** @deprecated Import from `haggle/evaluation`. */
  DEFAULT_MAX_ROUNDS,
  /** @deprecated Import from `haggle/evaluation`. */
  DEFAULT_SUITE_OPPONENTS,
  /** @deprecated Import from `haggle/evaluation`. */
  type DifferenceOfDifferences,
  /** @deprecated Import from `haggle/evaluation`. */
  differenceOfDifferences,
  /** @deprecated Import from `haggle/evaluation`. */
  distanceToFrontier,
  /** @deprecated Import from `haggle/evaluation`. */
  type Estimate,
  /** @deprecated Import from `haggle/evaluation`. */
  EXPERIMENT_FORMAT,
  /** @deprecated Import from `haggle/evaluation`. */
  EXPERIMENT_VERSION,
  /** @deprecated Import from `haggle/evaluation`. */
  type Experiment,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentArm,
  /** @deprecated Import from `haggle/evaluation`. */
  ExperimentArmSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  ExperimentFileError,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentLlm,
  /** @deprecated Import from `haggle/evaluation`. */
  ExperimentLlmSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentOpponent,
  /** @deprecated Import from `haggle/evaluation`. */
  ExperimentOpponentSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentParticipant,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentParticipants,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentParticipantsOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentRecord,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentRunOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  ExperimentSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  type ExperimentTournament,
  /** @deprecated Import from `haggle/evaluation`. */
  enumerateOutcomes,
  /** @deprecated Import from `haggle/evaluation`. */
  experimentLlmAgent,
  /** @deprecated Import from `haggle/evaluation`. */
  experimentParticipants,
  /** @deprecated Import from `haggle/evaluation`. */
  experimentRecord,
  /** @deprecated Import from `haggle/evaluation`. */
  experimentTournament,
  /** @deprecated Import from `haggle/evaluation`. */
  formatEstimate,
  /** @deprecated Import from `haggle/evaluation`. */
  formatP,
  /** @deprecated Import from `haggle/evaluation`. */
  type GainContrast,
  /** @deprecated Import from `haggle/evaluation`. */
  type GenerateSuiteOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type GroupedGains,
  /** @deprecated Import from `haggle/evaluation`. */
  type GrpoGroup,
  /** @deprecated Import from `haggle/evaluation`. */
  gainContrast,
  /** @deprecated Import from `haggle/evaluation`. */
  gainsOverBase,
  /** @deprecated Import from `haggle/evaluation`. */
  generateScenario,
  /** @deprecated Import from `haggle/evaluation`. */
  generateSuite,
  /** @deprecated Import from `haggle/evaluation`. */
  groupedGains,
  /** @deprecated Import from `haggle/evaluation`. */
  grpoGroups,
  /** @deprecated Import from `haggle/evaluation`. */
  holm,
  /** @deprecated Import from `haggle/evaluation`. */
  type Issue,
  /** @deprecated Import from `haggle/evaluation`. */
  IssueSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  type IssueSpace,
  /** @deprecated Import from `haggle/evaluation`. */
  type IssueSpaceInput,
  /** @deprecated Import from `haggle/evaluation`. */
  IssueSpaceSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  type IssueValuation,
  /** @deprecated Import from `haggle/evaluation`. */
  IssueValuationSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  isAnalysisMetric,
  /** @deprecated Import from `haggle/evaluation`. */
  isFailedMatch,
  /** @deprecated Import from `haggle/evaluation`. */
  isFinishedMatch,
  /** @deprecated Import from `haggle/evaluation`. */
  isMultiIssueBaselineName,
  /** @deprecated Import from `haggle/evaluation`. */
  issueGrid,
  /** @deprecated Import from `haggle/evaluation`. */
  isVoidMatch,
  /** @deprecated Import from `haggle/evaluation`. */
  type LoadedExperiment,
  /** @deprecated Import from `haggle/evaluation`. */
  type LoadedTournament,
  /** @deprecated Import from `haggle/evaluation`. */
  labelPermutationPValue,
  /** @deprecated Import from `haggle/evaluation`. */
  loadExperiment,
  /** @deprecated Import from `haggle/evaluation`. */
  loadSuite,
  /** @deprecated Import from `haggle/evaluation`. */
  loadTournament,
  /** @deprecated Import from `haggle/evaluation`. */
  MAX_ENUMERATED_OUTCOMES,
  /** @deprecated Import from `haggle/evaluation`. */
  type MatchMetrics,
  /** @deprecated Import from `haggle/evaluation`. */
  type MatchRecord,
  /** @deprecated Import from `haggle/evaluation`. */
  METRIC_LABELS,
  /** @deprecated Import from `haggle/evaluation`. */
  MULTI_ISSUE_ACTIONS,
  /** @deprecated Import from `haggle/evaluation`. */
  MULTI_ISSUE_BASELINE_NAMES,
  /** @deprecated Import from `haggle/evaluation`. */
  MULTI_ISSUE_BASELINES,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueAction,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueBaselineName,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueEndReason,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueHistoryEntry,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueInput,
  /** @deprecated Import from `haggle/evaluation`. */
  MultiIssueLlmAgent,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueLlmAgentOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueNegotiationOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueNegotiator,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueResult,
  /** @deprecated Import from `haggle/evaluation`. */
  type MultiIssueTurn,
  /** @deprecated Import from `haggle/evaluation`. */
  MultiIssueTurnSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  matchWelfare,
  /** @deprecated Import from `haggle/evaluation`. */
  metricValue,
  /** @deprecated Import from `haggle/evaluation`. */
  multiIssueMessages,
  /** @deprecated Import from `haggle/evaluation`. */
  multiIssueTurnJsonSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  nashPoint,
  /** @deprecated Import from `haggle/evaluation`. */
  negotiationKey,
  /** @deprecated Import from `haggle/evaluation`. */
  type OpponentGroup,
  /** @deprecated Import from `haggle/evaluation`. */
  type OpponentGrouping,
  /** @deprecated Import from `haggle/evaluation`. */
  type Outcome,
  /** @deprecated Import from `haggle/evaluation`. */
  opponentGroups,
  /** @deprecated Import from `haggle/evaluation`. */
  outcomeDistance,
  /** @deprecated Import from `haggle/evaluation`. */
  type PairedComparison,
  /** @deprecated Import from `haggle/evaluation`. */
  type PairedDifference,
  /** @deprecated Import from `haggle/evaluation`. */
  type PairedMetric,
  /** @deprecated Import from `haggle/evaluation`. */
  type PairedUnit,
  /** @deprecated Import from `haggle/evaluation`. */
  type ParticipantLabel,
  /** @deprecated Import from `haggle/evaluation`. */
  type ParticipantLabels,
  /** @deprecated Import from `haggle/evaluation`. */
  type PermutationOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type PermutationPValue,
  /** @deprecated Import from `haggle/evaluation`. */
  type PrivateValues,
  /** @deprecated Import from `haggle/evaluation`. */
  pairedComparison,
  /** @deprecated Import from `haggle/evaluation`. */
  pairedDifference,
  /** @deprecated Import from `haggle/evaluation`. */
  pairedUnits,
  /** @deprecated Import from `haggle/evaluation`. */
  paretoFrontier,
  /** @deprecated Import from `haggle/evaluation`. */
  parseExperiment,
  /** @deprecated Import from `haggle/evaluation`. */
  parseScenario,
  /** @deprecated Import from `haggle/evaluation`. */
  parseSideUtility,
  /** @deprecated Import from `haggle/evaluation`. */
  pooledVerdicts,
  /** @deprecated Import from `haggle/evaluation`. */
  proposalFor,
  /** @deprecated Import from `haggle/evaluation`. */
  type RankedOutcomes,
  /** @deprecated Import from `haggle/evaluation`. */
  type RewardOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  rankOutcomes,
  /** @deprecated Import from `haggle/evaluation`. */
  readTournamentFile,
  /** @deprecated Import from `haggle/evaluation`. */
  renderQwen3NoThinkTraining,
  /** @deprecated Import from `haggle/evaluation`. */
  runExperiment,
  /** @deprecated Import from `haggle/evaluation`. */
  runMultiIssueNegotiation,
  /** @deprecated Import from `haggle/evaluation`. */
  runTournament,
  /** @deprecated Import from `haggle/evaluation`. */
  type Scenario,
  /** @deprecated Import from `haggle/evaluation`. */
  type ScenarioGeneratorOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type ScenarioGeometry,
  /** @deprecated Import from `haggle/evaluation`. */
  type ScenarioInput,
  /** @deprecated Import from `haggle/evaluation`. */
  ScenarioSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  SECONDARY_ISSUE_NAMES,
  /** @deprecated Import from `haggle/evaluation`. */
  type SftExportOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type ShareGptExample,
  /** @deprecated Import from `haggle/evaluation`. */
  type SideUtility,
  /** @deprecated Import from `haggle/evaluation`. */
  type SideUtilityInput,
  /** @deprecated Import from `haggle/evaluation`. */
  SideUtilitySchema,
  /** @deprecated Import from `haggle/evaluation`. */
  SUITE_FORMAT,
  /** @deprecated Import from `haggle/evaluation`. */
  SUITE_VERSION,
  /** @deprecated Import from `haggle/evaluation`. */
  type Suite,
  /** @deprecated Import from `haggle/evaluation`. */
  SuiteFileError,
  /** @deprecated Import from `haggle/evaluation`. */
  type SuiteMatch,
  /** @deprecated Import from `haggle/evaluation`. */
  SuiteSchema,
  /** @deprecated Import from `haggle/evaluation`. */
  saveSuite,
  /** @deprecated Import from `haggle/evaluation`. */
  scenarioGeometry,
  /** @deprecated Import from `haggle/evaluation`. */
  scoreTrade,
  /** @deprecated Import from `haggle/evaluation`. */
  sftExamples,
  /** @deprecated Import from `haggle/evaluation`. */
  signFlipPValue,
  /** @deprecated Import from `haggle/evaluation`. */
  standingProposal,
  /** @deprecated Import from `haggle/evaluation`. */
  suiteIdentity,
  /** @deprecated Import from `haggle/evaluation`. */
  suiteMatches,
  /** @deprecated Import from `haggle/evaluation`. */
  type TestOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type TournamentAnalysis,
  /** @deprecated Import from `haggle/evaluation`. */
  type TournamentData,
  /** @deprecated Import from `haggle/evaluation`. */
  type TournamentEvents,
  /** @deprecated Import from `haggle/evaluation`. */
  type TournamentHeader,
  /** @deprecated Import from `haggle/evaluation`. */
  type TournamentOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type TournamentResults,
  /** @deprecated Import from `haggle/evaluation`. */
  type TournamentRun,
  /** @deprecated Import from `haggle/evaluation`. */
  type TradeScore,
  /** @deprecated Import from `haggle/evaluation`. */
  tabulateTournament,
  /** @deprecated Import from `haggle/evaluation`. */
  toJsonl,
  /** @deprecated Import from `haggle/evaluation`. */
  turnTarget,
  /** @deprecated Import from `haggle/evaluation`. */
  UtilityConcessionNegotiator,
  /** @deprecated Import from `haggle/evaluation`. */
  type UtilityConcessionOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  type UtilityPoint,
  /** @deprecated Import from `haggle/evaluation`. */
  UtilityTitForTatNegotiator,
  /** @deprecated Import from `haggle/evaluation`. */
  type UtilityTitForTatOptions,
  /** @deprecated Import from `haggle/evaluation`. */
  utilityBoulware,
  /** @deprecated Import from `haggle/evaluation`. */
  utilityConceder,
  /** @deprecated Import from `haggle/evaluation`. */
  utilityDistance,
  /** @deprecated Import from `haggle/evaluation`. */
  utilityLinear,
  /** @deprecated Import from `haggle/evaluation`. */
  utilityOf,
} from '../evaluation/index.js';

export {
  /** @deprecated Import from `haggle/report`. */
  type BarChartSpec,
  /** @deprecated Import from `haggle/report`. */
  type BarSeries,
  /** @deprecated Import from `haggle/report`. */
  barChartSvg,
  /** @deprecated Import from `haggle/report`. */
  buildReportData,
  /** @deprecated Import from `haggle/report`. */
  type ChartIntervals,
  /** @deprecated Import from `haggle/report`. */
  ChartLibraryError,
  /** @deprecated Import from `haggle/report`. */
  escapeHtml,
  /** @deprecated Import from `haggle/report`. */
  type Interval,
  /** @deprecated Import from `haggle/report`. */
  isTournamentFile,
  /** @deprecated Import from `haggle/report`. */
  type OutcomeRow,
  /** @deprecated Import from `haggle/report`. */
  type ReportData,
  /** @deprecated Import from `haggle/report`. */
  type ReportInput,
  /** @deprecated Import from `haggle/report`. */
  type ReportRun,
  /** @deprecated Import from `haggle/report`. */
  type RunFigures,
  /** @deprecated Import from `haggle/report`. */
  renderBarChart,
  /** @deprecated Import from `haggle/report`. */
  renderReport,
  /** @deprecated Import from `haggle/report`. */
  renderTournamentReport,
  /** @deprecated Import from `haggle/report`. */
  reportChartSpecs,
  /** @deprecated Import from `haggle/report`. */
  tournamentChartSpecs,
  /** @deprecated Import from `haggle/report`. */
  type WriteReportOptions,
  /** @deprecated Import from `haggle/report`. */
  type WriteReportResult,
  /** @deprecated Import from `haggle/report`. */
  writeReport,
  /** @deprecated Import from `haggle/report`. */
  writeTournamentReport,
  /** @deprecated Import from `haggle/report`. */
  writeTournamentReportFile,
} from '../report/index.js';

export {
  /** @deprecated Import from `haggle/server`. */
  DEFAULT_REQUEST_LIMITS,
  /** @deprecated Import from `haggle/server`. */
  type ListenOptions,
  /** @deprecated Import from `haggle/server`. */
  OpenAIServer,
  /** @deprecated Import from `haggle/server`. */
  type OpenAIServerOptions,
  /** @deprecated Import from `haggle/server`. */
  type RequestLimits,
  /** @deprecated Import from `haggle/server`. */
  type ServerFailure,
} from '../server/index.js';
