// The simulation layer as every runtime has it; reading and merging run files is Node-only (src/node).
export type { Distribution } from './distribution.js';
export { describeDistribution, quantile } from './distribution.js';
export { DEFAULT_EARLY_STOP, RunFailedEarlyError } from './early-stop.js';
export type { ErrorMessageCount } from './failures.js';
export { countErrorMessages, errorLine, finishedOnly, isFinished, UNFINISHED_REASONS } from './failures.js';
export type { IndexedJsonlContents, RecordSpan } from './indexed-jsonl.js';
export type { MergeRunsOptions, MergeRunsResult } from './merge-runs.js';
// Published reference sets (the card's numbers) and run provenance.
export type {
  BootstrapOptions,
  CompareOptions,
  Comparison,
  ComparisonRow,
  DeltaIntervalMethod,
  FormatTableOptions,
  HistogramBin,
  IntervalMethod,
  LabelEffect,
  LabelFacts,
  MetricDefinition,
  MetricEstimate,
  MetricFamily,
  MetricFamilyBuilder,
  MetricUnit,
  PriceRatioHistogramOptions,
  PublishedValue,
  ReferenceComparison,
  ReferenceOptions,
  ReferenceRow,
  ReferenceSet,
  ReferenceStatistic,
  SegmentRow,
  SessionFacts,
  SessionLengthDistribution,
  SessionSource,
  Verdict,
  VerdictMethod,
  VerdictResult,
} from './metrics/index.js';
export {
  bootstrapCi,
  byCategory,
  byPriceTier,
  CARD_REFERENCE_SET,
  clopperPearson,
  compare,
  compareToReferences,
  comparisonVerdict,
  computeMetrics,
  DEAL_RATE_METRIC,
  DEFAULT_MARGINS,
  DEFAULT_SHARE_MARGIN,
  dealRate,
  describeUnfinished,
  differenceOfIntervals,
  equivalenceVerdict,
  fisherExactTest,
  formatComparison,
  formatInterval,
  formatMargin,
  formatMetricDelta,
  formatMetricValue,
  formatPublishedSample,
  formatPublishedValue,
  formatPValue,
  formatReferenceComparison,
  formatReferenceDifference,
  hasMessage,
  isMessageSession,
  isProportion,
  isReferenceSetId,
  judgeReference,
  labelEffects,
  labelMetricCaveats,
  MESSAGE_SESSION_RATE_METRIC,
  METRIC_FAMILIES,
  messageSessionRate,
  metricDefinitions,
  pairedProportionInterval,
  percentileInterval,
  priceRatioHistogram,
  proportionDifferenceInterval,
  REFERENCE_SETS,
  referenceNotes,
  referenceVerdict,
  resolveReferenceSet,
  SESSION_LENGTH_BANDS,
  sessionFacts,
  sessionLengthDistribution,
  sessionsNeeded,
  sessionsToTell,
  TELL_DIFFERENCE,
  UNCATEGORIZED,
  verdictMethod,
} from './metrics/index.js';
export type { SessionOutcome } from './outcome.js';
export type { RunProvenance } from './provenance.js';
export { currentProvenance, provenanceChanges, sameRunSettings } from './provenance.js';
export type { RunFileContents, RunHeader, SessionRecord } from './run-file.js';
export { RunFileError } from './run-file-error.js';
export { RUN_FILE_FORMAT, RUN_FILE_VERSION } from './run-file-format.js';
export type { RunFileLockHolder } from './run-file-locked-error.js';
export { RunFileLockedError } from './run-file-locked-error.js';
export type { SessionOptions, SessionRunOptions } from './session.js';
export { Session } from './session.js';
export type {
  SessionEndEvent,
  SessionErrorEvent,
  SessionEvents,
  SessionStartEvent,
  TurnDeltaEvent,
  TurnEvent,
} from './session-events.js';
export type { RecordedTurn, SessionResult, SessionWarning } from './session-result.js';
export type { Shard } from './shard.js';
export { inShard, parseShard, shardIndices, shardSize } from './shard.js';
export type { SimulateOptions, SimulationEvents, SimulationProgress, SimulationRun } from './simulate.js';
// The build without file access; the Node build (src/node) gives the one that writes `out`.
export { simulate } from './simulate.js';
export type { SimulationSummary } from './summary.js';
export { SummaryAccumulator, summarize } from './summary.js';
export type { GenerateContextsOptions, PriceTier } from './synthetic-contexts.js';
export { generateContexts, PRICE_TIERS, priceTier, syntheticContext } from './synthetic-contexts.js';
export type { Transcript, TranscriptTurn } from './transcript.js';
