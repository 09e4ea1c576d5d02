import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type GenerateOptions,
  HaggleError,
  type LanguageBackend,
  NegotiationAgent,
  OpenAICompatibleBackend,
  type SessionResult,
  simulate,
  TurnSchema,
} from '../../../src/index.js';
import { FAULTS, type FaultServer, startFaultServer } from './fault-server.js';
import { API_KEY } from './support.js';

const SESSIONS = 300;
const MAX_RETRIES = 3;

describe('a 300-session simulation through the remote backend, one request in three faulty', () => {
  let server: FaultServer;
  beforeAll(async () => {
    // Every third request fails, cycling through every kind of fault.
    server = await startFaultServer({
      plan: (index) => (index % 3 === 2 ? (FAULTS[Math.floor(index / 3) % FAULTS.length] ?? '500') : 'ok'),
    });
  });
  afterAll(() => server.close());

  it('finishes every session with valid turns or a typed error, with bounded retries', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);

    const remote = new OpenAICompatibleBackend({
      baseURL: server.url,
      model: 'qwen3-4b-negotiation',
      apiKey: API_KEY,
      // Generous for a loaded CI machine: a hang costs one timeout, and only one request in 21 hangs.
      timeoutMs: 1_000,
      totalTimeoutMs: 20_000,
      retry: { maxRetries: MAX_RETRIES, initialDelayMs: 1, maxDelayMs: 4 },
    });
    // Counts logical calls, to bound the HTTP requests they may make.
    let calls = 0;
    const backend: LanguageBackend = {
      specificationVersion: 'v1',
      provider: remote.provider,
      modelId: remote.modelId,
      doGenerate: (options: GenerateOptions) => {
        calls++;
        return remote.doGenerate(options);
      },
    };
    const agent = new NegotiationAgent({ backend, invalidOutput: { retries: 2 } });
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-faults-')), 'run.jsonl');
    const results: SessionResult[] = [];
    const run = simulate({ buyer: agent, seller: agent, sessions: SESSIONS, concurrency: 16, seed: 5, out });
    run.on('session-end', ({ result }) => {
      results.push(result);
    });
    const summary = await run.done();
    process.off('unhandledRejection', onUnhandled);

    expect(summary.sessions).toBe(SESSIONS);
    expect(results).toHaveLength(SESSIONS);
    expect(new Set(results.map((result) => result.sessionId)).size).toBe(SESSIONS);
    const typedErrors = new Set([
      'InternalServerError',
      'RateLimitError',
      'RemoteTimeoutError',
      'RemoteConnectionError',
      'InvalidResponseError',
      'InvalidModelOutputError',
    ]);
    let failed = 0;
    for (const result of results) {
      for (const turn of result.turns) expect(() => TurnSchema.parse(turn.turn)).not.toThrow();
      if (result.outcome.reason === 'error') {
        failed++;
        expect(typedErrors).toContain(result.error?.name);
      } else {
        expect(['accepted', 'declined', 'no-response', 'expired', 'turn-cap']).toContain(
          result.outcome.reason,
        );
        expect(result.error).toBeUndefined();
      }
    }
    // Faults were really injected and really survived.
    const faulty = server.requests.filter((request) => request.fault !== 'ok').length;
    expect(faulty).toBeGreaterThan(SESSIONS / 2);
    expect(failed).toBeLessThan(SESSIONS / 10);
    expect(summary.dealRate).toBeGreaterThan(0.9);
    // Bounded: no logical call made more than 1 + maxRetries HTTP requests.
    expect(server.requests.length).toBeLessThanOrEqual(calls * (MAX_RETRIES + 1));
    expect(unhandled).toEqual([]);
    // The key never reaches the run file, even though the fault server echoes it in its 500s.
    const file = readFileSync(out, 'utf8');
    expect(file.trim().split('\n')).toHaveLength(SESSIONS + 1);
    expect(file).not.toContain(API_KEY);
    expect(HaggleError.isInstance(new Error())).toBe(false);
  });
});
