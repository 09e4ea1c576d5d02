import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one request gets: the raw bytes of its SSE answer, written by the script. */
export type SseScript = (
  res: ServerResponse,
  body: Record<string, unknown>,
  index: number,
) => Promise<void> | void;

export interface SseServer {
  url: string;
  /** Per request: whether the client closed the connection before the script ended the answer. */
  closedEarly: boolean[];
  /** Bytes each answer wrote before it ended or the client left. */
  written: number[];
  bodies: Record<string, unknown>[];
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

/** A loopback server that answers each POST with the bytes a script writes: split frames, endless lines, stalls. */
export async function startSseServer(script: SseScript): Promise<SseServer> {
  const closedEarly: boolean[] = [];
  const written: number[] = [];
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const index = bodies.length;
      bodies.push(body);
      closedEarly[index] = false;
      written[index] = 0;
      const write = res.write.bind(res);
      res.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        written[index] = (written[index] ?? 0) + Buffer.byteLength(chunk);
        return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof res.write;
      res.on('close', () => {
        if (!res.writableFinished) closedEarly[index] = true;
      });
      try {
        await script(res, body, index);
      } catch {
        res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    closedEarly,
    written,
    bodies,
    openConnections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The SSE bytes of a chat answer streamed as `pieces`, with usage in the last chunk and `[DONE]`. */
export function chatStream(pieces: string[], options: { done?: boolean; usage?: boolean } = {}): string {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const events = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    ...pieces.map((piece) => ({
      ...base,
      choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
    })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ...(options.usage === false
      ? []
      : [
          {
            ...base,
            choices: [],
            usage: { prompt_tokens: 11, completion_tokens: pieces.length, total_tokens: 11 + pieces.length },
          },
        ]),
  ];
  return (
    events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join('') +
    (options.done === false ? '' : 'data: [DONE]\n\n')
  );
}

export function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
