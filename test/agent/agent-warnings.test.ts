import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import type { BackendWarning } from '../../src/backends/language-backend.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import { fixtureModel } from '../onnx/fixture-model.js';
import { buyerOpenedAt80, camera, json, offer } from './fixtures.js';

const sellerInput = { context: camera, history: buyerOpenedAt80, role: 'seller' as const };

describe('agent warnings name only what the user chose', () => {
  let backend: OnnxBackend;
  beforeAll(async () => {
    backend = await OnnxBackend.load(fixtureModel(1));
  }, 120_000);
  afterAll(async () => {
    await backend?.dispose();
  });

  it('a default agent on the local ONNX backend records no warning about the stop strings it set itself', {
    timeout: 120_000,
  }, async () => {
    const seen: BackendWarning[] = [];
    const agent = new NegotiationAgent({
      backend,
      sampling: { seed: 7, maxTokens: 96 },
      onWarning: (warning) => seen.push(warning),
    });
    await agent.predict(sellerInput);
    // Before: [{ type: 'unsupported-setting', setting: 'stop', details: 'ignored under a JSON schema' }]
    // on every agent, though no user ever passes stop to one.
    expect(agent.warnings).toEqual([]);
    expect(seen).toEqual([]);
  });
});

describe('agent warnings from any backend', () => {
  it("drops a backend's warning about stop and keeps the ones about the user's settings", async () => {
    const topK: BackendWarning = { type: 'unsupported-setting', setting: 'topK', details: 'no top_k' };
    const stop: BackendWarning = { type: 'unsupported-setting', setting: 'stop', details: 'ignored' };
    const fallback: BackendWarning = { type: 'fallback', message: 'chat was used' };
    const mock = new MockLanguageBackend({ responses: [json(offer(100))], warnings: [stop, topK, fallback] });
    const agent = new NegotiationAgent({ backend: mock, sampling: { topK: 20 } });
    await agent.predict(sellerInput);
    expect(agent.warnings).toEqual([topK, fallback]);
  });
});
