import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { schemaOfRequest, turnForSchema } from './turn-for-schema.js';

/** What the server does with one request. */
export type Fault =
  | 'ok'
  | '500'
  | '429'
  | '404'
  | 'hang'
  | 'reset'
  | 'broken-json'
  | 'truncated'
  | 'bad-turn'
  | 'wrapped';

export const FAULTS: readonly Fault[] = [
  '500',
  '429',
  'hang',
  'reset',
  'broken-json',
  'truncated',
  'bad-turn',
];

export interface RecordedRequest {
  index: number;
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
  fault: Fault;
  /** Set when the client closed the connection before the answer was written. */
  aborted: boolean;
}

export interface FaultServer {
  /** The API root, `http://127.0.0.1:PORT/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Requests being handled right now, and the most at once. */
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

export interface FaultServerOptions {
  /** The fault for request `index` (from 0, in arrival order). */
  plan: (index: number, body: Record<string, unknown>) => Fault;
  /**
   * `retry-after` sent with 429s, in whole seconds (RFC 9110's delay-seconds are digits only). Default 0.
   */
  retryAfterSeconds?: number;
  /** `retry-after-ms` (OpenAI's header) sent with 429s instead, for waits shorter than a second. */
  retryAfterMs?: number;
  /** Held before an `ok` answer; resolves when the answer may go. */
  gate?: () => Promise<void>;
}

/**
 * A loopback server that speaks just enough of the chat/completions API and breaks on demand: error
 * statuses, rate limits with `retry-after`, hangs, resets, broken JSON, truncated bodies, and turns
 * that break the contract. Its 500s echo the Authorization header back, as careless proxies do, so
 * tests can check that the key is redacted.
 */
export async function startFaultServer(options: FaultServerOptions): Promise<FaultServer> {
  const requests: RecordedRequest[] = [];
  const state = { inFlight: 0, maxInFlight: 0 };
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const index = requests.length;
    const fault = options.plan(index, body);
    const record: RecordedRequest = {
      index,
      path: req.url ?? '',
      body,
      authorization: req.headers.authorization,
      fault,
      aborted: false,
    };
    requests.push(record);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    res.on('close', () => {
      state.inFlight--;
      if (!res.writableFinished) record.aborted = true;
    });

    switch (fault) {
      case '500':
        return json(res, 500, {
          error: { message: `engine crashed; request had ${req.headers.authorization}` },
        });
      case '404':
        return json(res, 404, { error: { message: 'The model does not exist', code: 'model_not_found' } });
      case '429':
        if (options.retryAfterMs !== undefined) res.setHeader('retry-after-ms', String(options.retryAfterMs));
        else res.setHeader('retry-after', String(options.retryAfterSeconds ?? 0));
        return json(res, 429, { error: { message: 'rate limited' } });
      case 'hang':
        return; // never answers; the client's timeout or the server's close ends it
      case 'reset':
        req.socket.destroy();
        return;
      case 'broken-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"choices": [{"message": {"content": "{\\"action');
        return;
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4000' });
        res.write('{"id": "cut", "choices": [');
        setTimeout(() => res.destroy(), 5);
        return;
      case 'bad-turn':
        return answer(res, body, () =>
          JSON.stringify({ action: 'offer', price: -5, message_labels: [], message: '', response_time: 1 }),
        );
      case 'wrapped':
        if (options.gate) await options.gate();
        return answer(res, body, (text) => `<think>\nfine\n</think>\n\`\`\`json\n${text}\n\`\`\``);
      default:
        if (options.gate) await options.gate();
        return answer(res, body, (text) => text);
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function answer(res: ServerResponse, body: Record<string, unknown>, wrap: (text: string) => string): void {
  const n = typeof body.n === 'number' ? body.n : 1;
  const text = wrap(turnForSchema(schemaOfRequest(body)));
  const chat = Array.isArray(body.messages);
  json(res, 200, {
    id: 'fault-server',
    object: chat ? 'chat.completion' : 'text_completion',
    model: body.model,
    choices: Array.from({ length: n }, (_, index) =>
      chat
        ? { index, message: { role: 'assistant', content: text }, finish_reason: 'stop' }
        : { index, text, finish_reason: 'stop' },
    ),
    usage: {
      prompt_tokens: 10,
      completion_tokens: 20,
      total_tokens: 30,
      prompt_tokens_details: { cached_tokens: 4 },
    },
  });
}
