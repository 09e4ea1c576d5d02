import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { MAX_MESSAGE_LENGTH } from '../../src/contract/index.js';
import { MAX_LABEL_LENGTH, MAX_RESPONSE_HOURS } from '../../src/contract/turn-rules.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import type { SessionResult } from '../../src/simulation/session-result.js';
import { legalityProblems } from '../helpers/legal-run-checks.js';
import { fixtureModel } from './fixture-model.js';

// The random-weight fixture model on both sides, as `haggle simulate --backend onnx` plays it (seed 1,
// temperature 1.0): before the bounds it wrote labels of 3,000-8,000 characters and response times of
// 33,333-55,555 hours where no offer stood. The decoder now keeps every turn inside the market's bounds.
describe('the decoder writes turns within the bounds from the market (fixture model)', () => {
  let backend: OnnxBackend;
  beforeAll(async () => {
    backend = await OnnxBackend.load(fixtureModel(1));
  }, 120_000);
  afterAll(async () => {
    await backend?.dispose();
  });

  it('3 sessions: no label over 48 characters, no message over 500, no response time past the listing or the offer', {
    timeout: 600_000,
  }, async () => {
    const agent = new NegotiationAgent({ backend, sampling: { temperature: 1.0, maxTokens: 200 } });
    const results: SessionResult[] = [];
    const run = simulate({ buyer: agent, seller: agent, sessions: 3, concurrency: 3, seed: 1 });
    run.on('session-end', ({ result }) => results.push(result));
    const summary = await run.done();
    expect(summary.illegalTurns).toBe(0);
    expect(legalityProblems(results, new BestOfferRules())).toEqual([]);
    const turns = results.flatMap((r) => r.turns.map((t) => t.turn));
    const labels = turns.flatMap((t) => t.message_labels);
    // The model did write labels and times, so the bounds were exercised, not vacuous.
    expect(labels.length).toBeGreaterThan(0);
    expect(Math.max(...labels.map((l) => l.length))).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
    expect(Math.max(...turns.map((t) => t.response_time))).toBeLessThanOrEqual(MAX_RESPONSE_HOURS);
    expect(Math.max(...turns.map((t) => t.message.length))).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    // Every session's clock stays within the listing's 30 days.
    for (const r of results) expect(r.outcome.elapsedHours).toBeLessThanOrEqual(MAX_RESPONSE_HOURS);
  });
});
