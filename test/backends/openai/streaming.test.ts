import { afterEach, describe, expect, it } from 'vitest';
import type { BackendStreamPart, GenerateResult } from '../../../src/index.js';
import {
  foldTurnEvent,
  NegotiationAgent,
  OpenAICompatibleBackend,
  type PartialTurn,
  RemoteConnectionError,
  RemoteTimeoutError,
  ResponseTooLargeError,
} from '../../../src/index.js';
import { CONTEXT } from '../../helpers/fixtures.js';
import { chatStream, pause, type SseScript, type SseServer, sseHead, startSseServer } from './sse-server.js';
import { API_KEY, FAST, turnRequest } from './support.js';

const servers: SseServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: SseScript): Promise<SseServer> {
  const server = await startSseServer(script);
  servers.push(server);
  return server;
}

const TURN = JSON.stringify({
  action: 'offer_with_message',
  price: 45,
  message_labels: [],
  message: 'Grüße! Would 45 work? ☃',
  response_time: 2,
});

/**
 * The server's open connections once they reach 0, or the count at the timeout. `node:http` closes the
 * socket at once; undici's `fetch` closes an aborted one a few seconds later, on its own timer.
 */
async function noConnectionsWithin(server: SseServer, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await server.openConnections();
    if (open === 0 || Date.now() > until) return open;
    await pause(100);
  }
}

/** The process's pending timers: an attempt that forgets to clear its own shows up here. */
const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

async function read(parts: AsyncIterable<BackendStreamPart>) {
  const out: BackendStreamPart[] = [];
  for await (const part of parts) out.push(part);
  const finish = out.at(-1);
  const result = finish?.type === 'finish' ? finish.result : undefined;
  const text = out
    .map((p) => (p.type === 'text-delta' ? p.delta : p.type === 'reset' ? '\u0000' : ''))
    .join('');
  return { parts: out, result: result as GenerateResult, text };
}

