import type { Action } from '../contract/action.js';
import type { LegalMove } from '../contract/legal-moves.js';
import type { Turn } from '../contract/turn.js';
import { MAX_RESPONSE_TIME } from '../contract/turn-rules.js';
import { legalPriceRange, nearestLegalPrice } from './legal-price.js';
import type { ThreadView } from './thread-view.js';

/** Builders for turns that always satisfy `TurnSchema`: null price and "" message where none belongs. */

export function offerTurn(price: number, responseTime: number): Turn {
  return { action: 'offer', price, message_labels: [], message: '', response_time: hours(responseTime) };
}

export function offerWithMessageTurn(
  price: number,
  labels: readonly string[],
  message: string,
  responseTime: number,
): Turn {
  return {
    action: 'offer_with_message',
    price,
    message_labels: [...new Set(labels)],
    message,
    response_time: hours(responseTime),
  };
}

export function messageTurn(labels: readonly string[], message: string, responseTime: number): Turn {
  return {
    action: 'message_only',
    price: null,
    message_labels: [...new Set(labels)],
    message,
    response_time: hours(responseTime),
  };
}

/** `accept`, `decline` or `no_response`: actions that carry neither price nor message. */
export function bareTurn(action: 'accept' | 'decline' | 'no_response', responseTime: number): Turn {
  return { action, price: null, message_labels: [], message: '', response_time: hours(responseTime) };
}

function hours(value: number): number {
  if (!Number.isFinite(value) || value < 0) return 0;
  return Math.min(MAX_RESPONSE_TIME, Math.round(value * 100) / 100);
}

/**
 * The legal price nearest to `price` for the side to move (see `legalPriceRange`: whole minor units,
 * above 0, below the list price, beyond the other side's standing offer), or `null` when no price is
 * legal now and the side must answer without one.
 */
export function offerPrice(price: number, view: ThreadView): number | null {
  const range = legalPriceRange(view);
  return range === null ? null : nearestLegalPrice(price, range);
}

/**
 * The actions left once offers are struck out when no price is legal (`legalPriceRange` is `null`).
 * Where the rules allow nothing but offers, they stay: such a caller gets `forcedOfferPrice`, and its
 * rules say what they make of it.
 */
export function withoutImpossibleOffers(
  legal: ReadonlySet<Action>,
  pricePossible: boolean,
): ReadonlySet<Action> {
  if (pricePossible) return legal;
  const rest = new Set([...legal].filter((action) => action !== 'offer' && action !== 'offer_with_message'));
  return rest.size > 0 ? rest : legal;
}

/**
 * The price for an offer the rules force when no price is legal: the other side's standing price, the
 * nearest thing to accepting it, never above the list price.
 */
export function forcedOfferPrice(view: ThreadView): number {
  return Math.min(view.opponentStanding ?? view.listPrice, view.listPrice);
}

/**
 * Picks the first preferred turn whose action is legal (an offer may become its sibling with or
 * without a message, at the same price); if none is, builds a turn for the first legal action in
 * `FALLBACK_ORDER`, so an agent answers whatever subset of actions the rules allow.
 */
export function firstLegal(
  preferred: readonly Turn[],
  legal: ReadonlySet<Action>,
  build: (action: Action) => Turn,
): Turn {
  for (const turn of preferred) {
    if (legal.has(turn.action)) return turn;
    const sibling = pricedSibling(turn, legal);
    if (sibling) return sibling;
  }
  for (const action of FALLBACK_ORDER) if (legal.has(action)) return build(action);
  // Unreachable when `legal` is non-empty, which `checkPredictInput` guarantees.
  throw new RangeError('no legal action to choose from');
}

/**
 * The turn with its `response_time` (hours, the unit of every baseline) cut to what is left of the
 * listing, when no offer of the other side stands: a baseline draws its response time without looking
 * at the clock, and a turn that lands after the listing ended is illegal; answering at the last moment
 * is what a seller short of time does. Where the other side's offer stands, the move's bound is the
 * sooner of the listing's end and the offer's lapse, and a later answer lets the offer lapse, the
 * calibrated expiry of docs/baseline-agents.md, so the drawn time stands there (the listing's end past
 * a standing offer stays the rules' to judge). Rounded down to a millionth, as the JSON Schema rounds it.
 */
export function withinTimeBound(turn: Turn, moves: readonly LegalMove[] | undefined): Turn {
  // `accept` is a move only while the other side's offer stands.
  if (!moves || moves.some((move) => move.action === 'accept')) return turn;
  const bound = moves?.find((move) => move.action === turn.action)?.maxResponseHours;
  if (bound === undefined || turn.response_time <= bound) return turn;
  return { ...turn, response_time: Math.floor(bound * 1e6) / 1e6 };
}

/** The same offer as the other priced action, when only that one is legal. */
function pricedSibling(turn: Turn, legal: ReadonlySet<Action>): Turn | undefined {
  if (turn.price === null) return undefined;
  if (turn.action === 'offer_with_message' && legal.has('offer'))
    return offerTurn(turn.price, turn.response_time);
  if (turn.action === 'offer' && legal.has('offer_with_message')) {
    return offerWithMessageTurn(turn.price, [], `My offer is ${turn.price.toFixed(2)}.`, turn.response_time);
  }
  return undefined;
}

/** When the preferred moves are not allowed, the least committal legal move comes first. */
const FALLBACK_ORDER: readonly Action[] = [
  'no_response',
  'decline',
  'message_only',
  'offer',
  'offer_with_message',
  'accept',
];
