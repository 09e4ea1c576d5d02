import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { OpenAICompatibleBackend } from '../../src/backends/openai/openai-compatible-backend.js';
import { runCli } from '../../src/cli/main.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import type { SessionResult } from '../../src/simulation/session-result.js';
import { captureIo } from '../helpers/capture-io.js';
import { legalityProblems } from '../helpers/legal-run-checks.js';
import { fixtureModel } from './fixture-model.js';

// The LLM path made legal by construction, end to end: NegotiationAgent on both sides at temperature
// 1.0, the random-weight fixture model writing every turn, through the local backend and through
// `haggle serve` + OpenAICompatibleBackend. CI plays 24 sessions each; the closing figures of 200 come
// from `HAGGLE_LEGAL_SESSIONS=200 npx vitest run test/onnx/llm-sessions-legal.test.ts`.
const SESSIONS = Number(process.env.HAGGLE_LEGAL_SESSIONS ?? 24);

async function play(agent: NegotiationAgent): Promise<SessionResult[]> {
  const results: SessionResult[] = [];
  const run = simulate({ buyer: agent, seller: agent, sessions: SESSIONS, concurrency: 8, seed: 11 });
  run.on('session-end', ({ result }) => results.push(result));
  const summary = await run.done();
  expect(summary.sessions).toBe(SESSIONS);
  return results;
}

function expectLegal(results: SessionResult[]): void {
  expect(legalityProblems(results, new BestOfferRules())).toEqual([]);
  // The check saw real negotiations: offers on both sides and some sessions that ended in a deal.
  const offers = results.flatMap((r) => r.turns).filter((t) => t.turn.price !== null);
  expect(new Set(offers.map((t) => t.role))).toEqual(new Set(['buyer', 'seller']));
  const reasons = new Map<string, number>();
  for (const r of results) reasons.set(r.outcome.reason, (reasons.get(r.outcome.reason) ?? 0) + 1);
  console.log(
    JSON.stringify({
      sessions: results.length,
      offers: offers.length,
      outcomes: Object.fromEntries(reasons),
    }),
  );
  // Sessions end in more than one way: the model's choices, not one repeated failure, end them.
  expect(reasons.size).toBeGreaterThan(1);
}

describe('LLM sessions are legal by construction (fixture model, temperature 1.0)', () => {
  let local: OnnxBackend;
  beforeAll(async () => {
    local = await OnnxBackend.load(fixtureModel(1));
  });
  afterAll(async () => {
    await local?.dispose();
  });

  it(`${SESSIONS} sessions through the local OnnxBackend: no illegal turn, every price in its interval`, {
    timeout: 600_000,
  }, async () => {
    const agent = new NegotiationAgent({ backend: local, sampling: { temperature: 1.0, maxTokens: 160 } });
    expectLegal(await play(agent));
  });

  it(`${SESSIONS} sessions through haggle serve and OpenAICompatibleBackend`, {
    timeout: 600_000,
  }, async () => {
    const controller = new AbortController();
    const io = captureIo();
    const serving = runCli(
      ['serve', '--backend', 'onnx', '--model', fixtureModel(1), '--port', '0'],
      io,
      controller.signal,
    );
    try {
      const { url, model } = await waitForServer(io);
      // The default dialect (vllm) sends the schema, bounds and grid included; haggle serve enforces it.
      const remote = new OpenAICompatibleBackend({ baseURL: url, model, endpoint: 'completions' });
      const agent = new NegotiationAgent({ backend: remote, sampling: { temperature: 1.0, maxTokens: 160 } });
      const results = await play(agent);
      expectLegal(results);
      // The server enforced the schema: one request per recorded turn, not one re-ask.
      expect(agent.usage.requests).toBe(results.reduce((sum, r) => sum + r.turns.length, 0));
    } finally {
      controller.abort();
      expect(await serving).toBe(0);
    }
  });
});

async function waitForServer(io: ReturnType<typeof captureIo>): Promise<{ url: string; model: string }> {
  for (let i = 0; i < 600; i++) {
    const match = /model "([^"]+)" at (http:\/\/\S+)/.exec(io.out());
    if (match?.[1] && match[2]) return { model: match[1], url: match[2] };
    if (io.err()) throw new Error(`haggle serve failed: ${io.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('haggle serve did not start');
}
