import { type Action, isPricedAction } from '../contract/action.js';
import type { History, HistoryEntry, Role } from '../contract/history.js';
import { describeInterval, type LegalMove, priceInInterval } from '../contract/legal-moves.js';
import type { ListingContext } from '../contract/listing-context.js';
import type { Turn } from '../contract/turn.js';
import type { EndReason } from './end-reason.js';

/** The price on the table: the latest offer nobody has answered with a new one. */
export interface StandingOffer {
  role: Role;
  price: number;
  madeAtHours: number;
  /** When it lapses; `Infinity` where offers do not expire. */
  expiresAtHours: number;
}

/** Everything the rules need to judge the next turn; rebuilt from the history, never mutated. */
export interface NegotiationState {
  context: ListingContext;
  history: History;
  standingOffer: StandingOffer | null;
  offersMade: Record<Role, number>;
  elapsedHours: number;
}

/** What the rules make of a turn. */
export type TurnRuling =
  | { kind: 'continue'; state: NegotiationState }
  | { kind: 'end'; state: NegotiationState; reason: EndReason; dealPrice: number | null }
  /** The turn broke a rule; `violation` says which, in words a log reader understands. */
  | { kind: 'illegal'; violation: string };

/**
 * What to do with a turn that breaks the rules. `end`: record it and end the session with no deal
 * (reason `illegal-turn`). `forfeit`: record it, ignore its effect, and pass the move to the other side.
 * Neither repairs the turn: the record always shows what the negotiator really did.
 */
export type IllegalTurnPolicy = 'end' | 'forfeit';

/** The rules of a negotiation: who moves, which moves are legal, and when it ends. */
export interface Rules {
  /** A name for run records, e.g. `best-offer`. */
  readonly name: string;
  readonly maxTurns: number;
  readonly illegalTurnPolicy: IllegalTurnPolicy;
  /** Plain-data description of the rule parameters, for run records. */
  describe(): Record<string, unknown>;
  /** The state before the first turn of a negotiation over `context`. */
  initialState(context: ListingContext): NegotiationState;
  /** Who moves after the given history. */
  nextRole(state: NegotiationState): Role;
  /**
   * What `role` may do now: each legal action with its price interval and the time it may take. Handed
   * to negotiators, so a constrained model never proposes anything else; `apply` judges by the same.
   */
  legalMoves(state: NegotiationState, role: Role): LegalMove[];
  /**
   * The offer that has lapsed by `atHours` (the time the next turn would land), if any. A lapsed
   * offer ends the session before the late turn counts.
   */
  expiredOffer(state: NegotiationState, atHours: number): StandingOffer | null;
  /** Rules on one turn: the state after it, or why it is illegal, and whether the negotiation ended. */
  apply(state: NegotiationState, entry: HistoryEntry): TurnRuling;
}

/** The actions of a list of moves, in order. */
export function actionsOf(moves: readonly LegalMove[]): Action[] {
  return moves.map((move) => move.action);
}

/**
 * Why a turn is not among the legal moves, or `null` when it is: the action must be one of them and an
 * offer's price inside that move's interval. A response time past `maxResponseHours` is not judged here:
 * the session lets the standing offer lapse first (outcome `expired`), as a real marketplace would, and
 * Best Offer refuses a turn after the listing's end itself.
 */
export function moveViolation(moves: readonly LegalMove[], entry: HistoryEntry): string | null {
  const { role, turn } = entry;
  const move = moves.find((candidate) => candidate.action === turn.action);
  if (!move) return `${role} chose ${turn.action}, which the rules do not allow at this point`;
  if (
    isPricedAction(turn.action) &&
    move.price &&
    (turn.price === null || !priceInInterval(turn.price, move.price))
  ) {
    return `${role} offered ${turn.price}, outside the legal prices ${describeInterval(move.price)}`;
  }
  return null;
}

export function appendEntry(state: NegotiationState, entry: HistoryEntry): NegotiationState {
  return { ...state, history: [...state.history, entry], elapsedHours: entry.elapsedHours };
}

/** Applies the effects every rule set shares: accept, decline, no response, messages, offers. */
export function applyCommonEffects(
  state: NegotiationState,
  entry: HistoryEntry,
  offerTtlHours: number,
): TurnRuling {
  const { role, turn } = entry;
  const next = appendEntry(state, entry);
  switch (turn.action) {
    case 'accept': {
      const standing = state.standingOffer;
      if (!standing || standing.role === role) {
        return { kind: 'illegal', violation: `${role} accepted, but no offer from the other side stands` };
      }
      return { kind: 'end', state: next, reason: 'accepted', dealPrice: standing.price };
    }
    case 'decline':
      return { kind: 'end', state: next, reason: 'declined', dealPrice: null };
    case 'no_response':
      return { kind: 'end', state: next, reason: 'no-response', dealPrice: null };
    case 'message_only':
      return { kind: 'continue', state: next };
    case 'offer':
    case 'offer_with_message':
      return {
        kind: 'continue',
        state: {
          ...next,
          standingOffer: offerFrom(role, turn, entry.elapsedHours, offerTtlHours),
          offersMade: { ...next.offersMade, [role]: next.offersMade[role] + 1 },
        },
      };
  }
}

function offerFrom(role: Role, turn: Turn, atHours: number, ttlHours: number): StandingOffer {
  // A new offer replaces whatever stood before: a counter voids earlier offers.
  return { role, price: turn.price ?? 0, madeAtHours: atHours, expiresAtHours: atHours + ttlHours };
}

export function initialNegotiationState(context: ListingContext): NegotiationState {
  return { context, history: [], standingOffer: null, offersMade: { buyer: 0, seller: 0 }, elapsedHours: 0 };
}

/** Strict alternation, the buyer first: the shape of a Best Offer thread and of alternating offers. */
export function alternatingNextRole(state: NegotiationState): Role {
  const last = state.history[state.history.length - 1];
  if (!last) return 'buyer';
  return last.role === 'buyer' ? 'seller' : 'buyer';
}
