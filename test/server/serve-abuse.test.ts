import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAICompatibleBackend } from '../../src/backends/openai/openai-compatible-backend.js';
import { runCli } from '../../src/cli/main.js';
import { HaggleError } from '../../src/contract/errors.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { captureIo } from '../helpers/capture-io.js';
import { fixtureModel } from '../onnx/fixture-model.js';

// `haggle serve --backend onnx` as an attacker meets it, on loopback, against the real fixture model
// (its config.json: a context of 40,960 tokens). Every reproduction of issue 17 gets a 4xx (or the
// documented 504) in OpenAI's error shape, and the server answers a normal request afterwards.
// No assertion here is about speed: only statuses, shapes, counts and the order requests end in.

/** About 3.5 characters a token with the Qwen3 tokenizer. */
const PHRASE = 'hello world, the price is 42 dollars. ';
const textOfTokens = (tokens: number) => PHRASE.repeat(Math.ceil((tokens * 3.6) / PHRASE.length));

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, each asserted
type Json = Record<string, any>;

interface Served {
  url: string;
  model: string;
  /** Stops the server; its stderr must hold exactly `logged` lines (the 5xx answers it logs). */
  stop: (logged?: RegExp[]) => Promise<void>;
}

async function serve(extra: string[] = []): Promise<Served> {
  const controller = new AbortController();
  const io = captureIo();
  const args = ['serve', '--backend', 'onnx', '--model', fixtureModel(1), '--port', '0', ...extra];
  const exit = runCli(args, io, controller.signal);
  for (let i = 0; i < 600; i++) {
    const match = /model "([^"]+)" at (http:\/\/\S+)/.exec(io.out());
    if (match?.[1] && match[2]) {
      return {
        model: match[1],
        url: match[2],
        stop: async (logged = []) => {
          controller.abort();
          expect(await exit).toBe(0);
          const lines = io.err() === '' ? [] : io.err().trimEnd().split('\n');
          expect(lines).toHaveLength(logged.length);
          for (const [i, line] of lines.entries()) expect(line).toMatch(logged[i] as RegExp);
        },
      };
    }
    if (io.err()) throw new Error(`haggle serve failed: ${io.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('haggle serve did not start');
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: JSON.parse(text) as Json,
  };
}

/** OpenAI's error shape: `{ error: { message, type, param, code } }`, nothing else. */
function expectOpenAIError(json: Json, code: string): void {
  expect(Object.keys(json)).toEqual(['error']);
  expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(json.error.code).toBe(code);
  expect(typeof json.error.message).toBe('string');
}

async function expectServing(served: Served): Promise<void> {
  const answer = await post(`${served.url}/completions`, {
    model: served.model,
    prompt: 'The price is',
    max_tokens: 4,
    seed: 1,
  });
  expect(answer.status).toBe(200);
  expect(answer.json.choices).toHaveLength(1);
}

describe('haggle serve --backend onnx under abuse (fixture model, context 40,960)', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(['--max-tokens', '24']);
  }, 60_000);
  afterAll(async () => {
    await served?.stop();
  });

  it('refuses a prompt over the context with a 400 that says the count and the limit', {
    timeout: 120_000,
  }, async () => {
    for (const tokens of [45_000, 600_000]) {
      const answer = await post(`${served.url}/completions`, {
        model: served.model,
        prompt: textOfTokens(tokens),
        max_tokens: 4,
      });
      expect(answer.status).toBe(400);
      expectOpenAIError(answer.json, 'context_length_exceeded');
      expect(answer.json.error.type).toBe('invalid_request_error');
      const counted = Number(/has (?:at least )?(\d+) tokens/.exec(answer.json.error.message)?.[1]);
      expect(counted).toBeGreaterThanOrEqual(40_960);
      expect(answer.json.error.message).toMatch(/context is 40960 tokens/);
    }
    // Through the chat endpoint too (the template adds its tokens to the user's).
    const chat = await post(`${served.url}/chat/completions`, {
      model: served.model,
      messages: [{ role: 'user', content: textOfTokens(45_000) }],
    });
    expect(chat.status).toBe(400);
    expectOpenAIError(chat.json, 'context_length_exceeded');
    await expectServing(served);
  });

  it('caps max_tokens=1e9 with n=16 at the --max-tokens ceiling and says so', {
    timeout: 120_000,
  }, async () => {
    const answer = await post(`${served.url}/completions`, {
      model: served.model,
      prompt: 'Say a price:',
      max_tokens: 1e9,
      n: 16,
      seed: 3,
    });
    expect(answer.status).toBe(200);
    expect(answer.json.choices).toHaveLength(16);
    expect(answer.json.usage.completion_tokens).toBeLessThanOrEqual(16 * 24);
    // Random weights rarely end a text early: most choices ran into the ceiling.
    expect(answer.json.choices.some((c: { finish_reason: string }) => c.finish_reason === 'length')).toBe(
      true,
    );
    expect(answer.headers.get('x-haggle-warnings') ?? '').toMatch(/capped to 24/);
  });

  it('answers every client mistake with a 4xx in OpenAI error shape', { timeout: 120_000 }, async () => {
    const root = served.url.replace(/\/v1$/, '');
    const badPath = await fetch(`${root}/v1/models/%ZZ`);
    expect(badPath.status).toBe(400);
    expectOpenAIError((await badPath.json()) as Json, 'invalid_path');

    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 3000; i++) deep = { type: 'array', items: deep };
    const nested = await post(`${served.url}/chat/completions`, {
      model: served.model,
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'deep', schema: deep } },
    });
    expect(nested.status).toBe(400);
    expectOpenAIError(nested.json, 'too_deep');

    const unsupported = await post(`${served.url}/completions`, {
      model: served.model,
      prompt: 'hi',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'x', schema: { type: 'string', pattern: '(?=a)b' } },
      },
    });
    expect(unsupported.status).toBe(400);
    expectOpenAIError(unsupported.json, 'unsupported-schema');
    expect(unsupported.json.error.param).toBe('response_format');

    const unsatisfiable = await post(`${served.url}/completions`, {
      model: served.model,
      prompt: 'hi',
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { enum: [] } } },
    });
    expect(unsatisfiable.status).toBe(400);
    expectOpenAIError(unsatisfiable.json, 'unsatisfiable-schema');

    const empty = await post(`${served.url}/completions`, { model: served.model, prompt: '' });
    expect(empty.status).toBe(400);
    expectOpenAIError(empty.json, 'invalid_request');
    expect(empty.json.error.param).toBe('prompt');

    // A 4xx stops haggle's own client from sending the request again (it retries 5xx).
    const client = new OpenAICompatibleBackend({
      baseURL: served.url,
      model: served.model,
      endpoint: 'completions',
    });
    let caught: unknown;
    try {
      await client.doGenerate({
        prompt: { messages: [{ role: 'user', content: 'hi' }] },
        responseFormat: { type: 'json', schema: { type: 'string', pattern: '(?=a)b' } },
      });
    } catch (error) {
      caught = error;
    }
    expect(HaggleError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ status: 400, attempts: 1 });
    await expectServing(served);
  });

  it('serves short requests while a 12k-token prompt is prefilled: they finish before it', {
    timeout: 300_000,
  }, async () => {
    const ended: string[] = [];
    const long = post(`${served.url}/completions`, {
      model: served.model,
      prompt: textOfTokens(12_000),
      max_tokens: 1,
      seed: 5,
    }).then((answer) => {
      ended.push('long');
      return answer;
    });
    // Let the long prompt be tokenized and its prefill start before the short ones arrive.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const shorts = Array.from({ length: 4 }, (_, i) =>
      post(`${served.url}/completions`, {
        model: served.model,
        prompt: `Offer ${i}:`,
        max_tokens: 4,
        seed: i,
      }).then((answer) => {
        ended.push(`short-${i}`);
        return answer;
      }),
    );
    const answers = await Promise.all([long, ...shorts]);
    for (const answer of answers) expect(answer.status).toBe(200);
    // Over 2,048 tokens: the long lane (bench/serve.ts measures 30k; 12k keeps this test short).
    expect((await long).json.usage.prompt_tokens).toBeGreaterThan(11_000);
    // The lanes take turns: the short ones (a chunk and a few steps each) end long before the long
    // one's dozens of chunks do, so the long request ends last.
    expect(ended.at(-1)).toBe('long');
  });
});

describe('haggle serve: deadline and bounded queue', () => {
  it('aborts a request past --request-timeout (504) and refuses one over --max-queue (429, Retry-After)', {
    timeout: 120_000,
  }, async () => {
    const served = await serve(['--request-timeout', '1500', '--max-queue', '2', '--max-tokens', '40000']);
    let warmups = 0;
    try {
      // Warm the model up, so the first load does not eat the deadline of the requests below; on a
      // loaded machine the first request can outlast 1.5 s itself (a 504, logged), so it may take a few.
      for (; warmups < 20; warmups++) {
        const warm = await post(`${served.url}/completions`, {
          model: served.model,
          prompt: 'Hi',
          max_tokens: 2,
        });
        if (warm.status === 200) break;
        expect(warm.status).toBe(504);
      }
      // Text without a schema from random weights: it runs until its max_tokens (thousands of steps).
      const endless = () =>
        post(`${served.url}/completions`, {
          model: served.model,
          prompt: 'Tell me:',
          max_tokens: 30_000,
          seed: 9,
        });
      const held = [endless(), endless()];
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = await post(`${served.url}/completions`, {
        model: served.model,
        prompt: 'hi',
        max_tokens: 2,
      });
      expect(refused.status).toBe(429);
      expectOpenAIError(refused.json, 'queue_full');
      expect(refused.json.error.type).toBe('rate_limit_error');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      for (const answer of await Promise.all(held)) {
        expect(answer.status).toBe(504);
        expectOpenAIError(answer.json, 'request_timeout');
      }
      // The deadline freed both slots and stopped the model's work: a new request is served.
      await expectServing(served);
      // A streamed request's deadline: a 504 in JSON while no SSE byte has gone (issue 26), and once
      // text has streamed (issue 30: chunks go out as the model writes them) an OpenAI-style error
      // event ends the stream, without [DONE], so no client takes the cut text for a whole answer.
      const response = await fetch(`${served.url}/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: served.model, prompt: 'Tell me:', max_tokens: 30_000, stream: true }),
      });
      const body = await response.text();
      if (response.status === 504) {
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expectOpenAIError(JSON.parse(body) as Json, 'request_timeout');
      } else {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const events = body.trim().split('\n\n');
        expect(events.length).toBeGreaterThan(1);
        expect(body).not.toContain('[DONE]');
        const last = events.at(-1) ?? '';
        expect(last.startsWith('data: ')).toBe(true);
        expectOpenAIError(JSON.parse(last.slice('data: '.length)) as Json, 'request_timeout');
      }
    } finally {
      // Each 504 is logged on stderr with its cause; the 429 is the client's to handle and is not.
      const timedOut = /^haggle serve: 504 POST \/v1\/completions: HttpError: .*timeout of 1500 ms/;
      await served.stop([...Array(warmups).fill(timedOut), timedOut, timedOut, timedOut]);
    }
  });

  it('refuses a schema nested too deep for the compiler even when the depth check is off (400, not a crash)', {
    timeout: 60_000,
  }, async () => {
    const backend = await OnnxBackend.load(fixtureModel(1));
    const server = new OpenAIServer({ backend, limits: { maxJsonDepth: 1_000_000 } });
    try {
      const url = await server.listen();
      // Written as text: JSON.stringify of it would itself overflow this thread's stack.
      const depth = 3000;
      const schema = `${'{"type":"object","required":["a"],"properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
      const answer = await post(
        `${url}/completions`,
        `{"model":${JSON.stringify(backend.modelId)},"prompt":"hi","response_format":{"type":"json_schema","json_schema":{"name":"deep","schema":${schema}}}}`,
      );
      expect(answer.status).toBe(400);
      expectOpenAIError(answer.json, 'unsupported-schema');
    } finally {
      await server.close();
      await backend.dispose();
    }
  });
});
