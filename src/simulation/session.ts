import type { TurnStreamEvent } from '../agent/turn-events.js';
import {
  HaggleAbortError,
  HaggleError,
  InvalidInputError,
  InvalidModelOutputError,
  issuesFromZod,
} from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import type { LegalMove } from '../contract/legal-moves.js';
import {
  type ListingContext,
  type ListingContextInput,
  ListingContextSchema,
} from '../contract/listing-context.js';
import type { Negotiator, PredictInput, PredictOptions } from '../contract/negotiator.js';
import { type TimeUnit, toHours } from '../contract/time-unit.js';
import { type Turn, turnSchemaFor } from '../contract/turn.js';
import { parseInput } from '../contract/validate.js';
import { deriveSeed } from '../internal/random.js';
import { SafeEmitter } from '../internal/safe-emitter.js';
import { BestOfferRules } from '../rules/best-offer-rules.js';
import { actionsOf, appendEntry, type NegotiationState, type Rules } from '../rules/rules.js';
import type { EndReason, SessionOutcome } from './outcome.js';
import type { SessionEvents } from './session-events.js';
import type { RecordedTurn, SessionResult, SessionWarning } from './session-result.js';

/** What a `Session` plays: the listing, both negotiators, the rules and the seed. */
export interface SessionOptions {
  context: ListingContextInput;
  buyer: Negotiator;
  seller: Negotiator;
  /** Seed of the session; each turn's seed is derived from it and the turn's index. Default 0. */
  seed?: number;
  /** Default: eBay Best Offer rules. */
  rules?: Rules;
  /** Identifier for events and records. Default `session-{seed}`. */
  id?: string;
}

/** Options of `Session.run`: an abort signal. */
export interface SessionRunOptions {
  signal?: AbortSignal;
}

/** A negotiator that can also stream its turn (a `NegotiationAgent`); see the `turn-delta` event. */
interface StreamingNegotiator {
  stream(input: PredictInput, options?: PredictOptions): AsyncIterable<TurnStreamEvent>;
}

/**
 * One negotiation between two negotiators under a set of rules, on a simulated clock driven by each
 * turn's `response_time`. Emits `session-start`, `turn` and `session-end`; a listener that throws is
 * reported as an `error` event and never breaks the session.
 *
 * @example
 * ```ts
 * import { PopulationAgent, Session, boulware } from 'haggle';
 *
 * const session = new Session({ context, buyer: new PopulationAgent(), seller: boulware(), seed: 1 });
 * session.on('turn', (event) => console.log(event.role, event.turn.action, event.turn.price));
 * const { outcome } = await session.run({ signal });
 * console.log(outcome.status, outcome.reason, outcome.turns);
 * ```
 * @see The guide: [Simulation](../../docs/simulation.md).
 */
export class Session {
  readonly id: string;
  readonly seed: number;
  readonly context: ListingContext;
  readonly rules: Rules;
  private readonly negotiators: Record<Role, Negotiator>;
  private readonly events: SafeEmitter<SessionEvents>;
  private started = false;
  private finalResult: SessionResult | undefined;

