import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { validatePredictInput } from '../../src/agent/predict-input.js';
import { movesForTurn, standingOpponentOffer } from '../../src/agent/turn-moves.js';
import { InvalidInputError, InvalidModelOutputError } from '../../src/contract/errors.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import {
  bare,
  buyerOpenedAt80,
  camera,
  entry,
  json,
  messageOnly,
  offer,
  offerWithMessage,
} from './fixtures.js';
import { priceSchemaOf, schemaActions } from './schema-helpers.js';

const sellerInput = { context: camera, history: buyerOpenedAt80, role: 'seller' as const };

describe('NegotiationAgent guardrails', () => {
  it('never returns a seller offer below minPrice: it asks again', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(60)), json(offer(95))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });

    expect(await agent.predict(sellerInput, { seed: 1 })).toEqual(offer(95));
    expect(mock.calls).toHaveLength(2);
    expect(mock.calls[0]?.seed).not.toBe(mock.calls[1]?.seed);
    // The rules' interval (above the buyer's 80, below the list price 120, in cents) meets the floor.
    expect(priceSchemaOf(mock.calls[0], 'offer')).toEqual({
      type: 'number',
      minimum: 90,
      exclusiveMaximum: 120,
      multipleOf: 0.01,
    });
  });

  it('throws rather than return an offer outside the guardrails', async () => {
    const low = json(offerWithMessage(50, 'Best I can do', ['declare_cost_limit_seller_firm']));
    const mock = new MockLanguageBackend({ responses: [low, low, low] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });

    const error = (await agent.predict(sellerInput).catch((e: unknown) => e)) as InvalidModelOutputError;

    expect(error).toBeInstanceOf(InvalidModelOutputError);
    expect(error.attempts).toBe(3);
    expect(error.issues).toContainEqual({
      path: 'attempts[2].price',
      message: "50 is outside the seller's legal prices [90, 120) in steps of 0.01 (rules and guardrails)",
    });
  });

  it('never returns a buyer offer above maxPrice', async () => {
    const history = [entry('buyer', offer(70), 0), entry('seller', offer(115), 4)];
    const mock = new MockLanguageBackend({ responses: [json(offer(110)), json(offer(100))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { buyer: { maxPrice: 100 } } });

    expect(await agent.predict({ context: camera, history, role: 'buyer' })).toEqual(offer(100));
    expect(mock.calls).toHaveLength(2);
    expect(priceSchemaOf(mock.calls[0], 'offer_with_message')).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 100,
      multipleOf: 0.01,
    });
  });

  it("ignores the other role's guardrails", async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(100))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { buyer: { maxPrice: 90 } } });
    expect(await agent.predict(sellerInput)).toEqual(offer(100));
  });

  it('removes accept from the schema when the standing offer breaks the guardrails', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(100))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });

    await agent.predict({ ...sellerInput, legalActions: ['offer', 'accept', 'decline', 'message_only'] });

    expect(schemaActions(mock.calls[0])).toEqual(['offer', 'decline', 'message_only']);
  });

  it('keeps accept when the standing offer is inside the guardrails', async () => {
    const mock = new MockLanguageBackend({ responses: [json(bare('accept'))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 75 } } });

    expect(await agent.predict(sellerInput)).toEqual(bare('accept'));
    expect(schemaActions(mock.calls[0])).toContain('accept');
  });

  it('rejects an accept of a standing offer outside the guardrails even if the backend ignores the schema', async () => {
    const mock = new MockLanguageBackend({ responses: [json(bare('accept')), json(bare('decline'))] });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });
    expect(await agent.predict(sellerInput)).toEqual(bare('decline'));
  });

  it('judges accept by the latest offer of the other side', async () => {
    const history = [
      entry('buyer', offer(95), 0),
      entry('seller', offer(115), 2),
      entry('buyer', offer(85), 5),
      entry('seller', messageOnly('Can you do better?'), 6),
    ];
    expect(standingOpponentOffer(history, 'seller')).toBe(85);
    expect(standingOpponentOffer(history, 'buyer')).toBe(115);
    expect(standingOpponentOffer([], 'buyer')).toBeNull();
    // Each side asked where the rules give it the move: the seller after the buyer's 85, the buyer
    // after the seller's message.
    const actionsFor = (role: 'buyer' | 'seller', guardrails: object) =>
      movesForTurn(
        validatePredictInput({
          context: camera,
          history: role === 'seller' ? history.slice(0, 3) : history,
          role,
        }),
        new BestOfferRules(),
        guardrails,
      ).map((move) => move.action);
    expect(actionsFor('seller', { seller: { minPrice: 90 } })).not.toContain('accept');
    // The buyer's counter of 85 voided the seller's 115: nothing of the seller's stands to accept.
    expect(actionsFor('buyer', { buyer: { maxPrice: 120 } })).not.toContain('accept');
    const sellerCounterStands = history.slice(0, 2);
    const buyerActions = (maxPrice: number) =>
      movesForTurn(
        validatePredictInput({ context: camera, history: sellerCounterStands, role: 'buyer' }),
        new BestOfferRules(),
        { buyer: { maxPrice } },
      ).map((move) => move.action);
    expect(buyerActions(120)).toContain('accept');
    expect(buyerActions(110)).not.toContain('accept');
  });

  it('says so when accept was the only legal action and the guardrails forbid it', async () => {
    const mock = new MockLanguageBackend();
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });
    const error = await agent.predict({ ...sellerInput, legalActions: ['accept'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).issues[0]?.path).toBe('legalActions');
    expect(mock.calls).toHaveLength(0);
  });
});
