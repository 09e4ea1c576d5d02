import type { Action } from '../contract/action.js';
import type { Turn } from '../contract/turn.js';
import { MAX_RESPONSE_TIME } from '../contract/turn-rules.js';
import { roundToCents } from '../internal/random.js';
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
 * A price a side may put on the table: rounded to cents, above zero, never above the list price (a
 * seller may not counter above it, and a buyer offering more than the asking price would simply buy).
 */
export function offerPrice(price: number, view: ThreadView): number {
  const list = view.listPrice;
  let rounded = roundToCents(Math.min(price, list));
  // Rounding up may cross the list price by less than a cent: round down instead.
  if (rounded > list) rounded = Math.floor(list * 100) / 100;
  // A list price below one cent leaves no whole-cent price: offer the list price itself.
  return rounded > 0 ? rounded : list;
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
