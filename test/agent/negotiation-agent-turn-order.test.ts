import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { NotYourTurnError } from '../../src/contract/errors.js';
import { Session } from '../../src/simulation/session.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import { bare, buyerOpenedAt80, camera, entry, json, messageOnly, offer } from './fixtures.js';

// Each backend below holds a valid answer, so a wrong-side call that reached it would succeed: the
// errors prove the check ran first, and `calls` that it ran before any request.
describe('NegotiationAgent: whose turn it is', () => {
  it("predict for the buyer after the buyer's own offer: NotYourTurnError naming the seller, no backend call", async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(90))] });
    const agent = new NegotiationAgent({ backend: mock });

    const error = await agent
      .predict({ context: camera, history: buyerOpenedAt80, role: 'buyer' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotYourTurnError);
    expect(error).toMatchObject({ role: 'buyer', nextRole: 'seller', code: 'invalid-input' });
    expect((error as Error).message).toContain(
      `it is the seller's turn under the best-offer rules (the last turn, history[0], is the buyer's offer of 80)`,
    );
    expect(mock.calls).toHaveLength(0);
  });

  it('sample for the seller before the buyer opened: refused the same way', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(110)), json(offer(111))] });
    const agent = new NegotiationAgent({ backend: mock });
    const error = await agent.sample({ context: camera, role: 'seller' }, { n: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'NotYourTurnError', role: 'seller', nextRole: 'buyer' });
    expect(mock.calls).toHaveLength(0);
  });

  it('a thread that ended with an accept has no next turn for either side', async () => {
    const mock = new MockLanguageBackend({
      responses: [json(messageOnly('Thanks!')), json(messageOnly('Hi'))],
    });
    const agent = new NegotiationAgent({ backend: mock });
    const history = [...buyerOpenedAt80, entry('seller', bare('accept'), 2)];
    for (const role of ['buyer', 'seller'] as const) {
      const error = await agent.predict({ context: camera, history, role }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'NotYourTurnError', role, nextRole: null });
      expect((error as Error).message).toContain('already ended here (accepted)');
    }
    expect(mock.calls).toHaveLength(0);
  });

  it('the right side still gets its turn', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(100))] });
    const agent = new NegotiationAgent({ backend: mock });
    expect(await agent.predict({ context: camera, history: buyerOpenedAt80, role: 'seller' })).toEqual(
      offer(100),
    );
  });

  it('a Session of two agents never trips the check: it asks whoever its rules name', async () => {
    // A Session asks `rules.nextRole` and passes that side's legalMoves, which the agent takes as
    // given (no replay); every turn here, messages and an accept included, goes to the side it names.
    const buyer = new NegotiationAgent({
      backend: new MockLanguageBackend({
        responses: [json(offer(80)), json(offer(95)), json(messageOnly('Deal?'))],
      }),
    });
    const seller = new NegotiationAgent({
      backend: new MockLanguageBackend({
        responses: [json(offer(110)), json(messageOnly('Let me think')), json(bare('accept'))],
      }),
    });
    const result = await new Session({ context: camera, buyer, seller, seed: 1 }).run();
    expect(result.turns.map((t) => `${t.role}:${t.turn.action}`)).toEqual([
      'buyer:offer',
      'seller:offer',
      'buyer:offer',
      'seller:message_only',
      'buyer:message_only',
      'seller:accept',
    ]);
    expect(result.outcome).toMatchObject({ status: 'deal', price: 95 });
  });
});
