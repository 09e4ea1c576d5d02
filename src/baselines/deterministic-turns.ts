import type { Action } from '../contract/action.js';
import { currencyDecimals } from '../contract/currency.js';
import type { Turn } from '../contract/turn.js';
import { legalPriceRange, nearestLegalPrice, withinReservationRange } from './legal-price.js';
import { formatPrice } from './population-messages.js';
import { type PriceLimits, withinReservation } from './price-limits.js';
import type { ThreadView } from './thread-view.js';
import {
  bareTurn,
  firstLegal,
  messageTurn,
  offerTurn,
  offerWithMessageTurn,
  withoutImpossibleOffers,
} from './turns.js';

/** One decision of a deterministic baseline (time-based, tit-for-tat): its price and its acceptance test. */
export interface DeterministicDecision {
  view: ThreadView;
  limits: PriceLimits;
  legal: ReadonlySet<Action>;
  /** The price this agent would offer now, before rounding and clamping. */
  nextPrice: number;
  /** The agent's own acceptance condition for the other side's offer on the table. */
  acceptable: (offer: number) => boolean;
  responseTime: number;
}

/**
 * The move order both deterministic baselines share: accept an acceptable offer within the
 * reservation (or any offer within it, once this side may offer no more); otherwise offer the next
 * price if it can; otherwise decline; otherwise stay silent. Nothing beyond the reservation is ever
 * offered or accepted.
 */
export function respond(decision: DeterministicDecision): Turn {
  const { view, limits, responseTime } = decision;
  const standing = view.opponentStanding;
  const price = limits.feasible ? safeOfferPrice(decision.nextPrice, view, limits) : null;
  // No legal price within the reservation (a buyer offer a cent below list): answer without one.
  const legal = withoutImpossibleOffers(decision.legal, price !== null);
  const canOffer = price !== null && (legal.has('offer') || legal.has('offer_with_message'));
  const preferred: Turn[] = [];
  if (standing !== null && withinReservation(standing, limits, view.role)) {
    if (decision.acceptable(standing) || !canOffer) preferred.push(bareTurn('accept', responseTime));
  }
  if (canOffer) preferred.push(offerTurn(price, responseTime));
  if (standing !== null) preferred.push(bareTurn('decline', responseTime));
  preferred.push(bareTurn('no_response', responseTime));
  const forced = price ?? reservationPrice(view, limits);
  return firstLegal(preferred, legal, (action) => plainTurn(action, view, forced, responseTime));
}

/**
 * The legal price nearest to the next price that does not cross the reservation (see
 * `legalPriceRange`), or `null` when no legal price respects the reservation.
 */
export function safeOfferPrice(price: number, view: ThreadView, limits: PriceLimits): number | null {
  const legal = legalPriceRange(view);
  const range = legal && withinReservationRange(legal, limits.reservation, view.role);
  return range ? nearestLegalPrice(price, range) : null;
}

/**
 * The price of an offer the rules force when no legal price respects the reservation: the reservation
 * itself in whole minor units, never above the list price.
 */
function reservationPrice(view: ThreadView, limits: PriceLimits): number {
  const reservation = Math.min(limits.reservation, view.listPrice);
  const scale = 10 ** currencyDecimals(view.currency);
  const units = view.role === 'buyer' ? Math.floor(reservation * scale) : Math.ceil(reservation * scale);
  return Math.max(1, Math.min(units, Math.floor(view.listPrice * scale))) / scale;
}

/** Turns for actions the baselines do not choose on their own, when the rules allow nothing else. */
function plainTurn(action: Action, view: ThreadView, price: number, responseTime: number): Turn {
  switch (action) {
    case 'offer':
      return offerTurn(price, responseTime);
    case 'offer_with_message':
      return offerWithMessageTurn(
        price,
        [],
        `My offer is ${formatPrice(price, view.currency)}.`,
        responseTime,
      );
    case 'message_only':
      return messageTurn(
        [],
        view.role === 'buyer' ? 'Still interested.' : 'Thanks for your message.',
        responseTime,
      );
    case 'accept':
    case 'decline':
    case 'no_response':
      return bareTurn(action, responseTime);
  }
}
