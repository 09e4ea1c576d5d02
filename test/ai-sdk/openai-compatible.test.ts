import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { fromLanguageModel } from '../../src/ai-sdk/index.js';
import type { BackendWarning } from '../../src/backends/language-backend.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import type { SessionResult } from '../../src/simulation/session-result.js';
import { legalityProblems } from '../helpers/legal-run-checks.js';
import { serveFixtureModel } from './serve-helper.js';

// The done-means with the real @ai-sdk/openai-compatible package against a real `haggle serve`
// of the fixture ONNX model on loopback: no network, no key.
const SESSIONS = Number(process.env.HAGGLE_AI_SDK_SESSIONS ?? 50);

describe('@ai-sdk/openai-compatible against haggle serve (fixture model)', () => {
  const served = serveFixtureModel();

  // haggle serve takes `json_schema` and `stream_options.include_usage`: the package sends each only
  // when told the server takes it.
  const model = () =>
    createOpenAICompatible({
      name: 'haggle-serve',
      baseURL: served().url,
      supportsStructuredOutputs: true,
      includeUsage: true,
    }).chatModel(served().model);

  it(`fromLanguageModel plays ${SESSIONS} sessions, NegotiationAgent on both sides: 0 illegal turns`, {
    timeout: 600_000,
  }, async () => {
    const warnings: BackendWarning[] = [];
    const agent = new NegotiationAgent({
      backend: fromLanguageModel(model()),
      sampling: { temperature: 1.0, maxTokens: 160 },
      onWarning: (warning) => warnings.push(warning),
    });
    const results: SessionResult[] = [];
    const run = simulate({ buyer: agent, seller: agent, sessions: SESSIONS, concurrency: 8, seed: 12 });
    run.on('session-end', ({ result }) => results.push(result));
    const summary = await run.done();
    expect(summary.sessions).toBe(SESSIONS);
    expect(summary.errors).toBe(0);
    expect(results).toHaveLength(SESSIONS);
    expect(legalityProblems(results, new BestOfferRules())).toEqual([]);
    const offers = results.flatMap((r) => r.turns).filter((t) => t.turn.price !== null);
    expect(new Set(offers.map((t) => t.role))).toEqual(new Set(['buyer', 'seller']));
    // The schema went through the JSON-schema mode and the server enforced it: no re-asks, no step-down.
    expect(agent.usage.requests).toBe(results.reduce((sum, r) => sum + r.turns.length, 0));
    expect(warnings.some((w) => 'message' in w && /JSON-schema mode/.test(w.message))).toBe(true);
    expect(warnings.some((w) => 'message' in w && /tool/.test(w.message))).toBe(false);
  });

  it('streamText from ai reads the server stream chunk by chunk', { timeout: 120_000 }, async () => {
    const result = streamText({
      model: model(),
      prompt: 'Describe the item for sale.',
      maxOutputTokens: 48,
      seed: 3,
    });
    const chunks: string[] = [];
    for await (const delta of result.textStream) chunks.push(delta);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(await result.text);
    expect(await result.finishReason).toBe('length');
    expect((await result.usage).outputTokens).toBe(48);
  });
});
