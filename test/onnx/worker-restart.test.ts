import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../src/internal/random.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import type { OnnxWorkerEvent } from '../../src/onnx/worker-supervisor.js';
import { OpenAIServer } from '../../src/server/index.js';
import { fixtureModel } from './fixture-model.js';

// Issue 26: a dead worker is a restarted worker. Before, a worker that ended (its heap limit, a crash)
// left every later request a 502 "the ONNX worker thread has exited" while /health said ok.

let backend: OnnxBackend;
let server: OpenAIServer;
let url: string;
const events: OnnxWorkerEvent[] = [];

beforeAll(async () => {
  backend = await OnnxBackend.load(fixtureModel(1), { onWorkerEvent: (event) => events.push(event) });
  server = new OpenAIServer({ backend });
  url = await server.listen();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await backend?.dispose();
});

async function complete(maxTokens: number, seed: number) {
  const response = await fetch(`${url}/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: backend.modelId, prompt: 'Tell me:', max_tokens: maxTokens, seed }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    json: (await response.json()) as { error: { code: string; message: string } },
  };
}

async function healthStatus(): Promise<{ status: number; body: { status: string } }> {
  const response = await fetch(url.replace(/\/v1$/, '/health'));
  return { status: response.status, body: (await response.json()) as { status: string } };
}

describe('OnnxBackend: a worker that ends is restarted with its model', () => {
  it('requests in flight are given to the new worker, not failed; /health says loading meanwhile', {
    timeout: 180_000,
  }, async () => {
    expect((await complete(4, 1)).status).toBe(200);
    expect(await healthStatus()).toMatchObject({ status: 200, body: { status: 'ok' } });

    // Text from random weights without a schema runs to its max_tokens: these are in flight.
    const inFlight = [complete(600, 2), complete(600, 3), complete(600, 4)];
    await new Promise((resolve) => setTimeout(resolve, 500));
    backend.restartWorker('killed by the test in the middle of requests');
    // The worker is ended between two native runs (native-gate.ts): a moment later.
    for (let i = 0; i < 600 && backend.health().state !== 'restarting'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // The new worker is still loading the model (seconds: it starts a thread and onnxruntime).
    expect(await healthStatus()).toMatchObject({ status: 503, body: { status: 'loading' } });
    expect(backend.health().state).toBe('restarting');
    // Issue 40: a request that comes while the worker restarts waits for it (before: a 503), and the
    // requests the ended worker held are re-queued (before: 503 each).
    const during = complete(8, 5);
    const answers = await Promise.all([...inFlight, during]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);

    let health = await healthStatus();
    for (let i = 0; i < 1200 && health.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = await healthStatus();
    }
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', restarts: 1 } });
    const after = await Promise.all([1, 2, 3, 4, 5].map((seed) => complete(8, seed)));
    expect(after.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);

    // The cause is said once, with the restart, not once per failed request.
    expect(events.map((event) => event.type)).toEqual(['worker-exit', 'worker-ready']);
    expect(events[0]).toMatchObject({ cause: 'killed by the test in the middle of requests' });
  });

  it('a request still running past abortGraceMs after its abort ends the worker, which is restarted', {
    timeout: 180_000,
  }, async () => {
    const seen: OnnxWorkerEvent[] = [];
    // A grace of 0, and a request the worker cannot let go of at once: it tokenizes its whole prompt
    // (40k made-up words, so no tokenizer cache helps: ~200 ms) before it looks at the abort flag
    // again, and the abort comes as the request is posted. This is the path a runaway mask or compile
    // takes. (A long generation is not: the worker sees the flag within one decode step, often before
    // a 0 ms timer fires, which made this test depend on the machine's speed.)
    const strict = await OnnxBackend.load(fixtureModel(1), {
      abortGraceMs: 0,
      onWorkerEvent: (event) => seen.push(event),
    });
    try {
      const controller = new AbortController();
      const long = strict.doGenerate({
        prompt: { messages: [], text: madeUpWords(40_000) },
        maxTokens: 8,
        seed: 1,
        abortSignal: controller.signal,
      });
      // doGenerate posts the request before its first await.
      // Issue 40: a request the worker did not hold (it waits behind the culprit) is not failed when the
      // worker is replaced: it is given to the new worker. Before, it got a 503.
      const innocent = strict.doGenerate({
        prompt: { messages: [{ role: 'user', content: 'Hi' }], text: 'Hi' },
        maxTokens: 4,
        seed: 3,
      });
      controller.abort(new Error('the deadline'));
      // The caller is answered at its abort, whatever the worker is doing.
      await expect(long).rejects.toMatchObject({ code: 'aborted' });
      expect((await innocent).choices).toHaveLength(1);
      for (let i = 0; i < 1200 && !seen.some((event) => event.type === 'worker-ready'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen.map((event) => event.type)).toEqual(['worker-exit', 'worker-ready']);
      expect(seen[0]).toMatchObject({
        cause: expect.stringMatching(/still running \d+ ms after it was aborted/),
      });
      const after = await strict.doGenerate({
        prompt: { messages: [{ role: 'user', content: 'Hi' }], text: 'Hi' },
        maxTokens: 4,
        seed: 2,
      });
      expect(after.choices).toHaveLength(1);
    } finally {
      await strict.dispose();
    }
  });
});

describe('an aborted request inside a long native run', () => {
  it('is let go at the end of the run: the worker is not ended, though the run outlasts abortGraceMs', {
    timeout: 180_000,
  }, async () => {
    const seen: OnnxWorkerEvent[] = [];
    // A grace of 20 ms, and prefill runs of 1,024 tokens: each run writes 1,024 rows of logits over
    // the 151k vocabulary (hundreds of ms). The abort comes while the worker is inside the first run,
    // as a client's deadline does while a real-size model prefills on a CPU. Before, the worker was
    // ended 20 ms later and every other request in flight failed with a 503.
    const patient = await OnnxBackend.load(fixtureModel(1), {
      abortGraceMs: 20,
      prefillTokensPerRun: 1024,
      onWorkerEvent: (event) => seen.push(event),
    });
    // The native gate's reading (native-gate.ts), to time the abort inside a run.
    const progress = () =>
      (
        patient as unknown as { supervisor: { progress(): { inside: boolean; runs: number } } }
      ).supervisor.progress();
    try {
      const runsBefore = progress().runs;
      const controller = new AbortController();
      const long = patient.doGenerate({
        prompt: { messages: [], text: madeUpWords(1_200) },
        maxTokens: 8,
        seed: 1,
        abortSignal: controller.signal,
      });
      long.catch(() => undefined);
      for (let i = 0; i < 6000 && !(progress().inside && progress().runs === runsBefore); i++)
        await new Promise((resolve) => setTimeout(resolve, 1));
      expect(progress()).toEqual({ inside: true, runs: runsBefore });
      controller.abort(new Error('the deadline'));
      await expect(long).rejects.toMatchObject({ code: 'aborted' });
      // The run outlasts the grace several times over, and the worker lets the request go after it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      for (let i = 0; i < 600 && progress().inside; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen).toEqual([]);
      const after = await patient.doGenerate({
        prompt: { messages: [{ role: 'user', content: 'Hi' }], text: 'Hi' },
        maxTokens: 4,
        seed: 2,
      });
      expect(after.choices).toHaveLength(1);
      expect(seen).toEqual([]);
    } finally {
      await patient.dispose();
    }
  });
});

/** `count` lowercase words of 5-12 random letters (seeded: the same text every run). */
function madeUpWords(count: number): string {
  const random = new Random(26);
  const letter = () => String.fromCharCode(97 + random.int(0, 25));
  return Array.from({ length: count }, () => Array.from({ length: random.int(5, 12) }, letter).join('')).join(
    ' ',
  );
}
