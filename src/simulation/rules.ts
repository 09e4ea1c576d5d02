import type { Action } from '../contract/action.js';
import type { History, HistoryEntry, Role } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import type { Turn } from '../contract/turn.js';
import type { EndReason } from './outcome.js';

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

export interface Rules {
  /** A name for run records, e.g. `best-offer`. */
  readonly name: string;
  readonly maxTurns: number;
  readonly illegalTurnPolicy: IllegalTurnPolicy;
  /** Plain-data description of the rule parameters, for run records. */
  describe(): Record<string, unknown>;
  initialState(context: ListingContext): NegotiationState;
  /** Who moves after the given history. */
  nextRole(state: NegotiationState): Role;
  /** What `role` may do now; handed to negotiators so a constrained model never proposes anything else. */
  legalActions(state: NegotiationState, role: Role): Action[];
  /**
   * The offer that has lapsed by `atHours` (the time the next turn would land), if any. A lapsed
   * offer ends the session before the late turn counts.
   */
  expiredOffer(state: NegotiationState, atHours: number): StandingOffer | null;
  apply(state: NegotiationState, entry: HistoryEntry): TurnRuling;
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
