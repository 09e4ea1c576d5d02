// For marketplace apps: suggest a seller's reply to a buyer's offer, never below the seller's floor.
// Run: npx tsx examples/marketplace-suggest-reply.ts
//
// The backend here is MockLanguageBackend from 'haggle/testing', the way your app's own tests drive the
// agent without a model. In production pass a real backend (the local ONNX model or an
// OpenAI-compatible server); nothing else in this file changes.
import {
  BestOfferRules,
  describeInterval,
  type HistoryEntry,
  intersectInterval,
  type ListingContextInput,
  ListingContextSchema,
  legalMovesAfter,
  NegotiationAgent,
  NotYourTurnError,
  UnsatisfiableGuardrailsError,
} from 'haggle';
import { MockLanguageBackend } from 'haggle/testing';

const context: ListingContextInput = {
  item: { title: 'Canon EF 50mm f/1.8 STM lens', category: 'Cameras & Photo', condition: 'Used – Good' },
  listPrice: 120,
  currency: 'USD',
  seller: { feedbackScore: 860, feedbackPercent: 99.8 },
};
const history: HistoryEntry[] = [
  {
    role: 'buyer',
    turn: {
      action: 'offer_with_message',
      price: 70,
      message_labels: ['invoke_compromise'],
      message: 'Would you take 70? I can pay right away.',
      response_time: 1,
    },
    elapsedHours: 1,
  },
];

// Scripted model outputs: first a counter below the seller's floor (the agent must refuse it and re-ask),
// then a valid counter, then two more options for `sample`.
const backend = new MockLanguageBackend({
  responses: [
    '{"action":"offer","price":80,"message_labels":[],"message":"","response_time":2}',
    '{"action":"offer_with_message","price":104,"message_labels":["justify_with_market_data"],"message":"Used ones sell for about 110, I can do 104.","response_time":2}',
    '{"action":"offer","price":110,"message_labels":[],"message":"","response_time":3}',
    '{"action":"decline","price":null,"message_labels":[],"message":"","response_time":5}',
  ],
});

// What the seller may say here, as the rules see it: the agent derives the same moves itself (a Session
// would pass them), narrows them by the floor and turns them into the schema the model writes under.
const floor = { minPrice: 95 };
const moves = legalMovesAfter(new BestOfferRules(), ListingContextSchema.parse(context), history, 'seller');
for (const move of moves) {
  const price = move.price ? ` at a price in ${describeInterval(intersectInterval(move.price, floor))}` : '';
  const below = move.dealPrice !== undefined && move.dealPrice < floor.minPrice;
  const deal =
    move.dealPrice !== undefined
      ? ` (a deal at ${move.dealPrice}${below ? ': below the floor, left out' : ''})`
      : '';
  const time = move.maxResponseHours !== undefined ? `, within ${move.maxResponseHours} h` : '';
  console.log(`legal move: ${move.action}${price}${deal}${time}`);
}

const agent = new NegotiationAgent({ backend, guardrails: { seller: floor } });
const reply = await agent.predict({ context, history, role: 'seller' });
console.log('suggested reply:', reply.action, reply.price, JSON.stringify(reply.message));
console.log('model calls:', backend.calls.length, '(the first counter was below the floor and was re-asked)');

const options = await agent.sample({ context, history, role: 'seller' }, { n: 2 });
for (const option of options) console.log('option:', option.action, option.price);

// Two mistakes an app can make, both caught before any model call. Asking for the wrong side: the buyer
// just offered, so the seller moves next.
try {
  await agent.predict({ context, history, role: 'buyer' });
} catch (error) {
  if (!(error instanceof NotYourTurnError)) throw error;
  console.log(`not the buyer's turn: the ${error.nextRole} moves next`);
}
// A floor no Best Offer price can meet: a seller's counter stays below the list price (120), and the
// buyer's offer is below it too, so the model could only ever decline.
const floorAboveList = new NegotiationAgent({ backend, guardrails: { seller: { minPrice: 150 } } });
try {
  await floorAboveList.predict({ context, history, role: 'seller' });
} catch (error) {
  if (!(error instanceof UnsatisfiableGuardrailsError)) throw error;
  console.log(`guardrail refused: ${error.issues[0]?.message}`);
}
console.log('model calls after both mistakes:', backend.calls.length);
