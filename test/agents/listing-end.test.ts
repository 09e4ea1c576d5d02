import { describe, expect, it } from 'vitest';
import {
  BestOfferRules,
  boulware,
  type Negotiator,
  PopulationAgent,
  Session,
  TitForTatAgent,
} from '../../src/index.js';

// A baseline draws its response time without looking at the clock; near the end of the listing the
// rules bound every move by what is left of it, and a turn past it is illegal. The notebook
// agent-on-a-backend met it: a PopulationAgent seller answered 41.98 h after a buyer turn at 678.83 h
// of a 720 h listing ("seller's turn lands at 720.81 h, after the listing ended at 720 h").
const context = { item: { title: 'Lamp' }, listPrice: 80, currency: 'USD' };

describe('baselines answer within what is left of the listing', () => {
  const rules = new BestOfferRules();
  const state = { ...rules.initialState(context), elapsedHours: 719.5 };
  const moves = rules.legalMoves(state, 'buyer');

  it.each<[string, Negotiator]>([
    ['PopulationAgent', new PopulationAgent()],
    ['TimeBasedAgent (boulware)', boulware()],
    ['TitForTatAgent', new TitForTatAgent()],
  ])('%s: the response time is cut to the move’s bound', async (_name, agent) => {
    expect(moves.every((m) => m.maxResponseHours === 0.5)).toBe(true);
    for (let seed = 0; seed < 20; seed++) {
      const turn = await agent.predict(
        { context, history: [], role: 'buyer', legalMoves: moves, legalActions: moves.map((m) => m.action) },
        { seed },
      );
      expect(turn.response_time).toBeLessThanOrEqual(0.5);
    }
  });

  it('without moves (a caller that gives only actions) the drawn time stands', async () => {
    const turns = await Promise.all(
      Array.from({ length: 20 }, (_, seed) =>
        new PopulationAgent().predict({ context, history: [], role: 'buyer' }, { seed }),
      ),
    );
    expect(Math.max(...turns.map((t) => t.response_time))).toBeGreaterThan(0.5);
  });

  it('a session on a short listing ends by the rules, never in an illegal turn', async () => {
    const short = new BestOfferRules({ listingHours: 6 });
    for (let seed = 0; seed < 30; seed++) {
      const population = new PopulationAgent();
      const result = await new Session({
        context,
        buyer: population,
        seller: population,
        rules: short,
        seed,
      }).run();
      expect(result.outcome.reason, `seed ${seed}`).not.toBe('illegal-turn');
      expect(result.outcome.elapsedHours).toBeLessThanOrEqual(6);
    }
  });
});
