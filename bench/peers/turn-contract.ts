// The turn contract both engines of bench/local-peers.ts decode, and bench/onnx-thread-cpu.ts times:
// a seller answering a buyer's offer of 80 on a 120 listing, in one place so the two benches measure
// the same turns.
import { ListingContextSchema } from '../../src/contract/listing-context.js';
import { turnJsonSchema } from '../../src/contract/turn-json-schema.js';
import { BestOfferRules, legalMovesAfter } from '../../src/rules/index.js';

export const context = ListingContextSchema.parse({
  id: 'peers-1',
  item: { title: 'Nikon F3 camera body', category: 'Cameras & Photo', condition: 'Used', description: '' },
  listPrice: 120,
  currency: 'USD',
  seller: { feedbackScore: 1200, feedbackPercent: 99.5 },
  buyer: { feedbackScore: 40 },
});

export const history = [
  {
    role: 'buyer' as const,
    elapsedHours: 0,
    turn: { action: 'offer' as const, price: 80, message_labels: [], message: '', response_time: 1 },
  },
];

/** Messages of at most 16 characters, as bench/onnx.ts at real size: a token costs a whole forward pass. */
export const schema = turnJsonSchema({
  moves: legalMovesAfter(new BestOfferRules(), context, history, 'seller'),
  maxMessageLength: 16,
});

/** The same prompt text for both engines (tokenized by the real Qwen3 tokenizer). */
export const promptText =
  '<|im_start|>system\nYou are a seller on a marketplace. Reply with one JSON turn.<|im_end|>\n' +
  '<|im_start|>user\nListing: Nikon F3 camera body, list price 120.00 USD. The buyer offers 80.00 USD.<|im_end|>\n' +
  '<|im_start|>assistant\n';
