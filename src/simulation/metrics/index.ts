export type { BootstrapOptions } from './bootstrap.js';
export { bootstrapCi, percentileInterval } from './bootstrap.js';
export type { CompareOptions, Comparison, ComparisonRow, DeltaIntervalMethod } from './compare.js';
export { compare, DEFAULT_MARGINS } from './compare.js';
export { DEAL_RATE_METRIC, dealRate } from './deal-rate.js';
export type { Verdict } from './equivalence.js';
export {
  DEFAULT_SHARE_MARGIN,
  equivalenceVerdict,
  sessionsNeeded,
} from './equivalence.js';
export type { FormatTableOptions } from './format.js';
export {
  describeUnfinished,
  formatComparison,
  formatComparisonVerdict,
  formatInterval,
  formatMargin,
  formatMetricDelta,
  formatMetricValue,
  formatPValue,
} from './format.js';
export { labelMetricCaveats } from './label-caveats.js';
export type { LabelEffect } from './label-metrics.js';
export { labelEffects } from './label-metrics.js';
export type { IntervalMethod, MetricEstimate, SessionSource } from './measure.js';
export { computeMetrics, METRIC_FAMILIES, metricDefinitions } from './measure.js';
export { hasMessage, MESSAGE_SESSION_RATE_METRIC, messageSessionRate } from './message-sessions.js';
export type { MetricDefinition, MetricFamily, MetricFamilyBuilder, MetricUnit } from './metric.js';
export { isProportion } from './metric.js';
export { differenceOfIntervals, pairedProportionInterval } from './paired-proportion-interval.js';
export type { HistogramBin, PriceRatioHistogramOptions } from './price-ratios.js';
export { priceRatioHistogram } from './price-ratios.js';
export {
  clopperPearson,
  fisherExactTest,
  proportionDifferenceInterval,
  sessionsToTell,
} from './proportion-tests.js';
export type {
  PublishedValue,
  ReferenceSet,
  ReferenceStatistic,
} from './published-references.js';
export { CARD_REFERENCE_SET, REFERENCE_SETS } from './published-references.js';
export {
  formatPublishedSample,
  formatPublishedValue,
  formatReferenceComparison,
  formatReferenceDifference,
  referenceNotes,
  referenceVerdict,
} from './reference-format.js';
export type { VerdictMethod, VerdictResult } from './reference-verdict.js';
export { judgeReference, TELL_DIFFERENCE, verdictMethod } from './reference-verdict.js';
export type { ReferenceComparison, ReferenceOptions, ReferenceRow } from './references.js';
export {
  compareToReferences,
  isReferenceSetId,
  resolveReferenceSet,
} from './references.js';
export type { SegmentRow } from './segments.js';
export { byCategory, byPriceTier } from './segments.js';
export type { LabelFacts, SessionFacts } from './session-facts.js';
export { sessionFacts, UNCATEGORIZED } from './session-facts.js';
export type { SessionLengthDistribution } from './session-length.js';
export { SESSION_LENGTH_BANDS, sessionLengthDistribution } from './session-length.js';
