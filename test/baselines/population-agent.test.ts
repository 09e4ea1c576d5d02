import { describe, expect, it } from 'vitest';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import {
  DEFAULT_POPULATION_PARAMETERS,
  POPULATION_PARAMETER_TABLE,
} from '../../src/baselines/population-parameters.js';
import type { Action } from '../../src/contract/action.js';
import { InvalidInputError } from '../../src/contract/errors.js';
import { CARD_EXAMPLE_LABELS } from '../../src/contract/model-profile.js';
import type { PredictInput } from '../../src/contract/negotiator.js';
import { TurnSchema } from '../../src/contract/turn.js';
import { deriveSeed, Random } from '../../src/internal/random.js';
import { AlternatingOffersRules } from '../../src/rules/alternating-offers-rules.js';
import { Session } from '../../src/simulation/session.js';
import { generateContexts } from '../../src/simulation/synthetic-contexts.js';
import { LISTING, message, offer, randomHistory, randomLegalActions, recording, thread } from './support.js';

const agent = new PopulationAgent();
const ALL_ACTIONS: Action[] = [
  'offer',
  'offer_with_message',
  'accept',
  'decline',
  'message_only',
  'no_response',
];

describe('PopulationAgent: decisions', () => {
  it('is deterministic for a seed and varies across seeds', async () => {
    const input: PredictInput = { context: LISTING, history: [], role: 'buyer' };
    const a = await agent.predict(input, { seed: 42 });
    const b = await agent.predict(input, { seed: 42 });
    expect(b).toEqual(a);
    const prices = new Set<number | null>();
    for (let seed = 0; seed < 50; seed++) prices.add((await agent.predict(input, { seed })).price);
    expect(prices.size).toBeGreaterThan(5);
    // No seed means seed 0.
    expect(await agent.predict(input)).toEqual(await agent.predict(input, { seed: 0 }));
  });

  it('opens as a buyer with an offer below list, often at a focal fraction, rarely with a card label', async () => {
    const openings = 2000;
    let focal = 0;
    let withMessage = 0;
    for (let seed = 0; seed < openings; seed++) {
      const turn = await agent.predict(
        {
          context: LISTING,
          history: [],
          role: 'buyer',
          legalActions: ['offer', 'offer_with_message', 'message_only'],
        },
        { seed },
      );
      expect(['offer', 'offer_with_message']).toContain(turn.action);
      expect(turn.price).toBeGreaterThan(0);
      expect(turn.price).toBeLessThan(100);
      if ([50, 66.67, 75].includes(turn.price ?? -1)) focal++;
      if (turn.action === 'offer_with_message') {
        withMessage++;
        expect(turn.message.length).toBeGreaterThan(0);
        for (const label of turn.message_labels)
          expect(CARD_EXAMPLE_LABELS as readonly string[]).toContain(label);
      }
    }
    expect(focal / openings).toBeGreaterThan(0.35);
    // buyerOpeningMessageProbability is 1.5%: part of the card's 3% of sessions with a message.
    expect(withMessage / openings).toBeGreaterThan(0.005);
    expect(withMessage / openings).toBeLessThan(0.03);
  });

  it('as a seller accepts a near-list offer far more often than a lowball, and counters between offer and list', async () => {
    const counts = async (price: number) => {
      const tally: Record<string, number> = {};
      for (let seed = 0; seed < 300; seed++) {
        const turn = await agent.predict(
          {
            context: LISTING,
            history: thread(offer(price)),
            role: 'seller',
            legalActions: ALL_ACTIONS,
          },
          { seed },
        );
        tally[turn.action] = (tally[turn.action] ?? 0) + 1;
        if (turn.price !== null) {
          expect(turn.price).toBeGreaterThan(price);
          expect(turn.price).toBeLessThanOrEqual(100);
        }
      }
      return tally;
    };
    const high = await counts(92);
    const low = await counts(40);
    expect(high.accept ?? 0).toBeGreaterThan(200);
    expect(low.accept ?? 0).toBeLessThan(10);
    expect((low.decline ?? 0) + (low.no_response ?? 0)).toBeGreaterThan(100);
    expect((low.offer ?? 0) + (low.offer_with_message ?? 0)).toBeGreaterThan(30);
  });

  it('as a buyer accepts a counter more often the closer it is to their last offer', async () => {
    const acceptances = async (counter: number) => {
      let n = 0;
      for (let seed = 0; seed < 300; seed++) {
        const turn = await agent.predict(
          { context: LISTING, history: thread(offer(70), offer(counter)), role: 'buyer' },
          { seed },
        );
        if (turn.action === 'accept') n++;
      }
      return n;
    };
    const near = await acceptances(72);
    const far = await acceptances(95);
    expect(near).toBeGreaterThan(far + 100);
  });

  it('splits the difference: later offers lie between the two last positions, often at the midpoint', async () => {
    let midpoint = 0;
    let counters = 0;
    for (let seed = 0; seed < 400; seed++) {
      const turn = await agent.predict(
        { context: LISTING, history: thread(offer(60), offer(80)), role: 'buyer' },
        { seed },
      );
      if (turn.price === null) continue;
      counters++;
      expect(turn.price).toBeGreaterThan(60);
      expect(turn.price).toBeLessThan(80);
      if (turn.price === 70) midpoint++;
    }
    expect(counters).toBeGreaterThan(50);
    expect(midpoint / counters).toBeGreaterThan(0.3);
  });

  it('as a seller never counters twice without a buyer offer in between', async () => {
    for (let seed = 0; seed < 300; seed++) {
      const turn = await agent.predict(
        { context: LISTING, history: thread(offer(60), offer(85), message()), role: 'seller' },
        { seed },
      );
      expect(['message_only', 'no_response']).toContain(turn.action);
    }
  });

  it('draws response times in hours with a tail beyond 48 h', async () => {
    const times: number[] = [];
    for (let seed = 0; seed < 2000; seed++) {
      times.push(
        (await agent.predict({ context: LISTING, history: thread(offer(70)), role: 'seller' }, { seed }))
          .response_time,
      );
    }
    expect(Math.min(...times)).toBeGreaterThanOrEqual(0);
    const late = times.filter((t) => t > 48).length / times.length;
    expect(late).toBeGreaterThan(0.01);
    expect(late).toBeLessThan(0.1);
  });
});

