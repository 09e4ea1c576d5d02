/**
 * Metrics and statistics over negotiation runs, in every runtime: deal rate, session length, prices,
 * label effects, comparisons of two runs and of a run against published references (the model card's
 * numbers), with their intervals and verdicts; run summaries, provenance, and the failures of a run.
 * Run files themselves are read by `loadSessions` / `readRunFile` (main entry, Node).
 * @packageDocumentation
 * @module haggle/metrics
 */

export type { Distribution } from '../simulation/distribution.js';
export { describeDistribution, quantile } from '../simulation/distribution.js';
export type { ErrorMessageCount } from '../simulation/failures.js';
export {
  countErrorMessages,
  errorLine,
  finishedOnly,
  isFinished,
  UNFINISHED_REASONS,
} from '../simulation/failures.js';
export * from '../simulation/metrics/index.js';
export { currentProvenance, provenanceChanges, sameRunSettings } from '../simulation/provenance.js';
export { SummaryAccumulator, summarize } from '../simulation/summary.js';
