import type { Action } from './action.js';
import type { History, Role } from './history.js';
import type { LegalMove } from './legal-moves.js';
import type { ListingContext, ListingContextInput } from './listing-context.js';
import type { TimeUnit } from './time-unit.js';
import type { Turn } from './turn.js';

/** What a negotiator sees when asked for its next turn. */
export interface PredictInput {
  context: ListingContext | ListingContextInput;
  history: History;
  /** The side whose turn it is. */
  role: Role;
  /**
   * Actions the rules allow now (a Session passes them; for example, no `accept` when no offer
   * stands). Absent means all six.
   */
  legalActions?: readonly Action[];
  /**
   * The legal actions with their price intervals and time bounds (a Session passes them). A
   * `NegotiationAgent` without them derives them from the context and history under its rules.
   */
  legalMoves?: readonly LegalMove[];
}

/** Per-call options of `Negotiator.predict`: an abort signal and a seed. */
export interface PredictOptions {
  signal?: AbortSignal;
  /** Seed for this one decision; the same seed and input give the same turn. */
  seed?: number;
}

/** A plain-data description of a negotiator, written into run records. Never holds credentials. */
export interface NegotiatorDescription {
  kind: string;
  [detail: string]: unknown;
}

/**
 * Anything that can take a turn: a `NegotiationAgent` (an LLM through a backend) or a baseline agent.
 * Implementations should be stateless between calls (everything they need is in `input`), so that one
 * instance can play many concurrent sessions and a seed reproduces a decision.
 */
export interface Negotiator {
  /** The next turn for `input.role`, given the listing and the conversation so far. */
  predict(input: PredictInput, options?: PredictOptions): Promise<Turn>;
  /** Plain data about this negotiator for run records (kind, model, settings); no secrets. */
  describe(): NegotiatorDescription;
  /** Unit of the `response_time` this negotiator emits; the session clock converts it. Default hours. */
  readonly responseTimeUnit?: TimeUnit;
}
