import { describe, expect, it } from 'vitest';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import {
  BOULWARE_EXPONENT,
  boulware,
  CONCEDER_EXPONENT,
  conceder,
  linearConcession,
  TimeBasedAgent,
} from '../../src/baselines/time-based-agent.js';
import { InvalidInputError } from '../../src/contract/errors.js';
import type { PredictInput } from '../../src/contract/negotiator.js';
import { AlternatingOffersRules } from '../../src/rules/alternating-offers-rules.js';
import { Session } from '../../src/simulation/session.js';
import { generateContexts } from '../../src/simulation/synthetic-contexts.js';
import { checkDeterministicContract } from './deterministic-contract.js';
import { LISTING, message, offer, thread } from './support.js';

const ALL_LEGAL = [
  'offer',
  'offer_with_message',
  'accept',
  'decline',
  'message_only',
  'no_response',
] as const;

describe('TimeBasedAgent: concession over time', () => {
  it('follows u(t) = 1 - t^(1/e): Boulware holds out, conceder gives way early', () => {
    const b = boulware();
    const l = linearConcession();
    const c = conceder();
    for (const agent of [b, l, c]) {
      expect(agent.targetUtility(0)).toBe(1);
      expect(agent.targetUtility(1)).toBe(0);
      expect(agent.targetUtility(2)).toBe(0);
    }
    expect(l.targetUtility(0.5)).toBeCloseTo(0.5);
    expect(b.targetUtility(0.5)).toBeCloseTo(1 - 0.5 ** 4);
    expect(c.targetUtility(0.5)).toBeCloseTo(1 - 0.5 ** 0.25);
    for (const t of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      expect(b.targetUtility(t)).toBeGreaterThan(l.targetUtility(t));
      expect(l.targetUtility(t)).toBeGreaterThan(c.targetUtility(t));
    }
    expect(b.exponent).toBe(BOULWARE_EXPONENT);
    expect(c.exponent).toBe(CONCEDER_EXPONENT);
  });

  it('maps the target to a price between aspiration and reservation, for each role', async () => {
    const agent = new TimeBasedAgent({ horizon: 10, reservationRatio: 0.8, aspirationRatio: 0.5 });
    // Buyer at t = 0 opens at its aspiration.
    expect((await agent.predict({ context: LISTING, history: [], role: 'buyer' })).price).toBe(50);
    // Buyer at t = 4/10 (linear): 50 + 0.4 * (80 - 50) = 62.
    const buyerTurn = await agent.predict({
      context: LISTING,
      history: thread(offer(50), offer(100), offer(55), offer(99)),
      role: 'buyer',
    });
    expect(buyerTurn).toMatchObject({ action: 'offer', price: 62 });
    // Seller at t = 1/10, from list down to its floor: 100 - 0.1 * (100 - 80) = 98.
    const seller = new TimeBasedAgent({ horizon: 10, reservationRatio: 0.8 });
    const sellerTurn = await seller.predict({ context: LISTING, history: thread(offer(50)), role: 'seller' });
    expect(sellerTurn).toMatchObject({ action: 'offer', price: 98 });
    // An aspiration below the floor is lifted to the floor: the agent never opens beyond its reservation.
    const lifted = await agent.predict({ context: LISTING, history: thread(offer(50)), role: 'seller' });
    expect(lifted).toMatchObject({ action: 'offer', price: 80 });
  });

  it('accepts an offer at least as good as its next own offer (AC_next), and not one worse', async () => {
    const seller = linearConcession({ horizon: 10, reservationRatio: 0.7 });
    // At t = 1/10 the seller would ask 97: 97 is accepted, 96.99 is countered.
    expect(
      (await seller.predict({ context: LISTING, history: thread(offer(97)), role: 'seller' })).action,
    ).toBe('accept');
    expect(
      (await seller.predict({ context: LISTING, history: thread(offer(96.99)), role: 'seller' })).action,
    ).toBe('offer');
    const buyer = linearConcession({ horizon: 10, reservationRatio: 0.9, aspirationRatio: 0.5 });
    // At t = 2/10 the buyer would offer 58: a counter of 58 is accepted, 58.01 is not.
    expect(
      (await buyer.predict({ context: LISTING, history: thread(offer(50), offer(58)), role: 'buyer' }))
        .action,
    ).toBe('accept');
    expect(
      (await buyer.predict({ context: LISTING, history: thread(offer(50), offer(58.01)), role: 'buyer' }))
        .action,
    ).toBe('offer');
  });

  it('never goes beyond its reservation, even past the horizon or when it may offer no more', async () => {
    const buyer = conceder({ horizon: 4, reservationPrice: 70 });
    const late = thread(
      offer(50),
      offer(95),
      offer(60),
      offer(90),
      offer(65),
      offer(88),
      offer(68),
      offer(85),
    );
    const turn = await buyer.predict({ context: LISTING, history: late, role: 'buyer' });
    expect(turn).toMatchObject({ action: 'offer', price: 70 });
    // Out of offers (Best Offer's cap) with the seller above the budget: decline, never accept.
    const capped: PredictInput = {
      context: LISTING,
      history: late,
      role: 'buyer',
      legalActions: ['accept', 'decline', 'message_only', 'no_response'],
    };
    expect((await buyer.predict(capped)).action).toBe('decline');
    // Out of offers with the seller within budget: take it.
    const within = thread(offer(50), offer(95), offer(60), offer(90), offer(65), offer(69.5));
    expect((await buyer.predict({ ...capped, history: within })).action).toBe('accept');
  });

  it('as a seller with a floor above the list price never offers and never sells', async () => {
    const seller = new TimeBasedAgent({ reservationPrice: 120 });
    const turn = await seller.predict({
      context: LISTING,
      history: thread(offer(99)),
      role: 'seller',
      legalActions: [...ALL_LEGAL],
    });
    expect(turn.action).toBe('decline');
    const silent = await seller.predict({
      context: LISTING,
      history: thread(message()),
      role: 'seller',
      legalActions: [...ALL_LEGAL],
    });
    expect(silent.action).toBe('no_response');
  });

  it('keeps the contract over arbitrary threads and legal subsets', async () => {
    await checkDeterministicContract((r) => boulware({ reservationRatio: r, horizon: 8 }), 400, 21);
    await checkDeterministicContract((r) => conceder({ reservationRatio: r, horizon: 6 }), 400, 22);
    await checkDeterministicContract(
      (r, list) => new TimeBasedAgent({ reservationPrice: r * list, exponent: 2 }),
      200,
      23,
    );
  });

  it('plays whole sessions legally and its offers move monotonically towards the reservation', async () => {
    const contexts = generateContexts({ count: 60, seed: 4 });
    const pool = [
      boulware({ horizon: 6 }),
      linearConcession({ horizon: 6 }),
      conceder({ horizon: 6 }),
      new PopulationAgent(),
    ];
    let deals = 0;
    for (const [i, context] of contexts.entries()) {
      const buyer = pool[i % pool.length];
      const seller = pool[Math.floor(i / pool.length) % pool.length];
      if (!buyer || !seller) throw new Error('pool');
      const rules = i % 2 === 0 ? new AlternatingOffersRules() : undefined;
      const result = await new Session({
        context,
        buyer,
        seller,
        seed: i,
        ...(rules ? { rules } : {}),
      }).run();
      expect(result.outcome.reason).not.toBe('illegal-turn');
      if (result.outcome.status === 'deal') deals++;
      for (const role of ['buyer', 'seller'] as const) {
        if ((role === 'buyer' ? buyer : seller) instanceof PopulationAgent) continue;
        const prices = result.turns
          .filter((t) => t.role === role && t.turn.price !== null)
          .map((t) => t.turn.price ?? 0);
        for (let k = 1; k < prices.length; k++) {
          if (role === 'buyer') expect(prices[k]).toBeGreaterThanOrEqual(prices[k - 1] ?? 0);
          else expect(prices[k]).toBeLessThanOrEqual(prices[k - 1] ?? 0);
        }
      }
    }
    expect(deals).toBeGreaterThan(5);
  });
});

