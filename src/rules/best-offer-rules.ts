import type { Action } from '../contract/action.js';
import { currencyDecimals, currencyStep } from '../contract/currency.js';
import { InvalidInputError } from '../contract/errors.js';
import type { HistoryEntry, Role } from '../contract/history.js';
import { gridEnds, type LegalMove, type PriceInterval } from '../contract/legal-moves.js';
import type { ListingContext } from '../contract/listing-context.js';
import { MAX_RESPONSE_HOURS } from '../contract/turn-rules.js';
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

/**
 * Options of `BestOfferRules`: offer lifetime, offer cap, listing time and the turn limit. Every default
 * is haggle's choice (docs/simulation.md says why); the model card and the preprint state none of them.
 */
export interface BestOfferRulesOptions {
  /** Hours an offer stands before it lapses; a counter starts a new clock. Default 48. */
  offerTtlHours?: number;
  /** Offers a buyer may make on one listing. Default 3. */
  buyerOfferCap?: number;
  /**
   * Hours the listing still runs when the thread starts: no turn lands after it ends. Default 720 (30
   * days, `MAX_RESPONSE_HOURS`), at most that.
   */
  listingHours?: number;
  /** Turns after which the session ends without a deal. Default 20. */
  maxTurns?: number;
  illegalTurnPolicy?: IllegalTurnPolicy;
}

/**
 * eBay Best Offer, as far as a two-party thread needs it: the buyer opens; a buyer makes at most
 * `buyerOfferCap` offers; a seller counters only while no counter of its own stands; an offer lapses
 * after `offerTtlHours` unless answered, and a counter replaces it with a fresh clock; accepting takes
 * the standing offer's price; messages never close a deal.
 *
 * Prices (docs/simulation.md says which are eBay's and which assumed): in the currency's smallest unit;
 * a buyer's offer above 0 and below the list price (at the list price it would be Buy It Now); a
 * seller's counter strictly between the buyer's standing offer and the list price; a buyer's counter
 * to a seller's counter below that counter. Every answer to a standing offer lands before it lapses.
 */
export class BestOfferRules implements Rules {
  readonly name = 'best-offer';
  readonly offerTtlHours: number;
  readonly buyerOfferCap: number;
  readonly listingHours: number;
  readonly maxTurns: number;
  readonly illegalTurnPolicy: IllegalTurnPolicy;

