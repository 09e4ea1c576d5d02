import { describe, expect, it, vi } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { InvalidInputError, InvalidModelOutputError } from '../../src/contract/errors.js';
import { deriveSeed } from '../../src/internal/random.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import { buyerOpenedAt80, camera, json, messageOnly, offer, offerWithMessage } from './fixtures.js';

const sellerInput = { context: camera, history: buyerOpenedAt80, role: 'seller' as const };

describe('NegotiationAgent.sample', () => {
  it('returns n valid turns from one request for n choices', async () => {
    const turns = [
      offer(110),
      offerWithMessage(100, 'Meet in the middle?'),
      messageOnly('Still interested?'),
    ];
    const mock = new MockLanguageBackend({ responses: turns.map(json) });
    const agent = new NegotiationAgent({ backend: mock });

    expect(await agent.sample(sellerInput, { n: 3, seed: 9 })).toEqual(turns);
    expect(mock.calls).toHaveLength(1);
    expect(mock.calls[0]).toMatchObject({ n: 3, seed: 9 });
  });

  it('re-requests only the missing count, with a derived seed', async () => {
    const mock = new MockLanguageBackend({
      responses: [json(offer(110)), 'garbage', json(offer(60)), json(offer(105)), json(offer(100))],
    });
    const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });

    expect(await agent.sample(sellerInput, { n: 3, seed: 9 })).toEqual([offer(110), offer(105), offer(100)]);
    expect(mock.calls.map((call) => [call.n, call.seed])).toEqual([
      [3, 9],
      [2, deriveSeed(9, 1)],
    ]);
  });

  it('throws with every raw text when the retries cannot fill the count', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(110)), 'bad 1', 'bad 2', 'bad 3'] });
    const agent = new NegotiationAgent({ backend: mock, invalidOutput: { retries: 2 } });

    const error = (await agent
      .sample(sellerInput, { n: 2 })
      .catch((e: unknown) => e)) as InvalidModelOutputError;

    expect(error).toBeInstanceOf(InvalidModelOutputError);
    expect(error.attempts).toBe(3);
    expect(error.rawTexts).toEqual([json(offer(110)), 'bad 1', 'bad 2', 'bad 3']);
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'attempts[0].choices[1]',
      'attempts[1].choices[0]',
      'attempts[2].choices[0]',
    ]);
  });

  it('re-requests choices a backend did not return', async () => {
    let call = 0;
    const backend = {
      specificationVersion: 'v1' as const,
      provider: 'one-at-a-time',
      modelId: 'm',
      doGenerate: async () => ({
        choices: [{ text: json(offer(100 + call++)), finishReason: 'stop' as const }],
        usage: { promptTokens: 0, completionTokens: 0 },
        warnings: [{ type: 'unsupported-setting' as const, setting: 'n' }],
      }),
    };
    const agent = new NegotiationAgent({ backend });
    expect(await agent.sample(sellerInput, { n: 3 })).toEqual([offer(100), offer(101), offer(102)]);
    expect(agent.warnings).toEqual([{ type: 'unsupported-setting', setting: 'n' }]);
  });

  it('requires a positive integer n', async () => {
    const agent = new NegotiationAgent({ backend: new MockLanguageBackend() });
    await expect(agent.sample(sellerInput, { n: 0 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(agent.sample(sellerInput, { n: 1.5 })).rejects.toMatchObject({ issues: [{ path: 'n' }] });
  });
});

describe('NegotiationAgent warnings and description', () => {
  it('collects each distinct backend warning once and tells onWarning', async () => {
    const warnings = [
      { type: 'unsupported-setting' as const, setting: 'topK', details: 'the server ignores top_k' },
      { type: 'fallback' as const, message: 'cuda unavailable, using cpu' },
    ];
    const mock = new MockLanguageBackend({ responses: [json(offer(100)), json(offer(101))], warnings });
    const onWarning = vi.fn();
    const agent = new NegotiationAgent({ backend: mock, onWarning });

    expect(agent.warnings).toEqual([]);
    await agent.predict(sellerInput);
    await agent.predict(sellerInput);

    expect(agent.warnings).toEqual(warnings);
    expect(onWarning.mock.calls).toEqual([[warnings[0]], [warnings[1]]]);
  });

  it('still returns the turn when onWarning throws', async () => {
    const mock = new MockLanguageBackend({
      responses: [json(offer(100))],
      warnings: [{ type: 'other', message: 'x' }],
    });
    const agent = new NegotiationAgent({
      backend: mock,
      onWarning: () => {
        throw new Error('logger down');
      },
    });
    expect(await agent.predict(sellerInput)).toEqual(offer(100));
  });

  it('describes itself as plain data, without credentials', () => {
    const backend = Object.assign(new MockLanguageBackend({ modelId: 'qwen3-4b' }), { apiKey: 'sk-secret' });
    const agent = new NegotiationAgent({
      backend,
      sampling: { seed: 5, topP: 0.95 },
      guardrails: { seller: { minPrice: 40 } },
      invalidOutput: { retries: 1 },
    });
    const description = agent.describe();
    expect(description).toEqual({
      kind: 'llm',
      provider: 'mock',
      modelId: 'qwen3-4b',
      backend: { provider: 'mock', modelId: 'qwen3-4b' },
      profile: 'qwen3-4b-negotiation-50k-ep3',
      template: 'qwen3_nothink',
      templateHash: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
      turnSchemaHash: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
      sampling: { temperature: 1, topP: 0.95, seed: 5 },
      guardrails: { seller: { minPrice: 40 } },
      invalidOutput: { retries: 1 },
    });
    expect(JSON.stringify(description)).not.toContain('sk-secret');
  });
});
