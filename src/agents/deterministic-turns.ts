import type { Action } from '../contract/action.js';
import type { Turn } from '../contract/turn.js';
import { type PriceLimits, withinReservation } from './price-limits.js';
import type { ThreadView } from './thread-view.js';
import { bareTurn, firstLegal, messageTurn, offerPrice, offerTurn, offerWithMessageTurn } from './turns.js';

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
  const { view, limits, legal, responseTime } = decision;
  const standing = view.opponentStanding;
  const canOffer = limits.feasible && (legal.has('offer') || legal.has('offer_with_message'));
  const price = safeOfferPrice(decision.nextPrice, view, limits);
  const preferred: Turn[] = [];
  if (standing !== null && withinReservation(standing, limits, view.role)) {
    if (decision.acceptable(standing) || !canOffer) preferred.push(bareTurn('accept', responseTime));
  }
  if (canOffer) preferred.push(offerTurn(price, responseTime));
  if (standing !== null) preferred.push(bareTurn('decline', responseTime));
  preferred.push(bareTurn('no_response', responseTime));
  return firstLegal(preferred, legal, (action) => plainTurn(action, view, price, responseTime));
}

/**
 * The next price rounded to cents without crossing the reservation: rounding may move a price by
 * half a cent, so it rounds towards this side's own interest when the reservation is that close.
 */
export function safeOfferPrice(price: number, view: ThreadView, limits: PriceLimits): number {
  const rounded = offerPrice(price, view);
  if (view.role === 'buyer' && rounded > limits.reservation) {
    return Math.max(0.01, Math.floor(limits.reservation * 100) / 100);
  }
  if (view.role === 'seller' && rounded < limits.reservation) {
    return Math.min(view.listPrice, Math.ceil(limits.reservation * 100) / 100);
  }
  return rounded;
}

/** Turns for actions the baselines do not choose on their own, when the rules allow nothing else. */
function plainTurn(action: Action, view: ThreadView, price: number, responseTime: number): Turn {
  switch (action) {
    case 'offer':
      return offerTurn(price, responseTime);
    case 'offer_with_message':
      return offerWithMessageTurn(price, [], `My offer is ${price.toFixed(2)}.`, responseTime);
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