  constructor(options: SessionOptions) {
    this.context = parseInput(ListingContextSchema, options.context, 'ListingContext');
    for (const role of ['buyer', 'seller'] as const) {
      const negotiator = options[role] as Partial<Negotiator> | undefined;
      if (typeof negotiator?.predict !== 'function' || typeof negotiator.describe !== 'function') {
        throw new InvalidInputError({
          subject: 'SessionOptions',
          issues: [{ path: role, message: 'must be a Negotiator: an object with predict() and describe()' }],
        });
      }
    }
    const seed = options.seed ?? 0;
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new InvalidInputError({
        subject: 'SessionOptions',
        issues: [{ path: 'seed', message: 'must be a non-negative integer' }],
      });
    }
    this.seed = seed;
    this.id = options.id ?? `session-${seed}`;
    this.rules = options.rules ?? new BestOfferRules();
    this.negotiators = { buyer: options.buyer, seller: options.seller };
    this.events = new SafeEmitter<SessionEvents>((error, event) => {
      // An error listener that throws must not recurse into itself.
      if (event !== 'error') this.events.emit('error', { sessionId: this.id, source: 'listener', error });
    });
  }

  /** Listens to an event of the session; a listener that throws is reported as an `error` event and skipped. */
  on<K extends keyof SessionEvents & string>(
    event: K,
    listener: (payload: SessionEvents[K]) => unknown,
  ): this {
    this.events.on(event, listener);
    return this;
  }

  /** Listens to the next occurrence of an event only. */
  once<K extends keyof SessionEvents & string>(
    event: K,
    listener: (payload: SessionEvents[K]) => unknown,
  ): this {
    this.events.once(event, listener);
    return this;
  }

  /** Stops listening. */
  off<K extends keyof SessionEvents & string>(
    event: K,
    listener: (payload: SessionEvents[K]) => unknown,
  ): this {
    this.events.off(event, listener);
    return this;
  }

  /** The finished session (also after a failure, with the turns played so far); undefined before. */
  get result(): SessionResult | undefined {
    return this.finalResult;
  }

  /**
   * Plays the session to its end. Resolves with the result; rejects if a negotiator fails (the partial
   * result is still on `session.result` and in the `session-end` event) or with `HaggleAbortError`.
   */
  async run(options: SessionRunOptions = {}): Promise<SessionResult> {
    if (this.started) {
      throw new HaggleError({
        code: 'session-reused',
        message: 'A Session runs once; create a new Session to play again.',
      });
    }
    this.started = true;
    const { signal } = options;
    const turns: RecordedTurn[] = [];
    let state = this.rules.initialState(this.context);

    this.events.emit('session-start', {
      sessionId: this.id,
      seed: this.seed,
      context: this.context,
      rules: this.rules.describe(),
    });

    try {
      for (;;) {
        if (turns.length >= this.rules.maxTurns) return this.finish(turns, state, 'turn-cap', null);
        if (signal?.aborted) throw new HaggleAbortError(signal.reason);

        const role = this.rules.nextRole(state);
        const legalMoves = this.rules.legalMoves(state, role);
        const legalActions = actionsOf(legalMoves);
        const negotiator = this.negotiators[role];
        const proposed = await this.ask(
          negotiator,
          { context: this.context, history: state.history, role, legalActions, legalMoves },
          { seed: deriveSeed(this.seed, turns.length), ...(signal ? { signal } : {}) },
          turns.length,
        );
        if (signal?.aborted) throw new HaggleAbortError(signal.reason);
        const turn = checkNegotiatorTurn(proposed, negotiator.describe().kind, negotiator.responseTimeUnit);
        // Rounded to a microhour: sums of decimals would otherwise print as 40.449999999999996.
        const at = roundHours(
          state.elapsedHours + toHours(turn.response_time, negotiator.responseTimeUnit ?? 'hours'),
        );

        const lapsed = this.rules.expiredOffer(state, at);
        if (lapsed) {
          // The other side's offer ran out before this answer came: the thread is over.
          if (lapsed.role !== role) return this.finish(turns, state, 'expired', null, lapsed.expiresAtHours);
          // One's own offer lapsing only takes it off the table.
          state = { ...state, standingOffer: null };
        }

        const entry = { role, turn, elapsedHours: at };
        const ruling = this.rules.apply(state, entry);
        if (ruling.kind === 'illegal') {
          turns.push({ ...entry, violation: ruling.violation });
          this.emitTurn(turns.length - 1, entry, legalMoves, ruling.violation);
          if (this.rules.illegalTurnPolicy === 'end') {
            return this.finish(turns, appendEntry(state, entry), 'illegal-turn', null);
          }
          state = appendEntry(state, entry);
          continue;
        }
        turns.push(entry);
        this.emitTurn(turns.length - 1, entry, legalMoves);
        state = ruling.state;
        if (ruling.kind === 'end') return this.finish(turns, state, ruling.reason, ruling.dealPrice);
      }
    } catch (error) {
      const isAbortError = HaggleError.isInstance(error) && error.code === 'aborted';
      const aborted = isAbortError || signal?.aborted === true;
      // A negotiator may reject with its own error when the signal fires; callers get one error type.
      const failure = aborted && !isAbortError ? new HaggleAbortError(signal?.reason) : error;
      if (!aborted) this.events.emit('error', { sessionId: this.id, source: 'negotiator', error });
      this.finish(turns, state, aborted ? 'aborted' : 'error', null, undefined, failure);
      throw failure;
    }
  }

  /**
   * The negotiator's turn: its `stream` when it has one and someone listens to `turn-delta` (a live
   * view shows messages as they are written), `predict` otherwise. Both give the same turn.
   */
  private async ask(
    negotiator: Negotiator,
    input: PredictInput,
    options: PredictOptions,
    index: number,
  ): Promise<Turn> {
    const streaming = negotiator as Negotiator & Partial<StreamingNegotiator>;
    if (typeof streaming.stream !== 'function' || this.events.listenerCount('turn-delta') === 0)
      return negotiator.predict(input, options);
    for await (const event of streaming.stream(input, options)) {
      if (event.type === 'turn') return event.turn;
      this.events.emit('turn-delta', { sessionId: this.id, index, role: input.role, event });
    }
    throw new HaggleError({
      code: 'stream-incomplete',
      message: `the ${input.role}'s turn stream ended without a turn`,
    });
  }

  private emitTurn(
    index: number,
    entry: RecordedTurn,
    legalMoves: readonly LegalMove[],
    violation?: string,
  ): void {
    this.events.emit('turn', {
      sessionId: this.id,
      index,
      role: entry.role,
      turn: entry.turn,
      elapsedHours: entry.elapsedHours,
      legalActions: actionsOf(legalMoves),
      legalMoves,
      ...(violation !== undefined ? { violation } : {}),
    });
  }

  private collectWarnings(): SessionWarning[] {
    const out: SessionWarning[] = [];
    for (const role of ['buyer', 'seller'] as const) {
      // One agent playing both sides reports its warnings once.
      if (role === 'seller' && this.negotiators.seller === this.negotiators.buyer) break;
      for (const warning of warningsOf(this.negotiators[role])) out.push({ role, warning });
    }
    return out;
  }

  private finish(
    turns: RecordedTurn[],
    state: NegotiationState,
    reason: EndReason,
    dealPrice: number | null,
    endedAtHours?: number,
    error?: unknown,
  ): SessionResult {
    const outcome: SessionOutcome = {
      status: reason === 'accepted' ? 'deal' : 'no-deal',
      reason,
      price: reason === 'accepted' ? dealPrice : null,
      turns: turns.length,
      elapsedHours: endedAtHours ?? state.elapsedHours,
    };
    const result: SessionResult = {
      sessionId: this.id,
      seed: this.seed,
      context: this.context,
      turns,
      outcome,
      negotiators: { buyer: this.negotiators.buyer.describe(), seller: this.negotiators.seller.describe() },
      rules: this.rules.describe(),
      ...(error !== undefined ? { error: describeError(error) } : {}),
    };
    const warnings = this.collectWarnings();
    if (warnings.length > 0) result.warnings = warnings;
    this.finalResult = result;
    this.events.emit('session-end', { sessionId: this.id, outcome, result });
    return result;
  }
}

/**
 * Negotiators that talk to a backend (a `NegotiationAgent`) keep the distinct warnings it reported in
 * a `warnings` list; the record carries them so that a run file says what its numbers were made under.
 */
function warningsOf(negotiator: Negotiator): unknown[] {
  const warnings = (negotiator as { warnings?: unknown }).warnings;
  return Array.isArray(warnings) ? warnings : [];
}

/** A custom negotiator is user code: check what it returns before it reaches the rules. */
function checkNegotiatorTurn(value: unknown, kind: string, unit: TimeUnit = 'hours'): Turn {
  const parsed = turnSchemaFor(unit).safeParse(value);
  if (parsed.success) return parsed.data;
  let raw: string;
  try {
    raw = JSON.stringify(value) ?? String(value);
  } catch {
    raw = String(value);
  }
  const error = new InvalidModelOutputError({
    rawTexts: [raw],
    issues: issuesFromZod(parsed.error),
    attempts: 1,
  });
  error.message = `Negotiator "${kind}" returned an invalid turn. ${error.message}`;
  throw error;
}

function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

function roundHours(hours: number): number {
  return Math.round(hours * 1e6) / 1e6;
}
