export type { AlternatingOffersRulesOptions } from './alternating-offers-rules.js';
export { AlternatingOffersRules } from './alternating-offers-rules.js';
export type { BestOfferRulesOptions } from './best-offer-rules.js';
export { BestOfferRules } from './best-offer-rules.js';
export type { Distribution } from './distribution.js';
export { describeDistribution, quantile } from './distribution.js';
// Published reference sets (the card's numbers) and run provenance.
export type {
  BootstrapOptions,
  CompareOptions,
  Comparison,
  ComparisonRow,
  HistogramBin,
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
  ReferenceRow,
  ReferenceSet,
  ReferenceStatistic,
  SegmentRow,
  SessionFacts,
  SessionLengthDistribution,
  SessionSource,
} from './metrics/index.js';
export {
  bootstrapCi,
  byCategory,
  byPriceTier,
  CARD_REFERENCE_SET,
  compare,
  compareToReferences,
  computeMetrics,
  DEAL_RATE_METRIC,
  dealRate,
  formatComparison,
  formatInterval,
  formatMetricDelta,
  formatMetricValue,
  formatPublishedValue,
  formatReferenceComparison,
  isMessageSession,
  isReferenceSetId,
  labelEffects,
  METRIC_FAMILIES,
  metricDefinitions,
  percentileInterval,
  priceRatioHistogram,
  REFERENCE_SETS,
  referenceVerdict,
  resolveReferenceSet,
  SESSION_LENGTH_BANDS,
  sessionFacts,
  sessionLengthDistribution,
  UNCATEGORIZED,
} from './metrics/index.js';
export type { EndReason, SessionOutcome } from './outcome.js';
export { END_REASONS } from './outcome.js';
export type { RunProvenance } from './provenance.js';
export { currentProvenance, provenanceChanges, sameRunSettings } from './provenance.js';
export type { IllegalTurnPolicy, NegotiationState, Rules, StandingOffer, TurnRuling } from './rules.js';
export type { RunFileContents, RunHeader, SessionRecord } from './run-file.js';
export { loadSessions, RUN_FILE_FORMAT, RUN_FILE_VERSION, RunFileError, readRunFile } from './run-file.js';
export type { SessionOptions, SessionRunOptions } from './session.js';
export { Session } from './session.js';
export type {
  SessionEndEvent,
  SessionErrorEvent,
  SessionEvents,
  SessionStartEvent,
  TurnEvent,
} from './session-events.js';
export type { RecordedTurn, SessionResult, SessionWarning } from './session-result.js';
export type { SimulateOptions, SimulationEvents, SimulationProgress, SimulationRun } from './simulate.js';
export { simulate } from './simulate.js';
export type { SimulationSummary } from './summary.js';
export { SummaryAccumulator, summarize } from './summary.js';
export type { GenerateContextsOptions, PriceTier } from './synthetic-contexts.js';
export { generateContexts, PRICE_TIERS, priceTier, syntheticContext } from './synthetic-contexts.js';
