import type { TurnStreamEvent } from '../agent/turn-events.js';
import type { Action } from '../contract/action.js';
import type { Role } from '../contract/history.js';
import type { LegalMove } from '../contract/legal-moves.js';
import type { ListingContext } from '../contract/listing-context.js';
import type { Turn } from '../contract/turn.js';
import type { SessionOutcome } from './outcome.js';
import type { SessionResult } from './session-result.js';

/** Payload of `session-start`: the session's id, seed, context and rules. */
export interface SessionStartEvent {
  sessionId: string;
  seed: number;
  context: ListingContext;
  rules: Record<string, unknown>;
}

/** Payload of `turn`: one turn taken, with its position, side and time. */
export interface TurnEvent {
  sessionId: string;
  /** 0-based position of the turn in the session. */
  index: number;
  role: Role;
  turn: Turn;
  elapsedHours: number;
  /** What the rules allowed when the turn was asked for. */
  legalActions: readonly Action[];
  /** The same, with each action's price interval and time bound. */
  legalMoves: readonly LegalMove[];
  /** Set when the turn broke a rule; the session's illegal-turn policy decides what follows. */
  violation?: string;
}

/**
 * Payload of `turn-delta`: part of a turn being written, from a negotiator that streams (a
 * `NegotiationAgent`). Emitted only while someone listens to `turn-delta`; the turn itself still comes
 * as `turn`, once validated and checked by the rules. A `reset` event voids the deltas before it.
 */
export interface TurnDeltaEvent {
  sessionId: string;
  /** Position the turn being written will have. */
  index: number;
  role: Role;
  /** One event of `agent.stream`, never the final `turn` (that is the session's `turn` event). */
  event: Exclude<TurnStreamEvent, { type: 'turn' }>;
}

/** Payload of `session-end`: the outcome and the whole result. */
export interface SessionEndEvent {
  sessionId: string;
  outcome: SessionOutcome;
  result: SessionResult;
}

/** Payload of `error`: a negotiator failed (the session ends) or a listener threw (it is skipped). */
export interface SessionErrorEvent {
  sessionId: string;
  /** `negotiator`: a negotiator failed and the session ended; `listener`: a listener threw and was skipped. */
  source: 'negotiator' | 'listener';
  error: unknown;
}

/** Events a Session emits, noun-verb, in this order: one start, the turns, one end. */
export interface SessionEvents {
  [name: string]: unknown;
  'session-start': SessionStartEvent;
  turn: TurnEvent;
  'turn-delta': TurnDeltaEvent;
  'session-end': SessionEndEvent;
  error: SessionErrorEvent;
}
