import { roundToCurrency } from '../contract/currency.js';
import type { Turn } from '../contract/turn.js';
import { draftMessage } from './population-messages.js';
import {
  concessionShare,
  fallingLogistic,
  type PolicyContext,
  type Preferences,
  responseHours,
  walkAwayTurns,
} from './population-policy.js';
import { bareTurn, messageTurn, offerPrice, offerTurn, offerWithMessageTurn } from './turns.js';

/**
 * The seller's side of the population policy: answer a buyer's offer by accepting (more likely the
 * closer it is to the asking price), declining a lowball, countering once (splitting the difference
 * between the ask and the offer, never above list), ignoring it, or sending a message first.
 */
export function sellerPreferences(ctx: PolicyContext): Preferences {
  const { view, random, params } = ctx;
  const hours = responseHours(random, params.sellerResponseMedianHours, params.sellerResponseSigma);

  if (view.opponentStanding === null) {
    // No buyer offer to answer (the buyer wrote a message): a seller with a counter out may not counter
    // again until the buyer counters back, as on eBay, so the only moves are a reply or silence.
    if (random.bernoulli(params.sellerReplyMessageProbability)) {
      const draft = draftMessage(random, 'seller', null, ctx.currency);
      return [messageTurn(draft.labels, draft.message, hours), bareTurn('no_response', hours)];
    }
    return [bareTurn('no_response', hours)];
  }

  const offer = view.opponentStanding;
  const lastOwn = view.ownOffers[view.ownOffers.length - 1];
  const ask = Math.min(view.listPrice, lastOwn ?? view.listPrice);
  const accept = bareTurn('accept', hours);
  if (offer >= ask) return [accept];

  if (random.bernoulli(params.sellerIgnoreProbability)) return [bareTurn('no_response', hours)];
  if (random.bernoulli(params.sellerMessageProbability)) {
    const draft = draftMessage(random, 'seller', null, ctx.currency);
    return [messageTurn(draft.labels, draft.message, hours), bareTurn('no_response', hours)];
  }

  const gap = (ask - offer) / ask;
  if (random.bernoulli(fallingLogistic(gap, params.sellerAcceptGapMidpoint, params.sellerAcceptGapScale))) {
    return [accept];
  }
  const lowball = offer / view.listPrice < params.sellerLowballRatio;
  if (lowball && random.bernoulli(params.sellerLowballDeclineProbability)) return walkAwayTurns(ctx, hours);
  if (!random.bernoulli(params.sellerCounterProbability)) return walkAwayTurns(ctx, hours);

  const wanted = ask - concessionShare(random, params) * (ask - offer);
  const price = offerPrice(wanted, view);
  // A counter that rounds down onto the buyer's offer is an acceptance, and so is a counter with no
  // room left (the offer a cent below list).
  if (price === null || roundToCurrency(wanted, ctx.currency) <= offer) return [accept];
  return [sellerCounter(ctx, price, hours), ...walkAwayTurns(ctx, hours)];
}

function sellerCounter(ctx: PolicyContext, price: number, hours: number): Turn {
  if (!ctx.random.bernoulli(ctx.params.sellerCounterMessageProbability)) return offerTurn(price, hours);
  const draft = draftMessage(ctx.random, 'seller', price, ctx.currency);
  return offerWithMessageTurn(price, draft.labels, draft.message, hours);
}
