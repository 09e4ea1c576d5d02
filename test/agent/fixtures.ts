import type { History, HistoryEntry, Role } from '../../src/contract/history.js';
import type { ListingContextInput } from '../../src/contract/listing-context.js';
import type { Turn } from '../../src/contract/turn.js';

export const camera: ListingContextInput = {
  id: 'listing-1',
  item: {
    title: 'Nikon F3 35mm film camera body',
    category: 'Cameras & Photo',
    condition: 'Used',
    description: 'Shutter fires at all speeds.\nLight meter works.',
  },
  listPrice: 120,
  currency: 'USD',
  seller: { feedbackScore: 1520, feedbackPercent: 99.8, accountAgeDays: 3650, pastDeals: 40 },
  buyer: { feedbackScore: 12 },
};

export function offer(price: number, responseTime = 1): Turn {
  return { action: 'offer', price, message_labels: [], message: '', response_time: responseTime };
}

export function offerWithMessage(price: number, message: string, labels: string[] = []): Turn {
  return { action: 'offer_with_message', price, message_labels: labels, message, response_time: 2 };
}

export function bare(action: 'accept' | 'decline' | 'no_response'): Turn {
  return { action, price: null, message_labels: [], message: '', response_time: 1 };
}

export function messageOnly(message: string, labels: string[] = []): Turn {
  return { action: 'message_only', price: null, message_labels: labels, message, response_time: 1 };
}

export function entry(role: Role, turn: Turn, elapsedHours: number): HistoryEntry {
  return { role, turn, elapsedHours };
}

/** The buyer opened at 80; it is the seller's turn. */
export const buyerOpenedAt80: History = [entry('buyer', offer(80), 0)];

/** Serialises a turn the way a model writes it. */
export function json(turn: Turn): string {
  return JSON.stringify(turn);
}
