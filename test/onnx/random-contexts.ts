import type { History, Role } from '../../src/contract/history.js';
import type { ListingContextInput } from '../../src/contract/listing-context.js';
import { Random } from '../../src/internal/random.js';

const TITLES = [
  'Nikon F3 camera body',
  'Vintage Levi 501 jeans',
  'iPad Air 64GB',
  'Le Creuset pot 24cm',
  'Lego 10179 set',
];
const CATEGORIES = ['Cameras & Photo', 'Clothing', 'Electronics', 'Home & Garden', 'Toys'];

export interface RandomTurnInput {
  context: ListingContextInput;
  history: History;
  role: Role;
}

/** Seeded listing contexts with a short random history: the inputs of the 200-context test. */
export function randomInputs(count: number, seed: number): RandomTurnInput[] {
  const random = new Random(seed);
  return Array.from({ length: count }, (_, i) => {
    const listPrice = Math.round(random.uniform(5, 900) * 100) / 100;
    const history: History = [];
    const turns = random.int(0, 3);
    // A legal Best Offer thread: each counter strictly between the two sides' latest prices.
    let low = 0;
    let high = listPrice;
    for (let t = 0; t < turns; t++) {
      const role: Role = t % 2 === 0 ? 'buyer' : 'seller';
      const start = t === 0 ? listPrice * 0.5 : low;
      const price = Math.min(
        high - 0.01,
        Math.max(low + 0.01, Math.round(random.uniform(start, high) * 100) / 100),
      );
      if (role === 'buyer') low = price;
      else high = price;
      history.push({
        role,
        elapsedHours: t * 3,
        turn: { action: 'offer', price, message_labels: [], message: '', response_time: 1 },
      });
    }
    const role: Role = turns % 2 === 0 ? 'buyer' : 'seller';
    return {
      context: {
        id: `listing-${i}`,
        item: {
          title: random.pick(TITLES),
          category: random.pick(CATEGORIES),
          condition: random.bernoulli(0.5) ? 'Used' : 'New',
          description: random.bernoulli(0.5) ? 'Works as it should.' : '',
        },
        listPrice,
        currency: 'USD',
        seller: { feedbackScore: random.int(0, 5000), feedbackPercent: 95 + random.int(0, 50) / 10 },
        buyer: { feedbackScore: random.int(0, 500) },
      },
      history,
      role,
    };
  });
}
