import type { Action } from '../contract/action.js';
import { currencyStep } from '../contract/currency.js';
import { InvalidInputError } from '../contract/errors.js';
import type { HistoryEntry, Role } from '../contract/history.js';
import type { LegalMove, PriceInterval } from '../contract/legal-moves.js';
import type { ListingContext } from '../contract/listing-context.js';
import { MAX_PRICE } from '../contract/turn-rules.js';
import {
  actionsOf,
  alternatingNextRole,
  applyCommonEffects,
  type IllegalTurnPolicy,
  initialNegotiationState,
  moveViolation,
  type NegotiationState,
  type Rules,
  type StandingOffer,
  type TurnRuling,
} from './rules.js';

/** Options of `AlternatingOffersRules`: the turn limit and what an illegal turn does. */
export interface AlternatingOffersRulesOptions {
  maxTurns?: number;
  illegalTurnPolicy?: IllegalTurnPolicy;
}

/**
 * Plain alternating offers (Rubinstein's protocol, as NegMAS's SAO runs it): the buyer opens, sides
 * alternate, offers never lapse and have no cap, accepting takes the standing offer's price. Prices are
 * any amount above 0 in the currency's smallest unit, up to the contract's `MAX_PRICE` (the protocol
 * itself bounds nothing; the list price is only a reference here).
 */
export class AlternatingOffersRules implements Rules {
  readonly name = 'alternating-offers';
  readonly maxTurns: number;
  readonly illegalTurnPolicy: IllegalTurnPolicy;

  constructor(options: AlternatingOffersRulesOptions = {}) {
    this.maxTurns = options.maxTurns ?? 20;
    this.illegalTurnPolicy = options.illegalTurnPolicy ?? 'end';
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 1) {
      throw new InvalidInputError({
        subject: 'AlternatingOffersRulesOptions',
        issues: [{ path: 'maxTurns', message: 'must be an integer of at least 1' }],
      });
    }
  }

  describe(): Record<string, unknown> {
    return { name: this.name, maxTurns: this.maxTurns, illegalTurnPolicy: this.illegalTurnPolicy };
  }

  initialState(context: ListingContext): NegotiationState {
    return initialNegotiationState(context);
  }

  nextRole(state: NegotiationState): Role {
    return alternatingNextRole(state);
  }

  legalMoves(state: NegotiationState, role: Role): LegalMove[] {
    const price: PriceInterval = {
      min: 0,
      minInclusive: false,
      max: MAX_PRICE,
      maxInclusive: true,
      step: currencyStep(state.context.currency),
    };
    const moves: LegalMove[] = [
      { action: 'offer', price },
      { action: 'offer_with_message', price },
    ];
    const standing = state.standingOffer;
    if (standing !== null && standing.role !== role) {
      moves.push({ action: 'accept', dealPrice: standing.price }, { action: 'decline' });
    }
    moves.push({ action: 'message_only' });
    if (state.history.length > 0) moves.push({ action: 'no_response' });
    return moves;
  }

  /** The actions of `legalMoves`, for callers that only need those. */
  legalActions(state: NegotiationState, role: Role): Action[] {
    return actionsOf(this.legalMoves(state, role));
  }

  expiredOffer(_state: NegotiationState, _atHours: number): StandingOffer | null {
    return null;
  }

  apply(state: NegotiationState, entry: HistoryEntry): TurnRuling {
    const violation = moveViolation(this.legalMoves(state, entry.role), entry);
    if (violation !== null) return { kind: 'illegal', violation };
    return applyCommonEffects(state, entry, Number.POSITIVE_INFINITY);
  }
}