for (const transport of ['node:http', 'fetch'] as const) {
  const backendFor = (url: string, extra: Record<string, unknown> = {}) =>
    new OpenAICompatibleBackend({
      baseURL: url,
      model: 'm',
      ...FAST,
      ...(transport === 'fetch'
        ? {
            fetch: (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
              fetch(input, init),
          }
        : {}),
      ...extra,
    });

  describe(`OpenAICompatibleBackend.doStream over ${transport}`, { timeout: 30_000 }, () => {
    it('reads frames split anywhere (inside a line, a UTF-8 character, a CRLF): deltas, text and usage', async () => {
      const pieces = TURN.match(/.{1,5}/gsu) ?? [];
      const server = await serve(async (res) => {
        sseHead(res);
        const bytes = Buffer.from(chatStream(pieces));
        for (let at = 0; at < bytes.length; at += 7) {
          res.write(bytes.subarray(at, at + 7));
          if (at % 70 === 0) await pause(1);
        }
        res.end();
      });
      const { parts, result, text } = await read(backendFor(server.url).doStream(turnRequest({ seed: 4 })));
      expect(parts.filter((p) => p.type === 'text-delta').length).toBe(pieces.length);
      expect(text).toBe(TURN);
      expect(result.choices).toEqual([{ text: TURN, finishReason: 'stop' }]);
      expect(result.usage).toEqual({ promptTokens: 11, completionTokens: pieces.length });
      expect(server.bodies[0]).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
        seed: 4,
      });
    });

    it('a 10 MB line is a ResponseTooLargeError: reading stops at 1 MiB and the connection is closed', async () => {
      const server = await serve(async (res) => {
        sseHead(res);
        res.write('data: {"choices":[{"index":0,"delta":{"content":"');
        const block = 'x'.repeat(64 * 1024);
        for (let sent = 0; sent < 10 * 1024 * 1024 && !res.destroyed; sent += block.length) {
          if (!res.write(block)) await new Promise((resolve) => res.once('drain', resolve));
        }
        res.end('"}}]}\n\n');
      });
      const error = await read(backendFor(server.url).doStream(turnRequest())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect((error as ResponseTooLargeError).attempts).toBe(1);
      await pause(50);
      expect(server.closedEarly[0]).toBe(true);
      expect(server.written[0]).toBeLessThan(10 * 1024 * 1024);
      expect(await noConnectionsWithin(server, 10_000)).toBe(0);
    });

    it('a stream without [DONE] is cut short: retried, and after the retries a RemoteConnectionError', async () => {
      const timersBefore = timers();
      const server = await serve((res) => {
        sseHead(res);
        res.end(chatStream([TURN], { done: false }));
      });
      const error = await read(
        backendFor(server.url, { retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 } }).doStream(
          turnRequest(),
        ),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RemoteConnectionError);
      expect((error as Error).message).toMatch(/without its closing "data: \[DONE\]"/);
      expect(server.bodies).toHaveLength(2);
      // Nothing leaks: the answers were whole HTTP responses, so at most one socket stays, kept alive for
      // reuse (the retry reused it), and no attempt's timer is left running (counted over node:http
      // only: undici arms one shared timer of its own on first use, which is not ours to count).
      expect(await server.openConnections()).toBeLessThanOrEqual(1);
      if (transport === 'node:http') expect(timers()).toBeLessThanOrEqual(timersBefore);
    });

    it('a stalled stream is a RemoteTimeoutError, and its connection is closed', async () => {
      const server = await serve(async (res) => {
        sseHead(res);
        res.write(chatStream(['{"action":']).split('\r\n\r\n')[1] ?? '');
        res.write('\r\n\r\n');
        await pause(60_000);
      });
      const started = performance.now();
      const error = await read(
        backendFor(server.url, { timeoutMs: 300, retry: { maxRetries: 0 } }).doStream(turnRequest()),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RemoteTimeoutError);
      expect(performance.now() - started).toBeLessThan(30_000);
      await pause(50);
      expect(server.closedEarly[0]).toBe(true);
      expect(await noConnectionsWithin(server, 10_000)).toBe(0);
    });

    it('a retry before the first delta is invisible; after it, a reset part comes first', async () => {
      const server = await serve(async (res, _body, index) => {
        if (index === 0) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":{"message":"warming up"}}');
          return;
        }
        sseHead(res);
        if (index === 1) {
          // Two deltas, then the connection dies.
          res.write(
            chatStream(['{"action":"offer",', '"price":1'])
              .split(
                'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},',
              )
              .at(0) ?? '',
          );
          await pause(20);
          res.destroy();
          return;
        }
        res.end(chatStream([TURN]));
      });
      const { parts, result } = await read(backendFor(server.url).doStream(turnRequest()));
      const types = parts.map((p) => p.type);
      expect(types.indexOf('reset')).toBe(2);
      expect(types.filter((t) => t === 'reset')).toHaveLength(1);
      expect(result.choices[0]?.text).toBe(TURN);
    });

    it('abandoning the stream closes the connection; the server sees it', async () => {
      const server = await serve(async (res) => {
        sseHead(res);
        for (let i = 0; i < 1000 && !res.destroyed; i++) {
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'la ' } }] })}\n\n`);
          await pause(5);
        }
        res.end('data: [DONE]\n\n');
      });
      let deltas = 0;
      for await (const part of backendFor(server.url).doStream(turnRequest())) {
        if (part.type === 'text-delta' && ++deltas === 3) break;
      }
      await pause(50);
      expect(server.closedEarly[0]).toBe(true);
      expect(await noConnectionsWithin(server, 10_000)).toBe(0);
    });

    it('the API key a hostile server streams back, split over deltas, never reaches a delta or the text', async () => {
      const leak = `{"action":"message_only","price":null,"message_labels":[],"message":"key ${API_KEY} ok","response_time":1}`;
      const server = await serve((res) => {
        sseHead(res);
        res.end(chatStream(leak.match(/.{1,3}/gs) ?? []));
      });
      const { parts, result, text } = await read(
        backendFor(server.url, { apiKey: API_KEY }).doStream(turnRequest()),
      );
      expect(text).not.toContain(API_KEY);
      expect(text).toContain('[redacted]');
      for (const part of parts) expect(JSON.stringify(part)).not.toContain(API_KEY);
      expect(result.choices[0]?.text).toBe(leak.replace(API_KEY, '[redacted]'));
    });
  });
}

describe('agent.stream over an OpenAI-compatible server', () => {
  it('shows the action and the price before the message, and ends with the validated turn', async () => {
    const server = await serve(async (res) => {
      sseHead(res);
      for (const piece of TURN.match(/.{1,4}/gsu) ?? []) {
        res.write(chatStream([piece], { usage: false, done: false }).split('\r\n\r\n')[1] ?? '');
        res.write('\r\n\r\n');
      }
      res.end(chatStream([], { done: true }).split('\r\n\r\n').slice(1).join('\r\n\r\n'));
    });
    const agent = new NegotiationAgent({
      backend: new OpenAICompatibleBackend({ baseURL: server.url, model: 'm', ...FAST }),
    });
    const input = {
      context: CONTEXT,
      history: [
        {
          role: 'buyer' as const,
          turn: { action: 'offer' as const, price: 30, message_labels: [], message: '', response_time: 1 },
          elapsedHours: 1,
        },
      ],
      role: 'seller' as const,
    };
    const events = [];
    for await (const event of agent.stream(input)) events.push(event);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['action', 'price']);
    expect(types.filter((t) => t === 'message-delta').length).toBeGreaterThan(2);
    expect(types.at(-1)).toBe('turn');
    expect(events.reduce(foldTurnEvent, {} as PartialTurn)).toEqual(JSON.parse(TURN));
  });
});
