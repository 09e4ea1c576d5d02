import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  HaggleAbortError,
  InternalServerError,
  InvalidModelOutputError,
  InvalidResponseError,
  NegotiationAgent,
  NotFoundError,
  OpenAICompatibleBackend,
  RateLimitError,
  RemoteBackendError,
  RemoteConnectionError,
  RemoteTimeoutError,
  TurnSchema,
} from '../../../src/index.js';
import { CONTEXT } from '../../helpers/fixtures.js';
import { type Fault, type FaultServer, startFaultServer } from './fault-server.js';
import { API_KEY, FAST, turnRequest } from './support.js';

const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(plan: (index: number) => Fault, options: { gate?: () => Promise<void> } = {}) {
  const server = await startFaultServer({ plan, ...options });
  servers.push(server);
  return server;
}

/** The faults to answer with, in order; `ok` after the list runs out. */
const sequence =
  (...faults: Fault[]) =>
  (index: number): Fault =>
    faults[index] ?? 'ok';

function backendFor(url: string | string[], extra: Record<string, unknown> = {}) {
  const logs: string[] = [];
  const backend = new OpenAICompatibleBackend({
    baseURL: url,
    model: 'qwen3-4b-negotiation',
    apiKey: API_KEY,
    timeoutMs: 300,
    logger: { warn: (message) => logs.push(message) },
    ...FAST,
    ...extra,
  });
  return { backend, logs };
}

async function failure(promise: Promise<unknown>): Promise<RemoteBackendError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RemoteBackendError);
  return error as RemoteBackendError;
}

