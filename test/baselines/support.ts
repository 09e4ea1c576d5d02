import { ACTIONS, type Action } from '../../src/contract/action.js';
import type { History, HistoryEntry, Role } from '../../src/contract/history.js';
import type { ListingContext } from '../../src/contract/listing-context.js';
import type { Negotiator, PredictInput } from '../../src/contract/negotiator.js';
import type { Turn } from '../../src/contract/turn.js';
import { type Random, roundToCents } from '../../src/internal/random.js';

/** A fixed listing for unit tests: $100 keeps ratios and prices easy to read. */
export const LISTING: ListingContext = {
  id: 'ctx-test',
  item: { title: 'Sony Wireless Headphones', condition: 'Used – Good' },
  listPrice: 100,
  currency: 'USD',
};

/** Wraps a negotiator and keeps every input it was asked about, to replay them under other seeds. */
export function recording(inner: Negotiator, calls: PredictInput[]): Negotiator {
  return {
    describe: () => inner.describe(),
    predict: async (input, options) => {
      calls.push(input);
      return inner.predict(input, options);
    },
  };
}

export function entry(role: Role, turn: Turn, elapsedHours: number): HistoryEntry {
  return { role, turn, elapsedHours };
}

export function offer(price: number): Turn {
  return { action: 'offer', price, message_labels: [], message: '', response_time: 1 };
}

export function message(text = 'Is this still available?'): Turn {
  return {
    action: 'message_only',
    price: null,
    message_labels: ['request_information'],
    message: text,
    response_time: 1,
  };
}

/** Builds a history from alternating turns, the buyer first, an hour apart. */
export function thread(...turns: Turn[]): History {
  return turns.map((turn, i) => entry(i % 2 === 0 ? 'buyer' : 'seller', turn, i + 1));
}

/**
 * A valid but arbitrary history: random roles and actions, prices from 20% to 120% of list. Such
 * threads need not be reachable under any rules; agents must still answer them with valid turns.
 */
export function randomHistory(random: Random, listPrice: number, maxLength = 8): History {
  const history: History = [];
  let clock = 0;
  const length = random.int(0, maxLength);
  for (let i = 0; i < length; i++) {
    const role: Role = random.bernoulli(0.8)
      ? i % 2 === 0
        ? 'buyer'
        : 'seller'
      : random.pick(['buyer', 'seller']);
    const action = random.pick(ACTIONS);
    const response_time = roundToCents(random.uniform(0, 60));
    clock += response_time;
    const price =
      action === 'offer' || action === 'offer_with_message'
        ? roundToCents(listPrice * random.uniform(0.2, 1.2))
        : null;
    const hasMessage = action === 'offer_with_message' || action === 'message_only';
    history.push(
      entry(
        role,
        {
          action,
          price: price !== null && price > 0 ? price : price === null ? null : 0.01,
          message_labels: hasMessage && random.bernoulli(0.5) ? ['build_rapport'] : [],
          message: hasMessage ? 'Hello there.' : '',
          response_time,
        },
        clock,
      ),
    );
  }
  return history;
}

/** A random non-empty subset of the six actions, or undefined (all six) a fifth of the time. */
export function randomLegalActions(random: Random): Action[] | undefined {
  if (random.bernoulli(0.2)) return undefined;
  const subset = ACTIONS.filter(() => random.bernoulli(0.5));
  return subset.length > 0 ? subset : [random.pick(ACTIONS)];
}
