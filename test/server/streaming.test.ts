import { request } from 'node:http';
import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendStreamPart, GenerateOptions, LanguageBackend } from '../../src/index.js';
import { InvalidInputError } from '../../src/index.js';
import { type ClientClosed, OpenAIServer, type OpenAIServerOptions } from '../../src/server/index.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const TEXT =
  '{"action":"offer_with_message","price":45,"message_labels":[],"message":"Would 45 work for you?","response_time":2}';
const PIECES = TEXT.match(/.{1,6}/gs) ?? [];

/**
 * A backend whose stream hands out one piece each time the test releases it, so a test can see a
 * chunk arrive before the rest of the text exists: streaming shown by order, not by timing.
 */
class GatedBackend implements LanguageBackend {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'gated';
  readonly modelId = 'm';
  readonly signals: AbortSignal[] = [];
  produced = 0;
  private waiting: (() => void) | undefined;
  private released = 0;

  release(count = 1): void {
    this.released += count;
    this.waiting?.();
  }

  async doGenerate(): Promise<never> {
    throw new Error('the server must stream through doStream');
  }

  async *doStream(options: GenerateOptions): AsyncGenerator<BackendStreamPart> {
    if (options.abortSignal) this.signals.push(options.abortSignal);
    for (const [at, piece] of PIECES.entries()) {
      while (this.released <= at) {
        // One listener per wait, removed after it: the double must not leak listeners either.
        const signal = options.abortSignal;
        let onAbort = () => {};
        await new Promise<void>((resolve) => {
          this.waiting = resolve;
          onAbort = () => resolve();
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        signal?.removeEventListener('abort', onAbort);
        if (options.abortSignal?.aborted) throw options.abortSignal.reason;
      }
      this.produced++;
      yield { type: 'text-delta', index: 0, delta: piece };
    }
    yield {
      type: 'finish',
      result: {
        choices: [{ text: TEXT, finishReason: 'stop' }],
        usage: { promptTokens: 30, completionTokens: PIECES.length },
        warnings: [],
      },
    };
  }
}

async function start(backend: LanguageBackend, options: Partial<OpenAIServerOptions> = {}) {
  const server = new OpenAIServer({ backend, ...options });
  servers.push(server);
  return { server, url: await server.listen({ port: 0 }) };
}

describe('haggle serve streams as the backend writes', () => {
  it('the official openai client reads a chunk before the backend has written the rest', async () => {
    const backend = new GatedBackend();
    const { url } = await start(backend);
    const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
    backend.release();
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const arrivals: { produced: number; at: number; content: string }[] = [];
    let usage: unknown;
    for await (const chunk of stream) {
      arrivals.push({
        produced: backend.produced,
        at: performance.now(),
        content: chunk.choices[0]?.delta?.content ?? '',
      });
      if (chunk.usage) usage = chunk.usage;
      // The next piece exists only once this text has been read.
      if (chunk.choices[0]?.delta?.content) backend.release();
    }
    const withText = arrivals.filter((a) => a.content !== '');
    expect(withText.length).toBe(PIECES.length);
    // The first text chunk arrived when the backend had produced one piece of many.
    expect(withText[0]?.produced).toBe(1);
    expect(withText.map((a) => a.content).join('')).toBe(TEXT);
    expect(withText.at(-1)?.at).toBeGreaterThan(withText[0]?.at ?? Infinity);
    expect(usage).toEqual({
      prompt_tokens: 30,
      completion_tokens: PIECES.length,
      total_tokens: 30 + PIECES.length,
    });
  });

  it("the AI SDK's streamText reads the stream chunk by chunk", async () => {
    const backend = new GatedBackend();
    const { url } = await start(backend);
    const provider = createOpenAI({ baseURL: url, apiKey: 'unused' });
    backend.release();
    const result = streamText({ model: provider.chat('m'), prompt: 'hi' });
    const seen: { produced: number; text: string }[] = [];
    for await (const text of result.textStream) {
      seen.push({ produced: backend.produced, text });
      backend.release();
    }
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]?.produced).toBe(1);
    expect(seen.map((s) => s.text).join('')).toBe(TEXT);
  });

  it('/v1/completions streams text chunks, and the usage chunk only when asked', async () => {
    const backend = new GatedBackend();
    backend.release(PIECES.length);
    const { url } = await start(backend);
    const response = await fetch(`${url}/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', prompt: 'hi', stream: true }),
    });
    const body = await response.text();
    const events = body.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
    expect(chunks.every((c) => c.object === 'text_completion')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.text ?? '').join('')).toBe(TEXT);
    expect(chunks.some((c) => c.usage)).toBe(false);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('a client that hangs up mid-stream aborts the backend; the server reports a 499, not a failure', async () => {
    const backend = new GatedBackend();
    backend.release(2);
    const closed: ClientClosed[] = [];
    const failures: unknown[] = [];
    const { url } = await start(backend, {
      onClientClosed: (event) => closed.push(event),
      onFailure: (failure) => failures.push(failure),
    });
    await new Promise<void>((resolve, reject) => {
      const req = request(`${url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }));
    });
    for (let i = 0; i < 100 && !backend.signals[0]?.aborted; i++) await new Promise((r) => setTimeout(r, 10));
    expect(backend.signals[0]?.aborted).toBe(true);
    expect(backend.produced).toBeLessThan(PIECES.length);
    for (let i = 0; i < 100 && closed.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toHaveLength(1);
    expect(failures).toEqual([]);
  });
});

