import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { InvalidInputError, UnsatisfiableGuardrailsError } from '../../src/contract/errors.js';
import { AlternatingOffersRules } from '../../src/rules/alternating-offers-rules.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { Session } from '../../src/simulation/session.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import { bare, buyerOpenedAt80, camera, entry, json, offer } from './fixtures.js';
import { schemaActions } from './schema-helpers.js';

// The camera lists at 120: a Best Offer seller counters strictly below that, and accepts a buyer's
// offer, which is below it too. A floor at or above 120 leaves the seller no price at all.
const sellerInput = { context: camera, history: buyerOpenedAt80, role: 'seller' as const };

describe('guardrails that no legal price can satisfy', () => {
  it.each([130, 120, 119.995])(
    'a seller floor of %s on a 120 listing: UnsatisfiableGuardrailsError, not a decline, no backend call',
    async (minPrice) => {
      // Before: the schema kept only decline, message_only and no_response, and this decline came back.
      const mock = new MockLanguageBackend({ responses: [json(bare('decline'))] });
      const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice } } });

      const error = await agent.predict(sellerInput).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(UnsatisfiableGuardrailsError);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({ role: 'seller', bounds: { minPrice }, code: 'invalid-input' });
      expect((error as Error).message).toContain(
        `the seller's guardrails (minPrice ${minPrice}) leave it no price to offer or accept: the best-offer rules allow offers in (80, 120) in steps of 0.01 and accepting 80`,
      );
      expect((error as Error).message).toContain('set seller.minPrice at or below 119.99');
      expect(mock.calls).toHaveLength(0);
    },
  );

  it('a floor one cent below the list price still leaves one counter', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(119.99))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 119.99 } } });
    expect(await agent.predict(sellerInput)).toEqual(offer(119.99));
  });

  it('under alternating offers the same floor is fine: those rules bound no counter by the list price', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(150))] });
    const agent = new NegotiationAgent({
      backend: mock,
      rules: new AlternatingOffersRules(),
      guardrails: { seller: { minPrice: 130 } },
    });
    expect(await agent.predict(sellerInput)).toEqual(offer(150));
  });

  it("a buyer's budget below the seller's last counter, with no offer left: declining is the answer, no error", async () => {
    const history = [
      entry('buyer', offer(70), 0),
      entry('seller', offer(115), 1),
      entry('buyer', offer(80), 2),
      entry('seller', offer(112), 3),
      entry('buyer', offer(90), 4),
      entry('seller', offer(110), 5),
    ];
    const mock = new MockLanguageBackend({ responses: [json(bare('decline'))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { buyer: { maxPrice: 100 } } });
    // Three offers made (the cap): the rules allow accept, the budget removes it.
    expect(await agent.predict({ context: camera, history, role: 'buyer' })).toEqual(bare('decline'));
    expect(schemaActions(mock.calls[0])).toEqual(['decline', 'message_only', 'no_response']);
  });

  it('in a Session the conflict ends the session in error, counted as one, not as a no-deal', async () => {
    const buyer = new NegotiationAgent({
      backend: new MockLanguageBackend({ responses: [json(offer(80))] }),
    });
    const seller = new NegotiationAgent({
      backend: new MockLanguageBackend({ responses: [json(bare('decline'))] }),
      guardrails: { seller: { minPrice: 150 } },
    });
    const session = new Session({ context: camera, buyer, seller, seed: 1, rules: new BestOfferRules() });
    await expect(session.run()).rejects.toBeInstanceOf(UnsatisfiableGuardrailsError);
    expect(session.result?.outcome.reason).toBe('error');
    expect(session.result?.error?.message).toContain('the legalMoves passed allow offers in (80, 120)');
  });
});
