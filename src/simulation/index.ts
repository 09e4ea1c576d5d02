// The simulation layer as every runtime has it; reading and merging run files is Node-only (src/node).
// Metrics and statistics over its runs are their own entry, `haggle/metrics` (src/entries/metrics.ts).

export type { RunFileLockHolder } from './errors.js';
export { RunFailedEarlyError, RunFileError, RunFileLockedError } from './errors.js';
export type { IndexedJsonlContents, RecordSpan } from './indexed-jsonl.js';
export type { MergeRunsOptions, MergeRunsResult } from './merge-runs.js';
export type { SessionOutcome } from './outcome.js';
export type { RunProvenance } from './provenance.js';
export type { RunFileContents, RunHeader, SessionRecord } from './run-file.js';
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
export type { SimulateOptions, SimulationEvents, SimulationProgress, SimulationRun } from './simulate.js';
// The build without file access; the Node build (src/node) gives the one that writes `out`.
export { simulate } from './simulate.js';
export type { SimulationSummary } from './summary.js';
export type { GenerateContextsOptions, PriceTier } from './synthetic-contexts.js';
export { generateContexts, PRICE_TIERS, priceTier, syntheticContext } from './synthetic-contexts.js';
export type { Transcript, TranscriptTurn } from './transcript.js';
