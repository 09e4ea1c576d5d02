import { describe, expect, it } from 'vitest';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import { boulware } from '../../src/baselines/time-based-agent.js';
import { TitForTatAgent } from '../../src/baselines/tit-for-tat-agent.js';
import { InvalidInputError } from '../../src/contract/errors.js';
import { AlternatingOffersRules } from '../../src/rules/alternating-offers-rules.js';
import { Session } from '../../src/simulation/session.js';
import { generateContexts } from '../../src/simulation/synthetic-contexts.js';
import { checkDeterministicContract } from './deterministic-contract.js';
import { LISTING, message, offer, thread } from './support.js';

describe('TitForTatAgent: reciprocity', () => {
  it('opens at its aspiration as a buyer and concedes first from the list price as a seller', async () => {
    const agent = new TitForTatAgent({ aspirationRatio: 0.6, reservationRatio: 0.9 });
    expect((await agent.predict({ context: LISTING, history: [], role: 'buyer' })).price).toBe(60);
    const seller = new TitForTatAgent({ initialConcession: 0.05, reservationRatio: 0.7 });
    // The seller's listing (100) is its opening; its first counter concedes the initial 5%.
    expect(
      (await seller.predict({ context: LISTING, history: thread(offer(60)), role: 'seller' })).price,
    ).toBe(95);
  });

  it("returns the other side's relative concession, scaled by its reciprocity", async () => {
    const buyer = new TitForTatAgent({ aspirationRatio: 0.5, reservationRatio: 0.9 });
    // The seller's first counter, 90, concedes 10% of the list price: the buyer raises 50 by 10%.
    expect(
      (await buyer.predict({ context: LISTING, history: thread(offer(50), offer(90)), role: 'buyer' })).price,
    ).toBe(55);
    // The seller then moves 90 -> 81 (10%): the buyer raises 55 by 10%.
    const later = thread(offer(50), offer(90), offer(55), offer(81));
    expect((await buyer.predict({ context: LISTING, history: later, role: 'buyer' })).price).toBe(60.5);
    const half = new TitForTatAgent({ aspirationRatio: 0.5, reservationRatio: 0.9, reciprocity: 0.5 });
    expect((await half.predict({ context: LISTING, history: later, role: 'buyer' })).price).toBe(57.75);
    const seller = new TitForTatAgent({ reservationRatio: 0.6 });
    // The buyer moves 50 -> 60 (20%): the seller lowers 90 by 20%.
    expect(
      (
        await seller.predict({
          context: LISTING,
          history: thread(offer(50), offer(90), offer(60)),
          role: 'seller',
        })
      ).price,
    ).toBe(72);
  });

  it('does not move when the other side did not, nor twice for one concession', async () => {
    const buyer = new TitForTatAgent({ aspirationRatio: 0.5, reservationRatio: 0.9 });
    const stubborn = thread(offer(50), offer(90), offer(55), offer(90));
    expect((await buyer.predict({ context: LISTING, history: stubborn, role: 'buyer' })).price).toBe(55);
    // A seller who backs off (90 -> 95) is not followed backwards.
    const backwards = thread(offer(50), offer(90), offer(55), offer(95));
    expect((await buyer.predict({ context: LISTING, history: backwards, role: 'buyer' })).price).toBe(55);
    // The seller's counter was already answered; after a message, the buyer repeats its price.
    const answered = thread(offer(50), offer(90), offer(55), message());
    expect((await buyer.predict({ context: LISTING, history: answered, role: 'buyer' })).price).toBe(55);
  });

  it('accepts within its acceptance threshold and never beyond its reservation', async () => {
    const buyer = new TitForTatAgent({
      aspirationRatio: 0.5,
      reservationRatio: 0.8,
      acceptanceThreshold: 0.02,
    });
    // The seller moved 72.5 -> 71.5 (1.38%): the buyer's next price is 70 * 1.0138 = 70.97, and 71.5
    // lies within 2% of it.
    const close = thread(offer(50), offer(72.5), offer(70), offer(71.5));
    expect((await buyer.predict({ context: LISTING, history: close, role: 'buyer' })).action).toBe('accept');
    // The seller moved 73 -> 72.5 (0.68%): next price 70.48; 72.5 is 2.9% above it, so counter.
    const apart = thread(offer(50), offer(73), offer(70), offer(72.5));
    expect(await buyer.predict({ context: LISTING, history: apart, role: 'buyer' })).toMatchObject({
      action: 'offer',
      price: 70.48,
    });
    // A generous threshold never takes a price above the budget (80).
    const laxBuyer = new TitForTatAgent({
      aspirationRatio: 0.5,
      reservationRatio: 0.8,
      acceptanceThreshold: 0.5,
    });
    const dear = thread(offer(50), offer(85), offer(75), offer(84));
    expect((await laxBuyer.predict({ context: LISTING, history: dear, role: 'buyer' })).action).toBe('offer');
    const seller = new TitForTatAgent({ reservationRatio: 0.8, acceptanceThreshold: 0.05 });
    // Next price 95 (the initial 5% concession): 91 is within 5% of it and above the floor of 80.
    expect(
      (await seller.predict({ context: LISTING, history: thread(offer(91)), role: 'seller' })).action,
    ).toBe('accept');
    expect(
      (await seller.predict({ context: LISTING, history: thread(offer(89)), role: 'seller' })).action,
    ).toBe('offer');
    // A generous threshold never takes an offer below the floor.
    const lax = new TitForTatAgent({ reservationRatio: 0.8, acceptanceThreshold: 0.5 });
    expect((await lax.predict({ context: LISTING, history: thread(offer(79)), role: 'seller' })).action).toBe(
      'offer',
    );
  });

  it('keeps the contract over arbitrary threads and legal subsets', async () => {
    await checkDeterministicContract((r) => new TitForTatAgent({ reservationRatio: r }), 500, 31);
    await checkDeterministicContract(
      (r, list) =>
        new TitForTatAgent({ reservationPrice: r * list, reciprocity: 2, acceptanceThreshold: 0.1 }),
      300,
      32,
    );
  });

  it('plays whole sessions legally against other baselines', async () => {
    const contexts = generateContexts({ count: 40, seed: 8 });
    const opponents = [new PopulationAgent(), boulware({ horizon: 6 }), new TitForTatAgent()];
    const agent = new TitForTatAgent({ reservationRatio: 0.8 });
    for (const [i, context] of contexts.entries()) {
      const opponent = opponents[i % opponents.length];
      if (!opponent) throw new Error('opponents');
      const rules = i % 2 === 0 ? new AlternatingOffersRules() : undefined;
      const asBuyer = i % 4 < 2;
      const result = await new Session({
        context,
        buyer: asBuyer ? agent : opponent,
        seller: asBuyer ? opponent : agent,
        seed: i,
        ...(rules ? { rules } : {}),
      }).run();
      expect(result.outcome.reason).not.toBe('illegal-turn');
      if (result.outcome.status === 'deal') {
        const price = result.outcome.price ?? 0;
        if (asBuyer) expect(price).toBeLessThanOrEqual(0.8 * context.listPrice + 0.005);
        else expect(price).toBeGreaterThanOrEqual(0.8 * context.listPrice - 0.005);
      }
    }
  });
});

