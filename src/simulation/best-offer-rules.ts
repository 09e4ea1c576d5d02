import type { Action } from '../contract/action.js';
import { InvalidInputError } from '../contract/errors.js';
import type { HistoryEntry, Role } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import {
  alternatingNextRole,
  applyCommonEffects,
  type IllegalTurnPolicy,
  initialNegotiationState,
  type NegotiationState,
  type Rules,
  type StandingOffer,
  type TurnRuling,
} from './rules.js';

export interface BestOfferRulesOptions {
  /** Hours an offer stands before it lapses; a counter starts a new clock. eBay: 48. */
  offerTtlHours?: number;
  /** Offers a buyer may make on one listing. eBay: 3. */
  buyerOfferCap?: number;
  /** Turns after which the session ends without a deal. Default 20. */
  maxTurns?: number;
  illegalTurnPolicy?: IllegalTurnPolicy;
}

/**
 * eBay Best Offer, as far as a two-party thread needs it: the buyer opens; a buyer makes at most
 * `buyerOfferCap` offers; a seller counters only while no counter of its own stands; an offer lapses after `offerTtlHours` unless answered, and a counter replaces
 * it with a fresh clock; a seller never counters above the list price; accepting takes the standing
 * offer's price; messages never close a deal.
 */
export class BestOfferRules implements Rules {
  readonly name = 'best-offer';
  readonly offerTtlHours: number;
  readonly buyerOfferCap: number;
  readonly maxTurns: number;
  readonly illegalTurnPolicy: IllegalTurnPolicy;

  constructor(options: BestOfferRulesOptions = {}) {
    this.offerTtlHours = options.offerTtlHours ?? 48;
    this.buyerOfferCap = options.buyerOfferCap ?? 3;
    this.maxTurns = options.maxTurns ?? 20;
    this.illegalTurnPolicy = options.illegalTurnPolicy ?? 'end';
    const problems: { path: string; message: string }[] = [];
    if (!(this.offerTtlHours > 0)) problems.push({ path: 'offerTtlHours', message: 'must be above 0' });
    if (!Number.isInteger(this.buyerOfferCap) || this.buyerOfferCap < 1)
      problems.push({ path: 'buyerOfferCap', message: 'must be an integer of at least 1' });
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 1)
      problems.push({ path: 'maxTurns', message: 'must be an integer of at least 1' });
    if (problems.length > 0) throw new InvalidInputError('BestOfferRulesOptions', problems);
  }

  describe(): Record<string, unknown> {
    return {
      name: this.name,
      offerTtlHours: this.offerTtlHours,
      buyerOfferCap: this.buyerOfferCap,
      maxTurns: this.maxTurns,
      illegalTurnPolicy: this.illegalTurnPolicy,
    };
  }

  initialState(context: ListingContext): NegotiationState {
    return initialNegotiationState(context);
  }

  nextRole(state: NegotiationState): Role {
    return alternatingNextRole(state);
  }

  legalActions(state: NegotiationState, role: Role): Action[] {
    const actions: Action[] = [];
    // A seller counters an offer; while its own counter stands it waits for the buyer (eBay's rule).
    const canOffer =
      role === 'seller'
        ? state.standingOffer?.role !== 'seller'
        : state.offersMade.buyer < this.buyerOfferCap;
    if (canOffer) actions.push('offer', 'offer_with_message');
    const opponentOfferStands = state.standingOffer !== null && state.standingOffer.role !== role;
    if (opponentOfferStands) actions.push('accept', 'decline');
    actions.push('message_only');
    // Ignoring is a move only once there is something to ignore.
    if (state.history.length > 0) actions.push('no_response');
    return actions;
  }

  expiredOffer(state: NegotiationState, atHours: number): StandingOffer | null {
    const standing = state.standingOffer;
    return standing && atHours > standing.expiresAtHours ? standing : null;
  }

  apply(state: NegotiationState, entry: HistoryEntry): TurnRuling {
    const { role, turn } = entry;
    if (!this.legalActions(state, role).includes(turn.action)) {
      return { kind: 'illegal', violation: this.explainIllegalAction(state, role, turn.action) };
    }
    if (role === 'seller' && turn.price !== null && turn.price > state.context.listPrice) {
      return {
        kind: 'illegal',
        violation: `seller offered ${turn.price}, above the list price ${state.context.listPrice}`,
      };
    }
    return applyCommonEffects(state, entry, this.offerTtlHours);
  }

  private explainIllegalAction(state: NegotiationState, role: Role, action: Action): string {
    if ((action === 'offer' || action === 'offer_with_message') && role === 'buyer') {
      return `buyer made offer ${state.offersMade.buyer + 1}, above the cap of ${this.buyerOfferCap}`;
    }
    if (action === 'offer' || action === 'offer_with_message') {
      return 'seller countered again while its own counter stands; the buyer answers first';
    }
    if (action === 'accept' || action === 'decline') {
      return `${role} chose ${action}, but no offer from the other side stands`;
    }
    return `${role} chose ${action}, which the rules do not allow at this point`;
  }
}
