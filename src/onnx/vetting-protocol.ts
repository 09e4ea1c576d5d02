import type { SerializedError } from './worker-protocol.js';

/** Messages between `SchemaVetter` (main thread) and its worker. Plain data only: they are cloned. */
export interface VetMessage {
  id: number;
  schema: unknown;
  /** The compile's own time budget (`OnnxLoadOptions.compileBudgetMs`). */
  budgetMs: number;
}

export type ToVettingWorker = VetMessage;

export type FromVettingWorker =
  /** The schema compiled, in `ms` milliseconds. */
  | { type: 'vetted'; id: number; ms: number }
  /** The compiler refused it (unsupported, unsatisfiable, over a bound): the same refusal the model's worker would give. */
  | { type: 'refused'; id: number; error: SerializedError };