describe('TitForTatAgent: options and description', () => {
  it('describes itself as plain data', () => {
    expect(new TitForTatAgent({ reservationPrice: 80 }).describe()).toEqual({
      kind: 'tit-for-tat',
      reciprocity: 1,
      initialConcession: 0.05,
      acceptanceThreshold: 0.02,
      reservationPrice: 80,
      responseTimeHours: 2,
    });
  });

  it('rejects bad options with InvalidInputError naming the option', () => {
    const cases: [unknown, string][] = [
      [{ reciprocity: -1 }, 'reciprocity'],
      [{ reciprocity: Number.NaN }, 'reciprocity'],
      [{ initialConcession: 1 }, 'initialConcession'],
      [{ acceptanceThreshold: -0.1 }, 'acceptanceThreshold'],
      [{ reservationRatio: 0 }, 'reservationRatio'],
      [{ reservationPrice: Number.POSITIVE_INFINITY }, 'reservationPrice'],
      [{ horizon: 5 }, 'horizon'],
      ['generous', '(root)'],
    ];
    for (const [options, path] of cases) {
      let caught: unknown;
      try {
        new TitForTatAgent(options as never);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(options)).toBeInstanceOf(InvalidInputError);
      expect((caught as InvalidInputError).issues.map((issue) => issue.path)).toContain(path);
    }
  });
});