describe('PopulationAgent: contract over arbitrary threads', () => {
  it('returns a valid turn with a legal action for any history, legal subset, role and seed', async () => {
    const random = new Random(7);
    for (let i = 0; i < 1500; i++) {
      const listPrice = random.bernoulli(0.1) ? 0.5 : Math.round(random.uniform(5, 2000) * 100) / 100;
      const context = { ...LISTING, listPrice };
      const legalActions = randomLegalActions(random);
      const role = random.bernoulli(0.5) ? 'buyer' : 'seller';
      const input: PredictInput = {
        context,
        history: randomHistory(random, listPrice),
        role,
        ...(legalActions ? { legalActions } : {}),
      };
      const turn = await agent.predict(input, { seed: deriveSeed(7, i) });
      expect(TurnSchema.safeParse(turn).success, JSON.stringify(turn)).toBe(true);
      if (legalActions) expect(legalActions).toContain(turn.action);
      if (turn.price !== null) {
        expect(turn.price).toBeLessThanOrEqual(listPrice);
        expect(Math.round(turn.price * 100) / 100).toBe(turn.price);
      }
      if (turn.action !== 'offer_with_message' && turn.action !== 'message_only') {
        expect(turn.message).toBe('');
        expect(turn.message_labels).toEqual([]);
      }
    }
  });

  it('plays whole sessions under Best Offer and alternating-offers rules without a single illegal turn', async () => {
    const contexts = generateContexts({ count: 300, seed: 3 });
    for (const [index, context] of contexts.entries()) {
      const rules = index % 3 === 0 ? new AlternatingOffersRules() : undefined;
      const result = await new Session({
        context,
        buyer: agent,
        seller: agent,
        seed: index,
        ...(rules ? { rules } : {}),
      }).run();
      expect(result.outcome.reason).not.toBe('illegal-turn');
      expect(result.outcome.reason).not.toBe('error');
      const buyerOffers = result.turns.filter((t) => t.role === 'buyer' && t.turn.price !== null).length;
      if (!rules) expect(buyerOffers).toBeLessThanOrEqual(3);
      for (const t of result.turns) {
        if (t.role === 'seller' && t.turn.price !== null)
          expect(t.turn.price).toBeLessThanOrEqual(context.listPrice);
      }
    }
  });

  it('reads the buyer offer cap from the legal actions: it never offers when offering is not legal', async () => {
    const calls: PredictInput[] = [];
    const buyer = recording(agent, calls);
    const contexts = generateContexts({ count: 200, seed: 9 });
    for (const [i, context] of contexts.entries()) {
      await new Session({ context, buyer, seller: agent, seed: i }).run();
    }
    // Replay each recorded buyer decision under many seeds.
    const capped = calls.filter((input) => !input.legalActions?.includes('offer'));
    for (const input of capped) {
      for (let seed = 0; seed < 20; seed++) {
        const turn = await agent.predict(input, { seed });
        expect(turn.price).toBeNull();
        expect(input.legalActions).toContain(turn.action);
      }
    }
    expect(calls.length).toBeGreaterThan(200);
  });

  it('gives the same session for the same seed and different sessions for different seeds', async () => {
    const [context] = generateContexts({ count: 1, seed: 5 });
    if (!context) throw new Error('no context');
    const play = (seed: number) => new Session({ context, buyer: agent, seller: agent, seed }).run();
    expect((await play(1)).turns).toEqual((await play(1)).turns);
    const distinct = new Set<string>();
    for (let seed = 0; seed < 20; seed++) distinct.add(JSON.stringify((await play(seed)).turns));
    expect(distinct.size).toBeGreaterThan(10);
  });

  it('can be aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      agent.predict({ context: LISTING, history: [], role: 'buyer' }, { signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('PopulationAgent: options and description', () => {
  it('describes itself as plain data with every parameter', () => {
    const description = agent.describe();
    expect(description.kind).toBe('population');
    expect(JSON.parse(JSON.stringify(description))).toEqual(description);
    for (const name of Object.keys(POPULATION_PARAMETER_TABLE))
      expect(description[name]).toBeTypeOf('number');
  });

  it('applies overrides and leaves the rest at the table values', () => {
    const custom = new PopulationAgent({ parameters: { sellerIgnoreProbability: 0.5 } });
    expect(custom.parameters.sellerIgnoreProbability).toBe(0.5);
    expect(custom.parameters.buyerCounterProbability).toBe(
      DEFAULT_POPULATION_PARAMETERS.buyerCounterProbability,
    );
  });

  it('changes behaviour with its parameters', async () => {
    const silent = new PopulationAgent({ parameters: { sellerIgnoreProbability: 1 } });
    for (let seed = 0; seed < 20; seed++) {
      const turn = await silent.predict(
        { context: LISTING, history: thread(offer(60)), role: 'seller' },
        { seed },
      );
      expect(turn.action).toBe('no_response');
    }
  });

  it('rejects unknown, out-of-range and inconsistent options with InvalidInputError', () => {
    const bad: unknown[] = [
      null,
      { parameters: { sellerIgnoreProbability: 1.5 } },
      { parameters: { sellerIgnoreProbability: Number.NaN } },
      { parameters: { noSuchParameter: 1 } },
      { parameters: { firstOfferHalfWeight: 0.6, firstOfferTwoThirdsWeight: 0.6 } },
      { parameters: { concessionShareMin: 0.8, concessionShareMax: 0.2 } },
      { parameters: { firstOfferRemainderMin: 0.9, firstOfferRemainderMax: 0.5 } },
      { parameters: 'fast' },
      { seed: 3 },
    ];
    for (const options of bad) {
      expect(() => new PopulationAgent(options as never), JSON.stringify(options)).toThrow(InvalidInputError);
    }
    // The error is caught and then checked, so a constructor that throws nothing fails here too.
    let error: unknown;
    try {
      new PopulationAgent({ parameters: { sellerIgnoreProbability: 2 } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).issues[0]?.path).toBe('parameters.sellerIgnoreProbability');
    expect((error as Error).message).toMatch(/from 0 to 1/);
  });

  it('rejects a predict input it cannot work with', async () => {
    await expect(
      agent.predict({ context: { ...LISTING, listPrice: 0 }, history: [], role: 'buyer' }),
    ).rejects.toThrow(InvalidInputError);
    await expect(agent.predict({ context: LISTING, history: [], role: 'broker' as never })).rejects.toThrow(
      InvalidInputError,
    );
    await expect(
      agent.predict({ context: LISTING, history: [], role: 'buyer', legalActions: [] }),
    ).rejects.toThrow(InvalidInputError);
  });
});

describe('PopulationAgent: narrow legal sets', () => {
  it('keeps its offer when only the other priced action is legal', async () => {
    for (let seed = 0; seed < 50; seed++) {
      const onlyPlain = await agent.predict(
        { context: LISTING, history: [], role: 'buyer', legalActions: ['offer'] },
        { seed },
      );
      expect(onlyPlain.action).toBe('offer');
      const onlyWithMessage = await agent.predict(
        {
          context: LISTING,
          history: [],
          role: 'buyer',
          legalActions: ['offer_with_message', 'message_only'],
        },
        { seed },
      );
      expect(onlyWithMessage.action).toBe('offer_with_message');
      expect(onlyWithMessage.price).toBe(onlyPlain.price);
    }
  });
});
