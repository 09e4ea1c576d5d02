// For agent builders: your own negotiator plays in the same Session as haggle's.
// Run: npx tsx examples/custom-negotiator.ts
import { generateContexts, type Negotiator, PopulationAgent, Session, type Turn } from 'haggle';

/** A seller who keeps a firm floor at 85% of list and meets the buyer halfway above it. */
function firmSeller(floorShare = 0.85): Negotiator {
  return {
    describe: () => ({ kind: 'firm-seller', floorShare }),
    async predict({ context, history, legalActions }) {
      const listPrice = context.listPrice;
      const floor = Math.round(listPrice * floorShare * 100) / 100;
      const lastBuyerPrice = [...history].reverse().find((e) => e.role === 'buyer' && e.turn.price !== null)
        ?.turn.price;
      const can = (action: Turn['action']) => legalActions?.includes(action) ?? true;
      if (lastBuyerPrice != null && lastBuyerPrice >= floor && can('accept')) {
        return { action: 'accept', price: null, message_labels: [], message: '', response_time: 2 };
      }
      const counter = Math.max(floor, Math.round(((listPrice + (lastBuyerPrice ?? floor)) / 2) * 100) / 100);
      return {
        action: 'offer_with_message',
        price: counter,
        message_labels: ['declare_cost_limit_seller_firm'],
        message: `I can do ${counter.toFixed(2)}, that is close to my limit.`,
        response_time: 4,
      };
    },
  };
}

const [context] = generateContexts({ count: 1, seed: 42 });
if (!context) throw new Error('no context generated');
const session = new Session({ context, buyer: new PopulationAgent(), seller: firmSeller(), seed: 42 });
console.log(`${context.item.title}, listed at ${context.listPrice} ${context.currency}`);
session.on('turn', ({ index, role, turn, elapsedHours }) => {
  const price = turn.price === null ? '' : ` ${turn.price.toFixed(2)}`;
  console.log(
    `  #${index} ${elapsedHours.toFixed(1).padStart(5)} h  ${role.padEnd(6)} ${turn.action}${price}`,
  );
});
const { outcome } = await session.run();
console.log(
  `outcome: ${outcome.status} (${outcome.reason})${outcome.price === null ? '' : ` at ${outcome.price}`}`,
);