describe('TimeBasedAgent: options and description', () => {
  it('describes itself as plain data', () => {
    const description = boulware({ reservationRatio: 0.8 }).describe();
    expect(description).toEqual({
      kind: 'time-based',
      strategy: 'boulware',
      exponent: 0.25,
      horizon: 20,
      reservationRatio: 0.8,
      responseTimeHours: 2,
    });
    expect(linearConcession().describe().strategy).toBe('linear');
    expect(conceder().describe().strategy).toBe('conceder');
  });

  it('rejects bad options with InvalidInputError naming the option', () => {
    const cases: [unknown, string][] = [
      [{ exponent: 0 }, 'exponent'],
      [{ exponent: Number.POSITIVE_INFINITY }, 'exponent'],
      [{ horizon: 0 }, 'horizon'],
      [{ horizon: 2.5 }, 'horizon'],
      [{ reservationPrice: -5 }, 'reservationPrice'],
      [{ reservationPrice: 50, reservationRatio: 0.5 }, 'reservationPrice'],
      [{ reservationRatio: 1.2 }, 'reservationRatio'],
      [{ aspirationRatio: 0 }, 'aspirationRatio'],
      [{ responseTimeHours: -1 }, 'responseTimeHours'],
      [{ exponnent: 2 }, 'exponnent'],
      [null, '(root)'],
    ];
    for (const [options, path] of cases) {
      let caught: unknown;
      try {
        new TimeBasedAgent(options as never);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(options)).toBeInstanceOf(InvalidInputError);
      expect((caught as InvalidInputError).issues.map((issue) => issue.path)).toContain(path);
    }
    expect(() => boulware({ exponent: 3 } as never)).toThrow(InvalidInputError);
  });

  it('uses its response time option', async () => {
    const agent = linearConcession({ responseTimeHours: 7.5 });
    expect((await agent.predict({ context: LISTING, history: [], role: 'buyer' })).response_time).toBe(7.5);
  });
});
