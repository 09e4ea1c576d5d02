import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  chatBody,
  postJson,
  type ServeChild,
  spawnServe,
} from '../../scripts/abuse/serve-child.js';
import { fixtureModel } from '../onnx/fixture-model.js';
import { DATA_CEILING } from './ceiling-cli.js';

// Issue 40: no schema holds the model worker past its budget. `haggle serve --backend onnx` as a user
// runs it (a child process over the fixture model, under `prlimit --data` and a kill timer), on loopback.
// Before: the 90-byte uniqueItems schema kept the model worker 40-104 s in the completion search (every
// other request waited, the attacker got a 502; with a deadline the worker was killed and the requests
// it held failed), and schemas were vetted one at a time, so 13 slow ones from one client made every
// other client's new schema wait minutes.

const COMPILE_BUDGET_MS = 2_500;
let server: ServeChild;

beforeAll(async () => {
  server = await spawnServe({
    model: fixtureModel(1),
    args: ['--request-timeout', '60000', '--compile-budget', String(COMPILE_BUDGET_MS)],
    dataLimitBytes: 2 * DATA_CEILING,
    killAfterMs: 400_000,
  });
  // The first request builds the tokenizer's tables: not part of any measure.
  expect((await plain()).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

/** A plain request: text, no schema, 48 tokens of the fixture model. */
function plain(): Promise<Answer> {
  return postJson(
    `${server.url}/completions`,
    { model: server.model, prompt: 'The buyer offers 40 USD. Reply:', max_tokens: 48, seed: 1 },
    120_000,
  );
}

/** A chat request under `schema` from `localAddress` (another loopback address is another client). */
function chatFrom(localAddress: string, schema: unknown): Promise<Answer> {
  const text = JSON.stringify(chatBody(server.model, schema));
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      `${server.url}/chat/completions`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        timeout: 180_000,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            contentType: String(res.headers['content-type'] ?? ''),
            text: body,
          }),
        );
      },
    );
    req.on('error', (error) =>
      resolve({ status: 0, ms: performance.now() - started, contentType: '', text: String(error) }),
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end(text);
  });
}

describe('haggle serve: no schema holds the model worker past its budget (a child process under prlimit)', () => {
  it('the uniqueItems/minItems 20,000 schema is a 4xx within 5 s; a plain request in flight is answered within 3 s of its time alone', async () => {
    const alone = await plain();
    expect(alone.status).toBe(200);
    const inFlight = plain();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const hostile = await chatFrom('127.0.0.1', {
      type: 'array',
      items: { type: 'string' },
      uniqueItems: true,
      minItems: 20_000,
    });
    expect(hostile.status, hostile.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(hostile.status).toBeLessThan(500);
    expect(hostile.ms).toBeLessThan(5_000);
    expect(JSON.parse(hostile.text)).toMatchObject({
      error: { code: 'schema-limit', param: 'response_format' },
    });
    expect(hostile.text).toContain('unique items');
    const beside = await inFlight;
    expect(beside.status).toBe(200);
    expect(beside.ms).toBeLessThan(alone.ms + 3_000);
    // Sent again, it is refused from memory (its hash), as fast.
    const again = await chatFrom('127.0.0.1', {
      type: 'array',
      items: { type: 'string' },
      uniqueItems: true,
      minItems: 20_000,
    });
    expect(again.status).toBe(400);
    expect(again.ms).toBeLessThan(5_000);
    expect(server.alive()).toBe(true);
  }, 120_000);

  it("13 slow schemas from one client do not delay another client's new trivial schema past 3 s", async () => {
    // A new trivial schema alone first (vetted, compiled by the model's worker, 24 tokens): the baseline.
    const aloneAnswer = await chatFrom('127.0.0.2', {
      type: 'object',
      properties: { a: { type: 'boolean' } },
      required: ['a'],
    });
    expect(aloneAnswer.status).toBe(200);
    // Each slow schema compiles through the whole budget, then is refused; k makes each one new.
    const slow = Array.from({ length: 13 }, (_, k) =>
      chatFrom('127.0.0.1', {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 20_000 }, (_, i) => [
            `k${k}_${i}`,
            { type: 'string', pattern: `^a{${i % 50}}$` },
          ]),
        ),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const trivial = await chatFrom('127.0.0.2', {
      type: 'object',
      properties: { b: { type: 'boolean' } },
      required: ['b'],
    });
    expect(trivial.status, trivial.text.slice(0, 300)).toBe(200);
    // Behind 13 compiles of 2.5 s it would wait over 30 s.
    expect(trivial.ms).toBeLessThan(aloneAnswer.ms + 3_000);
    const answers = await Promise.all(slow);
    for (const answer of answers) expect([400, 504], answer.text.slice(0, 200)).toContain(answer.status);
    expect(server.alive()).toBe(true);
  }, 240_000);
});
