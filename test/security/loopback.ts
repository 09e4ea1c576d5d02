import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../src/cli/main.js';
import { turnJsonSchema } from '../../src/index.js';
import { schemaOfRequest, turnForSchema } from '../backends/openai/turn-for-schema.js';
import { captureIo } from '../helpers/capture-io.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

/** A loopback upstream whose behaviour a test sets (and changes) through `handler`. */
export interface Upstream {
  /** `http://127.0.0.1:PORT/v1`. */
  url: string;
  handler: Handler;
  /** Requests received so far. */
  requests: number;
  close(): Promise<void>;
}

export async function startUpstream(handler: Handler): Promise<Upstream> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      upstream.requests++;
      const text = Buffer.concat(chunks).toString('utf8');
      upstream.handler(req, res, (text ? JSON.parse(text) : {}) as Record<string, unknown>);
    });
    // A client that cuts the answer off leaves this socket erroring: expected here.
    res.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const upstream: Upstream = {
    url: `http://127.0.0.1:${port}/v1`,
    handler,
    requests: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return upstream;
}

/** A valid chat completion whose content is a legal turn for the request's schema (or `content`). */
export function completionBody(body: Record<string, unknown>, content?: string): string {
  const n = typeof body.n === 'number' ? body.n : 1;
  content ??= turnForSchema(schemaOfRequest(body));
  return JSON.stringify({
    id: 'loopback',
    object: 'chat.completion',
    model: body.model,
    choices: Array.from({ length: n }, (_, index) => ({
      index,
      message: { role: 'assistant', content },
      finish_reason: 'stop',
    })),
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
  });
}

/**
 * Streams `total` bytes of JSON-looking padding (chunked, no content-length) from one preallocated
 * 64 KiB buffer, so the test itself never builds a large string. Stops when the client goes away.
 */
export function streamBytes(res: ServerResponse, total: number, status = 200): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  chunk.write('{"pad": "');
  res.writeHead(status, { 'content-type': 'application/json' });
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      const size = Math.min(chunk.length, total - sent);
      sent += size;
      if (!res.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** `haggle serve --backend openai` in front of `upstreamUrl`, in this process, as the CLI runs it. */
export async function startProxy(args: {
  upstreamUrl: string;
  model: string;
  apiKey?: string;
}): Promise<{ url: string; stop(): Promise<{ code: number; out: string; err: string }> }> {
  const io = captureIo();
  const controller = new AbortController();
  const argv = ['serve', '--backend', 'openai', '--base-url', args.upstreamUrl, '--model', args.model];
  if (args.apiKey) argv.push('--api-key', args.apiKey);
  argv.push('--port', '0');
  const exit = runCli(argv, io, controller.signal);
  let url: string | undefined;
  for (let i = 0; i < 1000 && !url; i++) {
    url = /at (http:\/\/\S+)/.exec(io.out())?.[1];
    if (!url) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (!url) throw new Error(`haggle serve did not start: ${io.err()}`);
  return {
    url,
    stop: async () => {
      controller.abort();
      const code = await exit;
      return { code, out: io.out(), err: io.err() };
    },
  };
}

/** POSTs a chat completion asking for a turn, as any OpenAI client would; returns status, headers, body. */
export async function postTurnRequest(
  url: string,
  model: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      messages: [{ role: 'user', content: 'your turn' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'turn', schema: turnJsonSchema({ role: 'seller' }) },
      },
    }),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