  constructor(options: BestOfferRulesOptions = {}) {
    this.offerTtlHours = options.offerTtlHours ?? 48;
    this.buyerOfferCap = options.buyerOfferCap ?? 3;
    this.listingHours = options.listingHours ?? MAX_RESPONSE_HOURS;
    this.maxTurns = options.maxTurns ?? 20;
    this.illegalTurnPolicy = options.illegalTurnPolicy ?? 'end';
    const problems: { path: string; message: string }[] = [];
    if (!(this.offerTtlHours > 0)) problems.push({ path: 'offerTtlHours', message: 'must be above 0' });
    if (!Number.isInteger(this.buyerOfferCap) || this.buyerOfferCap < 1)
      problems.push({ path: 'buyerOfferCap', message: 'must be an integer of at least 1' });
    if (!(this.listingHours > 0 && this.listingHours <= MAX_RESPONSE_HOURS))
      problems.push({
        path: 'listingHours',
        message: `must be above 0 and at most ${MAX_RESPONSE_HOURS} (30 days)`,
      });
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 1)
      problems.push({ path: 'maxTurns', message: 'must be an integer of at least 1' });
    if (problems.length > 0)
      throw new InvalidInputError({ subject: 'BestOfferRulesOptions', issues: problems });
  }

  describe(): Record<string, unknown> {
    return {
      name: this.name,
      offerTtlHours: this.offerTtlHours,
      buyerOfferCap: this.buyerOfferCap,
      listingHours: this.listingHours,
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

  legalMoves(state: NegotiationState, role: Role): LegalMove[] {
    const standing = state.standingOffer;
    const opponentOfferStands = standing !== null && standing.role !== role;
    // No turn lands after the listing ends; an answer to the other side's offer must also land before
    // that offer lapses, or the thread is over.
    const listingLeft = Math.max(0, this.listingHours - state.elapsedHours);
    const offerLeft = opponentOfferStands
      ? Math.max(0, standing.expiresAtHours - state.elapsedHours)
      : Number.POSITIVE_INFINITY;
    const timeLeft = Math.min(listingLeft, offerLeft);
    const timed = (move: LegalMove): LegalMove => ({ ...move, maxResponseHours: timeLeft });

    const moves: LegalMove[] = [];
    // A seller counters an offer; while its own counter stands it waits for the buyer (eBay's rule).
    const canOffer =
      role === 'seller' ? standing?.role !== 'seller' : state.offersMade.buyer < this.buyerOfferCap;
    const price = offerInterval(state, role);
    // An interval with no price on the currency's grid (a buyer's offer one cent below the list price
    // leaves the seller nothing to counter with) is no offer at all.
    if (canOffer && gridEnds(price) !== null) {
      moves.push(timed({ action: 'offer', price }), timed({ action: 'offer_with_message', price }));
    }
    if (opponentOfferStands) {
      moves.push(timed({ action: 'accept', dealPrice: standing.price }), timed({ action: 'decline' }));
    }
    moves.push(timed({ action: 'message_only' }));
    // Ignoring is a move only once there is something to ignore. Bounded like the rest: an answer of
    // "no response" after the offer lapsed would not be a turn of the thread (the offer expired first).
    if (state.history.length > 0) moves.push(timed({ action: 'no_response' }));
    return moves;
  }

  /** The actions of `legalMoves`, for callers that only need those. */
  legalActions(state: NegotiationState, role: Role): Action[] {
    return actionsOf(this.legalMoves(state, role));
  }

  expiredOffer(state: NegotiationState, atHours: number): StandingOffer | null {
    const standing = state.standingOffer;
    // The session's clock counts in microhours: a turn written to the very bound may land one float
    // ulp past an offer's end after rounding (seen at exactly 2 days of a 48-hour offer). Closer than a
    // tenth of a microhour is the same moment.
    return standing && atHours > standing.expiresAtHours + 1e-7 ? standing : null;
  }

  apply(state: NegotiationState, entry: HistoryEntry): TurnRuling {
    const { role, turn } = entry;
    // A negotiator the schema does not bind (a baseline, code of one's own) may still write a late turn:
    // after the listing ended there is no thread to take it.
    if (entry.elapsedHours > this.listingHours + 1e-9) {
      return {
        kind: 'illegal',
        violation: `${role}'s turn lands at ${entry.elapsedHours} h, after the listing ended at ${this.listingHours} h`,
      };
    }
    const moves = this.legalMoves(state, role);
    if (!moves.some((move) => move.action === turn.action)) {
      return { kind: 'illegal', violation: this.explainIllegalAction(state, role, turn.action) };
    }
    if (moveViolation(moves, entry) !== null) {
      return { kind: 'illegal', violation: explainIllegalPrice(state, role, turn.price) };
    }
    return applyCommonEffects(state, entry, this.offerTtlHours);
  }

  private explainIllegalAction(state: NegotiationState, role: Role, action: Action): string {
    const offering = action === 'offer' || action === 'offer_with_message';
    if (offering && role === 'buyer' && state.offersMade.buyer >= this.buyerOfferCap) {
      return `buyer made offer ${state.offersMade.buyer + 1}, above the cap of ${this.buyerOfferCap}`;
    }
    if (offering && role === 'seller' && state.standingOffer?.role === 'seller') {
      return 'seller countered again while its own counter stands; the buyer answers first';
    }
    if (offering) {
      const { min, max } = offerInterval(state, role);
      return `${role} cannot offer: no ${state.context.currency} price lies strictly between ${min} and ${max}`;
    }
    if (action === 'accept' || action === 'decline') {
      return `${role} chose ${action}, but no offer from the other side stands`;
    }
    return `${role} chose ${action}, which the rules do not allow at this point`;
  }
}

/** Which Best Offer price fact an offer broke, in a log reader's words. */
function explainIllegalPrice(state: NegotiationState, role: Role, price: number | null): string {
  const { context, standingOffer: standing } = state;
  const list = context.listPrice;
  const opposing = standing !== null && standing.role !== role ? standing.price : undefined;
  if (price === null || !(price > 0)) return `${role} offered ${price}; an offer is above 0`;
  if (role === 'buyer' && price >= list) {
    return `buyer offered ${price}, at or above the list price ${list} (that would be Buy It Now)`;
  }
  if (role === 'buyer' && opposing !== undefined && price >= opposing) {
    return `buyer offered ${price}, at or above the seller's standing counter ${opposing} (accept it instead)`;
  }
  if (role === 'seller' && price >= list) {
    return `seller offered ${price}, ${price > list ? 'above' : 'at'} the list price ${list}`;
  }
  if (role === 'seller' && opposing !== undefined && price <= opposing) {
    return `seller countered ${price}, at or below the buyer's standing offer ${opposing} (accept it instead)`;
  }
  const decimals = currencyDecimals(context.currency);
  return `${role} offered ${price}; a ${context.currency} price has at most ${decimals} decimal(s)`;
}

/**
 * Where the next offer of `role` may lie. A buyer: above 0 and below the list price, and below the
 * seller's standing counter. A seller: above the buyer's standing offer (or 0) and below the list price.
 * Open ends throughout: an offer at the list price is Buy It Now; a counter at the buyer's own price is
 * an acceptance; a buyer's counter at the seller's price is one too.
 */
function offerInterval(state: NegotiationState, role: Role): PriceInterval {
  const { context, standingOffer: standing } = state;
  const step = currencyStep(context.currency);
  const opposing = standing !== null && standing.role !== role ? standing.price : undefined;
  if (role === 'buyer') {
    const max = opposing === undefined ? context.listPrice : Math.min(opposing, context.listPrice);
    return { min: 0, minInclusive: false, max, maxInclusive: false, step };
  }
  return { min: opposing ?? 0, minInclusive: false, max: context.listPrice, maxInclusive: false, step };
}
