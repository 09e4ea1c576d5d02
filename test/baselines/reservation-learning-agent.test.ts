import { describe, expect, it } from 'vitest';
import { estimateReservationPrice } from '../../src/baselines/reservation-estimate.js';
import { ReservationLearningAgent } from '../../src/baselines/reservation-learning-agent.js';
import { conceder, linearConcession } from '../../src/baselines/time-based-agent.js';
import { CLI_AGENT_NAMES, createCliAgent } from '../../src/cli/agent-registry.js';
import { InvalidInputError } from '../../src/contract/errors.js';
import type { Negotiator } from '../../src/contract/negotiator.js';
import { AlternatingOffersRules } from '../../src/rules/alternating-offers-rules.js';
import { Session } from '../../src/simulation/session.js';
import { generateContexts } from '../../src/simulation/synthetic-contexts.js';
import { checkDeterministicContract } from './deterministic-contract.js';
import { LISTING, offer, thread } from './support.js';

describe('estimateReservationPrice', () => {
  it('extrapolates shrinking concessions as a geometric series', () => {
    // A buyer conceding 10, 5, 2.5: its limit is 2.5 more, at 80.
    expect(estimateReservationPrice([60, 70, 75, 77.5], 'buyer')).toBeCloseTo(80, 9);
    // A seller conceding downwards, the same shape.
    expect(estimateReservationPrice([100, 90, 85, 82.5], 'seller')).toBeCloseTo(80, 9);
    // One concession: the ratio is assumed to be a half.
    expect(estimateReservationPrice([60, 70], 'buyer')).toBeCloseTo(80, 9);
  });

  it('says nothing before a concession; a side that stopped moving stands where it is', () => {
    expect(estimateReservationPrice([], 'buyer')).toBeNull();
    expect(estimateReservationPrice([60], 'buyer')).toBeNull();
    expect(estimateReservationPrice([60, 55], 'buyer')).toBeNull(); // moving away is no concession
    expect(estimateReservationPrice([60, 70, 70], 'buyer')).toBe(70);
    // Even concessions do not run off to infinity: the ratio is capped at 0.5 (one more step).
    expect(estimateReservationPrice([60, 70, 80], 'buyer')).toBeCloseTo(90, 9);
  });
});

describe('ReservationLearningAgent', () => {
  it('as a seller stops above the buyer’s estimated budget instead of going down to its own floor', async () => {
    const seller = new ReservationLearningAgent({ reservationRatio: 0.5 });
    // The buyer rose 60 -> 70 -> 75: its budget is estimated at 80; the floor is 50.
    const turn = await seller.predict({
      context: LISTING,
      history: thread(offer(60), offer(98), offer(70), offer(96), offer(75)),
      role: 'seller',
    });
    expect(turn.action).toBe('offer');
    expect(turn.price).toBeGreaterThanOrEqual(80);
    // A buyer that stopped moving will go no further: its offer is taken, though above the floor only.
    const taken = await seller.predict({
      context: LISTING,
      history: thread(offer(60), offer(98), offer(70), offer(96), offer(75), offer(90), offer(75)),
      role: 'seller',
    });
    expect(taken.action).toBe('accept');
  });

  it('as a buyer stops below the seller’s estimated floor instead of going up to its budget', async () => {
    const buyer = new ReservationLearningAgent({ reservationRatio: 1 });
    const turn = await buyer.predict({
      context: LISTING,
      history: thread(offer(50), offer(90), offer(55), offer(85), offer(58), offer(82.5)),
      role: 'buyer',
    });
    expect(turn.action).toBe('offer');
    expect(turn.price).toBeLessThanOrEqual(80);
  });

  it('learning pays under alternating offers: it sells higher and buys lower than the linear curve it extends', async () => {
    // Measured (docs/baseline-agents.md): under Best Offer's three-offer cap it can hold out for where a
    // linear buyer was heading and lose the deal, so the claim is made for alternating offers only.
    const contexts = generateContexts({ count: 40, seed: 46 });
    const mean = async (seller: () => Negotiator, buyer: () => Negotiator) => {
      let total = 0;
      let deals = 0;
      for (const [i, context] of contexts.entries()) {
        const rules = new AlternatingOffersRules();
        const result = await new Session({ context, seller: seller(), buyer: buyer(), seed: i, rules }).run();
        if (result.outcome.status === 'deal') {
          total += (result.outcome.price ?? 0) / context.listPrice;
          deals++;
        }
      }
      return { price: total / Math.max(1, deals), deals };
    };
    const learner = () => new ReservationLearningAgent({ horizon: 6 });
    const linear = () => linearConcession({ horizon: 6 });
    for (const opponent of [() => conceder({ horizon: 6 }), linear]) {
      const learningSeller = await mean(learner, opponent);
      const plainSeller = await mean(linear, opponent);
      expect(learningSeller.deals).toBe(plainSeller.deals);
      expect(learningSeller.price).toBeGreaterThanOrEqual(plainSeller.price);
      const learningBuyer = await mean(opponent, learner);
      const plainBuyer = await mean(opponent, linear);
      expect(learningBuyer.deals).toBe(plainBuyer.deals);
      expect(learningBuyer.price).toBeLessThan(plainBuyer.price);
    }
    expect((await mean(learner, linear)).price).toBeGreaterThan((await mean(linear, linear)).price);
  });

  it('keeps the contract of the deterministic baselines over arbitrary threads', async () => {
    await checkDeterministicContract(
      (r) => new ReservationLearningAgent({ reservationRatio: r, horizon: 8 }),
      400,
      46,
    );
  });

  it('the same seed replays the same session; the CLI builds it by name', async () => {
    expect(CLI_AGENT_NAMES).toContain('reservation-learner');
    const [context] = generateContexts({ count: 1, seed: 7 });
    if (!context) throw new Error('context');
    const play = () =>
      new Session({
        context,
        seller: createCliAgent('reservation-learner'),
        buyer: createCliAgent('population'),
        seed: 11,
      }).run();
    expect(JSON.stringify(await play())).toBe(JSON.stringify(await play()));
  });

  it('rejects bad options with InvalidInputError naming the option', () => {
    for (const [options, path] of [
      [{ exponent: 0 }, 'exponent'],
      [{ horizon: 0.5 }, 'horizon'],
      [{ reservationRatio: 2 }, 'reservationRatio'],
      [{ budget: 3 }, 'budget'],
    ] as const) {
      try {
        new ReservationLearningAgent(options as never);
        expect.unreachable(path);
      } catch (error) {
        expect(InvalidInputError.isInstance(error)).toBe(true);
        expect((error as InvalidInputError).issues.map((i) => i.path)).toContain(path);
      }
    }
  });
});