describe('OpenAICompatibleBackend under faults', () => {
  it('retries 500, reset, broken JSON and a truncated body, then returns the turn', async () => {
    const server = await serve(sequence('500', 'reset', 'broken-json', 'truncated'));
    const { backend, logs } = backendFor(server.url);
    const result = await backend.doGenerate(turnRequest());
    expect(server.requests).toHaveLength(5);
    expect(TurnSchema.parse(JSON.parse(result.choices[0]?.text ?? ''))).toMatchObject({ action: 'accept' });
    expect(result.usage).toEqual({ promptTokens: 10, completionTokens: 20, cachedPromptTokens: 4 });
    expect(logs).toHaveLength(4);
    expect(logs[0]).toMatch(/attempt 1 failed \(HTTP 500/);
    expect(logs[1]).toMatch(/connection failed/);
    expect(logs[2]).toMatch(/not JSON/);
    // Every attempt sent the key in the header, and no log line holds it.
    expect(server.requests.every((request) => request.authorization === `Bearer ${API_KEY}`)).toBe(true);
    expect(logs.join('\n')).not.toContain(API_KEY);
  });

  it('runs the same way over fetch when one is given', async () => {
    const server = await serve(sequence('500', 'reset', 'truncated', 'broken-json'));
    const { backend, logs } = backendFor(server.url, { fetch: globalThis.fetch });
    const result = await backend.doGenerate(turnRequest());
    expect(server.requests).toHaveLength(5);
    expect(result.choices).toHaveLength(1);
    expect(
      logs.map((line) => /failed \((HTTP \d+|connection failed|the response is not JSON)/.exec(line)?.[1]),
    ).toEqual(['HTTP 500', 'connection failed', 'connection failed', 'the response is not JSON']);
  });

  it('shares one caller signal across many concurrent calls without piling listeners on it', async () => {
    const server = await serve(() => 'ok');
    const { backend } = backendFor(server.url);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const controller = new AbortController();
    await Promise.all(
      Array.from({ length: 24 }, () => backend.doGenerate(turnRequest({ abortSignal: controller.signal }))),
    );
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('honours retry-after on 429 instead of its own backoff', async () => {
    const server = await startFaultServer({ plan: sequence('429'), retryAfterMs: 40 });
    servers.push(server);
    const { backend, logs } = backendFor(server.url, { retry: { initialDelayMs: 1000, maxDelayMs: 1000 } });
    await backend.doGenerate(turnRequest());
    expect(server.requests).toHaveLength(2);
    expect(logs[0]).toMatch(/HTTP 429.*retrying in 40 ms/);
  });

  it('a retry-after beyond maxRetryAfterMs fails at once with a RateLimitError', async () => {
    const server = await startFaultServer({ plan: () => '429', retryAfterSeconds: 3600 });
    servers.push(server);
    const { backend } = backendFor(server.url);
    const error = await failure(backend.doGenerate(turnRequest()));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.status).toBe(429);
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(/maxRetryAfterMs/);
  });

  it('gives up after maxRetries with an error naming replica, status and attempts, the key redacted', async () => {
    const server = await serve(() => '500');
    const { backend } = backendFor(server.url, {
      retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 },
    });
    const error = await failure(backend.doGenerate(turnRequest()));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({
      status: 500,
      attempts: 3,
      retryable: true,
      replica: server.url,
      kind: 'status',
    });
    expect(error.message).toContain(server.url);
    expect(error.message).toMatch(/after 3 attempt\(s\): HTTP 500/);
    // The fault server echoes the Authorization header in its body.
    expect(error.responseBody).toContain('[redacted]');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(API_KEY);
    expect(String(error.stack)).not.toContain(API_KEY);
  });

  it('does not retry a 404 or a 401', async () => {
    const server = await serve(() => '404');
    const { backend } = backendFor(server.url);
    const error = await failure(backend.doGenerate(turnRequest()));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(new AuthenticationError({ ...error, message: 'x', status: 401, kind: 'status' })).toBeInstanceOf(
      RemoteBackendError,
    );
  });

  it('a hanging server hits the attempt timeout, is retried, and times out typed', async () => {
    const server = await serve(() => 'hang');
    const { backend } = backendFor(server.url, {
      timeoutMs: 50,
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await failure(backend.doGenerate(turnRequest()));
    expect(error).toBeInstanceOf(RemoteTimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('the total timeout bounds the whole call, retries included', async () => {
    const server = await serve(() => 'hang');
    const { backend } = backendFor(server.url, { timeoutMs: 60, totalTimeoutMs: 150 });
    const error = await failure(backend.doGenerate(turnRequest()));
    expect(error).toBeInstanceOf(RemoteTimeoutError);
    // 150 ms of total time leaves room for two or three 60 ms attempts, never the five allowed.
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('broken JSON on every attempt ends in an InvalidResponseError', async () => {
    const server = await serve(() => 'broken-json');
    const { backend } = backendFor(server.url, {
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
    });
    expect(await failure(backend.doGenerate(turnRequest()))).toBeInstanceOf(InvalidResponseError);
  });

  it('resets on every attempt end in a RemoteConnectionError', async () => {
    const server = await serve(() => 'reset');
    const { backend } = backendFor(server.url, {
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await failure(backend.doGenerate(turnRequest()));
    expect(error).toBeInstanceOf(RemoteConnectionError);
    expect(error.attempts).toBe(2);
  });

  it('the AbortSignal cancels the HTTP request in flight', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serve(() => 'ok', { gate: () => held });
    const { backend } = backendFor(server.url, { timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = backend.doGenerate(turnRequest({ abortSignal: controller.signal }));
    for (let i = 0; i < 200 && server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('user left'));
    await expect(call).rejects.toBeInstanceOf(HaggleAbortError);
    for (let i = 0; i < 200 && !server.requests[0]?.aborted; i++) await new Promise((r) => setTimeout(r, 5));
    expect(server.requests[0]?.aborted).toBe(true);
    expect(server.requests).toHaveLength(1);
    release();
  });

  it('strips a think block and a fence around the JSON answer', async () => {
    const server = await serve(() => 'wrapped');
    const { backend } = backendFor(server.url);
    const { choices } = await backend.doGenerate(turnRequest());
    expect(() => TurnSchema.parse(JSON.parse(choices[0]?.text ?? ''))).not.toThrow();
  });
});

describe('a turn that breaks the contract', () => {
  const input = { context: CONTEXT, history: [], role: 'buyer' as const, legalActions: ['offer' as const] };

  it('is re-asked by the agent, with a new seed, and the valid answer is used', async () => {
    const server = await serve(sequence('bad-turn'));
    const { backend } = backendFor(server.url);
    const agent = new NegotiationAgent({ backend });
    const turn = await agent.predict(input, { seed: 5 });
    expect(turn).toMatchObject({ action: 'offer', price: 50 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.body.seed).toBe(5);
    expect(server.requests[1]?.body.seed).not.toBe(5);
  });

  it('ends, after the agent retries, in InvalidModelOutputError with the raw text', async () => {
    const server = await serve(() => 'bad-turn');
    const { backend } = backendFor(server.url);
    const agent = new NegotiationAgent({ backend, invalidOutput: { retries: 1 } });
    const error = await agent.predict(input).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidModelOutputError);
    expect((error as InvalidModelOutputError).attempts).toBe(2);
    expect((error as InvalidModelOutputError).rawText).toContain('"price":-5');
    expect(server.requests).toHaveLength(2);
  });
});

describe('replicas and concurrency', () => {
  it('a failing replica is avoided on retry; the other answers', async () => {
    const sick = await serve(() => '500');
    const healthy = await serve(() => 'ok');
    const { backend } = backendFor([sick.url, healthy.url]);
    for (let i = 0; i < 4; i++) await backend.doGenerate(turnRequest());
    expect(healthy.requests).toHaveLength(4);
    // Each call tries the sick replica at most once before moving on.
    expect(sick.requests.length).toBeLessThanOrEqual(4);
  });

  it('spreads requests across equal replicas', async () => {
    const a = await serve(() => 'ok');
    const b = await serve(() => 'ok');
    const { backend } = backendFor([a.url, b.url]);
    for (let i = 0; i < 6; i++) await backend.doGenerate(turnRequest());
    expect(a.requests).toHaveLength(3);
    expect(b.requests).toHaveLength(3);
    expect(backend.replicas).toEqual([a.url, b.url]);
  });

  it('keeps each replica under its concurrency limit', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serve(() => 'ok', { gate: () => held });
    const { backend } = backendFor(server.url, { maxConcurrencyPerReplica: 2, timeoutMs: 10_000 });
    const calls = Array.from({ length: 5 }, () => backend.doGenerate(turnRequest()));
    for (let i = 0; i < 200 && server.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    // Give a third request every chance to arrive if the limit were broken.
    await new Promise((r) => setTimeout(r, 30));
    expect(server.requests).toHaveLength(2);
    release();
    await Promise.all(calls);
    expect(server.requests).toHaveLength(5);
    expect(server.maxInFlight).toBe(2);
  });

  it('llama.cpp: n > 1 becomes parallel single-choice requests with distinct seeds', async () => {
    const server = await serve(() => 'ok');
    const { backend } = backendFor(server.url, { dialect: 'llama.cpp' });
    const result = await backend.doGenerate(turnRequest({ n: 3, seed: 7 }));
    expect(result.choices).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((request) => !('n' in request.body))).toBe(true);
    const seeds = server.requests.map((request) => request.body.seed);
    expect(seeds).toContain(7);
    expect(new Set(seeds).size).toBe(3);
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'other' })]);
  });
});

describe('credentials', () => {
  it('the API key is in no describe(), JSON or inspect output, and options errors do not echo it', async () => {
    const { inspect } = await import('node:util');
    const backend = new OpenAICompatibleBackend({
      baseURL: 'http://user:hunter2pass@127.0.0.1:9/v1?api-key=abc',
      model: 'm',
      apiKey: API_KEY,
    });
    for (const text of [
      JSON.stringify(backend.describe()),
      JSON.stringify(backend),
      inspect(backend, { depth: 5 }),
    ]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain('hunter2pass');
      expect(text).not.toContain('api-key=abc');
    }
    expect(backend.describe().location.replicas).toEqual(['http://127.0.0.1:9/v1']);
    expect(() => new OpenAICompatibleBackend({ baseURL: 'ftp://x', model: '', apiKey: API_KEY })).toThrow(
      /baseURL: must be an http\(s\) URL.*model/,
    );
    try {
      new OpenAICompatibleBackend({ baseURL: 'ftp://x', model: 'm', apiKey: API_KEY });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(API_KEY);
    }
  });
});

describe('endpointUrl', () => {
  it('puts the path before a base URL’s query and keeps its credentials for the request', async () => {
    const { endpointUrl } = await import('../../../src/backends/openai/replica-pool.js');
    expect(endpointUrl('http://u:p@h:1/v1?api-key=k', '/chat/completions')).toBe(
      'http://u:p@h:1/v1/chat/completions?api-key=k',
    );
    expect(endpointUrl('http://h:1/v1/', '/completions')).toBe('http://h:1/v1/completions');
  });
});

describe('a server that echoes the request URL', () => {
  it('never puts the query key or the password into the error', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`bad request to ${req.url} with ${req.headers.authorization}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const backend = new OpenAICompatibleBackend({
        baseURL: `http://alice:pw-hunter2@127.0.0.1:${port}/v1?api-key=q-secret-77`,
        model: 'm',
        apiKey: API_KEY,
      });
      const error = await backend
        .doGenerate({ prompt: { messages: [{ role: 'user', content: 'hi' }] } })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      const text = `${String((error as Error).message)} ${JSON.stringify(error)}`;
      expect(text).toContain('bad request to /v1/chat/completions?api-key=[redacted]');
      for (const secret of ['q-secret-77', 'pw-hunter2', API_KEY]) expect(text).not.toContain(secret);
    } finally {
      server.close();
    }
  });
});
