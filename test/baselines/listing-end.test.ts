import { describe, expect, it } from 'vitest';
import {
  BestOfferRules,
  boulware,
  type Negotiator,
  PopulationAgent,
  TitForTatAgent,
} from '../../src/index.js';

// A baseline draws its response time without looking at the clock; near the end of the listing the
// rules bound every move by what is left of it, and a turn past it is illegal. Where no offer of the
// other side stands, that bound is the listing's alone, and the baselines keep to it.
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

  it('where the other side’s offer stands, the drawn time stands: the offer may lapse, as calibrated', async () => {
    const standing = moves.map((m) => ({ ...m }));
    standing.push({ action: 'accept', dealPrice: 70, maxResponseHours: 0.5 });
    const turns = await Promise.all(
      Array.from({ length: 20 }, (_, seed) =>
        new PopulationAgent().predict(
          {
            context,
            history: [],
            role: 'buyer',
            legalMoves: standing,
            legalActions: standing.map((m) => m.action),
          },
          { seed },
        ),
      ),
    );
    expect(Math.max(...turns.map((t) => t.response_time))).toBeGreaterThan(0.5);
  });
});
