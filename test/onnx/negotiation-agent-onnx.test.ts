import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { HaggleAbortError } from '../../src/contract/errors.js';
import { TurnSchema } from '../../src/contract/turn.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { fixtureModel } from './fixture-model.js';
import { randomInputs } from './random-contexts.js';

// Random weights are the hardest customer a constrained decoder can have: every turn must still be valid.
let backend: OnnxBackend;
beforeAll(async () => {
  backend = await OnnxBackend.load(fixtureModel(1));
});
afterAll(async () => {
  await backend?.dispose();
});

describe('NegotiationAgent on the tiny ONNX Qwen3', () => {
  it('returns valid turns for 200 random contexts at temperature 1.0, the same again with the same seeds', {
    timeout: 180_000,
  }, async () => {
    // A token budget keeps CI fast: a random model writes an unbounded label until the decoder's
    // budget steering closes the document, which must still give a valid turn.
    const agent = new NegotiationAgent({ backend, sampling: { temperature: 1.0, seed: 7, maxTokens: 160 } });
    const inputs = randomInputs(200, 42);
    // All at once: the backend batches them (8 rows at a time) with continuous admission.
    const turns = await Promise.all(inputs.map((input, i) => agent.predict(input, { seed: i })));
    for (const turn of turns) expect(TurnSchema.safeParse(turn).success).toBe(true);
    expect(new Set(turns.map((t) => t.action)).size).toBeGreaterThan(1);
    // Again, in a different batch composition (the first 40 only, to stay fast): the same turns.
    const again = await Promise.all(inputs.slice(0, 40).map((input, i) => agent.predict(input, { seed: i })));
    expect(again).toEqual(turns.slice(0, 40));
  });

  it("a seller's guardrail on a $300 listing: sample({ n: 3 }) prices all lie in [240, 300), in cents", {
    timeout: 120_000,
  }, async () => {
    const agent = new NegotiationAgent({
      backend,
      sampling: { temperature: 1.0, maxTokens: 160 },
      guardrails: { seller: { minPrice: 240 } },
    });
    const context = { item: { title: 'Road bike, 56 cm' }, listPrice: 300 };
    const history = [
      {
        role: 'buyer' as const,
        turn: { action: 'offer' as const, price: 200, message_labels: [], message: '', response_time: 1 },
        elapsedHours: 1,
      },
    ];
    for (const seed of [1, 2, 3]) {
      // Used alone: the agent derives the moves from the history (a counter lies in (200, 300)) and
      // meets them with the guardrail; offers only, so every sample carries a price.
      const turns = await agent.sample(
        { context, history, role: 'seller', legalActions: ['offer', 'offer_with_message'] },
        { n: 3, seed },
      );
      expect(turns).toHaveLength(3);
      for (const turn of turns) {
        expect(turn.price).toBeGreaterThanOrEqual(240);
        expect(turn.price).toBeLessThan(300);
        expect(Math.round((turn.price as number) * 100) / 100).toBe(turn.price);
      }
    }
    // The decoder made them legal: no output was asked for again.
    expect(agent.usage.requests).toBe(3);
  });

  it('rejects with the abort error when aborted mid-turn', async () => {
    const agent = new NegotiationAgent({ backend, sampling: { temperature: 1.0, seed: 7, maxTokens: 4096 } });
    const [input] = randomInputs(1, 3);
    if (!input) throw new Error('no input');
    const controller = new AbortController();
    const turn = agent.predict(input, { signal: controller.signal, seed: 1 });
    queueMicrotask(() => controller.abort(new Error('the user closed the tab')));
    const error = await turn.catch((e: unknown) => e);
    expect(HaggleAbortError.isInstance(error)).toBe(true);
  });
});