describe('haggle serve and CORS', () => {
  const preflight = (url: string, origin: string) =>
    fetch(`${url}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-stainless-os',
      },
    });

  it('with cors origins: a preflight from an allowed origin is 204 with the headers a browser needs', async () => {
    const backend = new GatedBackend();
    const { url } = await start(backend, {
      cors: { origins: ['http://localhost:5173'] },
      apiKey: 'k-123456789',
    });
    const ok = await preflight(url, 'http://localhost:5173');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toBe(
      'authorization, content-type, x-stainless-os',
    );
    expect(ok.headers.get('vary')).toBe('Origin');
    // An answer without Origin (curl, a server-side SDK) varies by it too: a shared cache keys on it.
    const models = await fetch(`${url}/models`, { headers: { authorization: 'Bearer k-123456789' } });
    expect(models.status).toBe(200);
    expect(models.headers.get('vary')).toBe('Origin');
    expect(models.headers.get('access-control-allow-origin')).toBeNull();

    const other = await preflight(url, 'http://evil.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain(
      '--cors http://evil.example',
    );

    // The real request from the allowed origin carries the header its page needs to read the answer.
    backend.release(PIECES.length);
    const answer = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: {
        origin: 'http://localhost:5173',
        authorization: 'Bearer k-123456789',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    await answer.text();
  });

  it('without cors: preflights are 403 with no CORS header, and a simple cross-origin POST is refused too', async () => {
    const backend = new GatedBackend();
    const { url } = await start(backend);
    const refused = await preflight(url, 'http://localhost:5173');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    // A text/plain POST skips the preflight in browsers: it must not make the model work either.
    const simple = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { origin: 'http://localhost:5173', 'content-type': 'text/plain' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(simple.status).toBe(403);
    expect(backend.signals).toHaveLength(0);
    // Clients that send no Origin (curl, SDKs in Node) are not concerned.
    backend.release(PIECES.length);
    const plain = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(plain.status).toBe(500); // the gated backend has no doGenerate: the point is it got through
  });

  it("refuses '*' without allowAnyOrigin, and an origin with a path", () => {
    expect(() => new OpenAIServer({ backend: new GatedBackend(), cors: { origins: ['*'] } })).toThrow(
      InvalidInputError,
    );
    expect(
      () => new OpenAIServer({ backend: new GatedBackend(), cors: { origins: ['http://a.example/'] } }),
    ).toThrow(/scheme:\/\/host/);
    expect(
      () => new OpenAIServer({ backend: new GatedBackend(), cors: { origins: ['*'], allowAnyOrigin: true } }),
    ).not.toThrow();
  });

  it('a page reached by DNS rebinding (Host and Origin both its own name) is refused as cross-origin', async () => {
    const backend = new GatedBackend();
    const { url } = await start(backend);
    const { port } = new URL(url);
    // A browser on http://evil.example:PORT, its name re-pointed at 127.0.0.1, sends these two headers.
    const post = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/v1/chat/completions',
            method: 'POST',
            headers: { host, origin: `http://${host}`, 'content-type': 'text/plain' },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => {
              body += chunk.toString();
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
      });
    const rebound = await post(`evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('cors_origin_not_allowed');
    // The server's own origin by address is still its own: such a page's POST reaches the backend.
    backend.release(PIECES.length);
    expect((await post(`127.0.0.1:${port}`)).status).toBe(500); // the gated backend has no doGenerate
    expect((await post(`localhost:${port}`)).status).toBe(500);
  });
});
