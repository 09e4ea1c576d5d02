import type { HistoryEntry, Role } from '../contract/history.js';
import type { PredictInput } from '../contract/negotiator.js';

/**
 * What a baseline agent needs to know about a thread, read from the history alone: agents keep no
 * state between calls, so one instance can play many sessions at once and a seed replays a decision.
 */
export interface ThreadView {
  role: Role;
  listPrice: number;
  /** The listing's ISO 4217 currency: prices are whole minor units of it. */
  currency: string;
  /** Index of the turn being chosen (the number of turns so far). */
  turnIndex: number;
  /** Prices of this side's offers, oldest first. */
  ownOffers: number[];
  /** Prices of the other side's offers, oldest first. */
  opponentOffers: number[];
  /** The other side's offer on the table, or null: the latest offer, when the other side made it. */
  opponentStanding: number | null;
  /** This side's offer on the table, or null. */
  ownStanding: number | null;
  /** The last turn of the thread, whoever took it. */
  last: HistoryEntry | undefined;
}

export function readThread(input: PredictInput): ThreadView {
  const { role, history } = input;
  const ownOffers: number[] = [];
  const opponentOffers: number[] = [];
  let latest: { role: Role; price: number } | null = null;
  for (const entry of history) {
    const price = entry.turn.price;
    const priced = entry.turn.action === 'offer' || entry.turn.action === 'offer_with_message';
    if (!priced || price === null || !(price > 0)) continue;
    (entry.role === role ? ownOffers : opponentOffers).push(price);
    // A new offer replaces whatever stood before, as a counteroffer does on eBay.
    latest = { role: entry.role, price };
  }
  return {
    role,
    listPrice: input.context.listPrice,
    currency: input.context.currency ?? 'USD',
    turnIndex: history.length,
    ownOffers,
    opponentOffers,
    opponentStanding: latest !== null && latest.role !== role ? latest.price : null,
    ownStanding: latest !== null && latest.role === role ? latest.price : null,
    last: history[history.length - 1],
  };
}
