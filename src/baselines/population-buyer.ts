import { roundToCurrency } from '../contract/currency.js';
import type { Turn } from '../contract/turn.js';
import type { Random } from '../internal/random.js';
import { draftMessage } from './population-messages.js';
import type { PopulationParameters } from './population-parameters.js';
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
 * The buyer's side of the population policy: open from the mixture of focal first offers; answer a
 * counteroffer by accepting (more likely the closer it is to one's last offer), by splitting the
 * difference, or by walking away. Returns preferred turns, best first; the caller keeps the legal one.
 */
export function buyerPreferences(ctx: PolicyContext): Preferences {
  const { view, random, params } = ctx;
  const hours = responseHours(random, params.buyerResponseMedianHours, params.buyerResponseSigma);
  const canOffer = ctx.legal.has('offer') || ctx.legal.has('offer_with_message');
  const lastOwn = view.ownOffers[view.ownOffers.length - 1];

  if (view.opponentStanding !== null) {
    const counter = view.opponentStanding;
    // A buyer who never offered (the seller opened) measures the counter against what they would open with.
    const anchor = lastOwn ?? firstOfferRatio(random, params) * view.listPrice;
    const gap = Math.max(0, (counter - anchor) / counter);
    const accepts =
      counter <= anchor ||
      random.bernoulli(fallingLogistic(gap, params.buyerAcceptGapMidpoint, params.buyerAcceptGapScale));
    if (accepts) return [bareTurn('accept', hours), ...walkAwayTurns(ctx, hours)];
    if (canOffer && random.bernoulli(params.buyerCounterProbability)) {
      const wanted = anchor + concessionShare(random, params) * (counter - anchor);
      const price = offerPrice(wanted, view);
      // A counter that rounds up to the seller's price is an acceptance.
      if (price === null || roundToCurrency(wanted, ctx.currency) >= counter) {
        return [bareTurn('accept', hours), ...walkAwayTurns(ctx, hours)];
      }
      return [
        buyerOffer(ctx, price, params.buyerCounterMessageProbability, hours),
        ...walkAwayTurns(ctx, hours),
      ];
    }
    return walkAwayTurns(ctx, hours);
  }

  if (lastOwn === undefined) {
    // Opening: nothing stands and the buyer has not offered yet.
    const price = offerPrice(firstOfferRatio(random, params) * view.listPrice, view);
    // No legal price at all (a list price of one cent): the fallback writes instead.
    if (price === null) return [];
    return [buyerOffer(ctx, price, params.buyerOpeningMessageProbability, hours)];
  }

  // The buyer's own offer stands and the seller answered without a price (a message): raise, reply or leave.
  if (canOffer && random.bernoulli(params.buyerReofferAfterMessageProbability)) {
    const price = offerPrice(lastOwn + concessionShare(random, params) * (view.listPrice - lastOwn), view);
    if (price !== null && price > lastOwn)
      return [buyerOffer(ctx, price, params.buyerCounterMessageProbability, hours)];
  }
  if (random.bernoulli(params.buyerReplyMessageProbability)) {
    const draft = draftMessage(random, 'buyer', null, ctx.currency, ['build_rapport', 'request_information']);
    return [messageTurn(draft.labels, draft.message, hours), bareTurn('no_response', hours)];
  }
  return [bareTurn('no_response', hours)];
}

/** A first-offer ratio (offer / list): one of the focal points, or a draw from the continuous remainder. */
export function firstOfferRatio(random: Random, params: Readonly<PopulationParameters>): number {
  const clusters = [
    { ratio: params.firstOfferHalfRatio, weight: params.firstOfferHalfWeight },
    { ratio: params.firstOfferTwoThirdsRatio, weight: params.firstOfferTwoThirdsWeight },
    { ratio: params.firstOfferThreeQuartersRatio, weight: params.firstOfferThreeQuartersWeight },
  ];
  let u = random.next();
  for (const cluster of clusters) {
    if (u < cluster.weight) return cluster.ratio;
    u -= cluster.weight;
  }
  return remainderRatio(random, params);
}

function remainderRatio(random: Random, params: Readonly<PopulationParameters>): number {
  const low = Math.min(params.firstOfferRemainderMin, params.firstOfferRemainderMax);
  const high = Math.max(params.firstOfferRemainderMin, params.firstOfferRemainderMax);
  // Truncated normal by rejection; a handful of tries is plenty for any sensible spread.
  for (let attempt = 0; attempt < 16; attempt++) {
    const ratio = random.normal(params.firstOfferRemainderMean, params.firstOfferRemainderSd);
    if (ratio >= low && ratio <= high) return ratio;
  }
  return Math.min(high, Math.max(low, params.firstOfferRemainderMean));
}

function buyerOffer(ctx: PolicyContext, price: number, messageProbability: number, hours: number): Turn {
  if (!ctx.random.bernoulli(messageProbability)) return offerTurn(price, hours);
  const draft = draftMessage(ctx.random, 'buyer', price, ctx.currency);
  return offerWithMessageTurn(price, draft.labels, draft.message, hours);
}
