import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { Session } from '../../src/simulation/session.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import { bare, camera, json, offer, offerWithMessage } from './fixtures.js';

describe('NegotiationAgent in a Session', () => {
  it('plays both sides from one scripted mock, with the legal actions and seeds the session hands over', async () => {
    const mock = new MockLanguageBackend({
      responses: [json(offer(80)), json(offerWithMessage(100, 'Meet me at 100?')), json(bare('accept'))],
    });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });
    const session = new Session({ context: camera, buyer: agent, seller: agent, seed: 5 });

    const result = await session.run();

    expect(result.outcome).toMatchObject({ status: 'deal', reason: 'accepted', price: 100, turns: 3 });
    expect(result.negotiators.buyer).toMatchObject({ kind: 'llm', provider: 'mock' });
    expect(mock.calls).toHaveLength(3);
    // The buyer opens: nothing to accept yet, so the session leaves accept out and so does the schema.
    expect(JSON.stringify(mock.calls[0]?.responseFormat)).not.toContain('"const":"accept"');
    // The seller faces 80 with a floor of 90: accept is legal by the rules but removed by the guardrails.
    expect(JSON.stringify(mock.calls[1]?.responseFormat)).not.toContain('"const":"accept"');
    expect(JSON.stringify(mock.calls[2]?.responseFormat)).toContain('"const":"accept"');
    expect(new Set(mock.calls.map((call) => call.seed)).size).toBe(3);
  });
});
