import type { ListingContextInput, Turn } from '../../src/index.js';

export const CONTEXT: ListingContextInput = {
  id: 'ctx-test',
  item: {
    title: 'Nintendo Switch OLED, white',
    category: 'Video Games & Consoles',
    condition: 'Used – Like New',
    description: 'Barely used, with dock and both Joy-Cons.',
  },
  listPrice: 300,
  currency: 'USD',
  seller: { feedbackScore: 1520, feedbackPercent: 99.6, accountAgeDays: 3100, pastDeals: 240 },
  buyer: { feedbackScore: 12, feedbackPercent: 100, accountAgeDays: 200, pastDeals: 1 },
};

export function offer(price: number, response_time = 1): Turn {
  return { action: 'offer', price, message_labels: [], message: '', response_time };
}

export function offerWithMessage(
  price: number,
  message: string,
  labels: string[] = [],
  response_time = 1,
): Turn {
  return { action: 'offer_with_message', price, message_labels: labels, message, response_time };
}

export function bare(action: 'accept' | 'decline' | 'no_response', response_time = 1): Turn {
  return { action, price: null, message_labels: [], message: '', response_time };
}

export function messageOnly(message: string, response_time = 1): Turn {
  return { action: 'message_only', price: null, message_labels: [], message, response_time };
}
