import WebSocket from 'ws';
import { EnvironmentServerError } from './errors.js';

/** A step result as OpenEnv's wire carries it: observation, reward, done. */
export interface RemoteStepResult {
  observation: Record<string, unknown>;
  reward: number | null;
  done: boolean;
}

/**
 * The part of a `ws` WebSocket the client uses. Structural, so that haggle/env's declarations do not
 * import `ws`'s types (a user's TypeScript would then need `@types/ws`).
 */
interface ClientSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number): void;
  terminate(): void;
}

/** Options of `connectEnvironment`. */
export interface ConnectEnvironmentOptions {
  /** Largest message accepted from the server, in bytes. Default 16 MiB. */
  maxMessageBytes?: number;
  signal?: AbortSignal;
}

/**
 * A TypeScript client of an OpenEnv environment server (`haggle env serve`, or any server speaking the
 * protocol): the messages OpenEnv's Python `EnvClient` sends over `/ws`, one request at a time.
 */
export class EnvironmentClient {
  private readonly waiting: {
    resolve: (message: { type: string; data: Record<string, unknown> }) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private ended: Error | undefined;
  private unsolicited: string | undefined;

  /** @internal */
  constructor(private readonly socket: ClientSocket) {}

  private get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** @internal */
  deliver(text: string): void {
    const next = this.waiting.shift();
    if (!next) {
      // An answer to no request: the server's word before it closes (CAPACITY_REACHED), kept for the next call.
      this.unsolicited = text;
      return;
    }
    try {
      next.resolve(JSON.parse(text));
    } catch (error) {
      next.reject(error);
    }
  }

  /** @internal */
  end(code: number, reason: string): void {
    // The server's last word before it closed (CAPACITY_REACHED) is the error, when it said one.
    let said: Record<string, unknown> | undefined;
    try {
      const last = this.unsolicited ? JSON.parse(this.unsolicited) : undefined;
      said = last?.type === 'error' ? (last.data as Record<string, unknown>) : undefined;
    } catch {
      said = undefined;
    }
    this.ended = new EnvironmentServerError(
      said ?? { message: `connection closed (${code}) ${reason}`.trim(), code: 'CLOSED' },
    );
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.ended);
  }

  /** Starts an episode: `data` as OpenEnv's `reset(**kwargs)` sends it (`seed`, `episode_id`). */
  async reset(data: Record<string, unknown> = {}): Promise<RemoteStepResult> {
    return this.result(await this.send({ type: 'reset', data }));
  }

  /** Plays an action: for haggle's environments `{ text: RAW_MODEL_OUTPUT }`. */
  async step(action: Record<string, unknown>): Promise<RemoteStepResult> {
    return this.result(await this.send({ type: 'step', data: action }));
  }

  /** The episode's state. */
  async state(): Promise<Record<string, unknown>> {
    const message = await this.send({ type: 'state' });
    return message.data;
  }

  /** Sends any message and returns the server's answer as it came (an `error` answer included). */
  send(message: Record<string, unknown>): Promise<{ type: string; data: Record<string, unknown> }> {
    if (this.ended) return Promise.reject(this.ended);
    if (!this.open) {
      this.end(1006, 'the connection dropped');
      return Promise.reject(this.ended);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.send(JSON.stringify(message));
    });
  }

  /** Sends `close` (the server frees the episode) and ends the connection. */
  close(): void {
    if (!this.open) return;
    this.socket.send(JSON.stringify({ type: 'close' }));
    this.socket.close(1000);
  }

  /** Drops the connection without a word, as a crashed trainer would. */
  drop(): void {
    this.socket.terminate();
  }

  private result(message: { type: string; data: Record<string, unknown> }): RemoteStepResult {
    if (message.type === 'error') throw new EnvironmentServerError(message.data ?? {});
    const data = message.data ?? {};
    return {
      observation: (data.observation as Record<string, unknown>) ?? {},
      reward: (data.reward as number | null | undefined) ?? null,
      done: data.done === true,
    };
  }
}

/**
 * Opens a WebSocket to an environment server's `/ws` (`url` as OpenEnv's `base_url`: `http://host:port`
 * or `ws://host:port`), with `ws` as the WebSocket (no permessage-deflate offered, as the server declines it).
 */
export function connectEnvironment(
  url: string,
  options: ConnectEnvironmentOptions = {},
): Promise<EnvironmentClient> {
  const base = new URL(url.replace(/^ws(s?):/, 'http$1:'));
  if (base.protocol !== 'http:')
    return Promise.reject(
      new EnvironmentServerError({
        message: `only http:// and ws:// are supported, not ${base.protocol}`,
        code: 'URL',
      }),
    );
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const target = `ws://${base.host}${base.pathname.replace(/\/$/, '')}/ws`;
  const socket = new WebSocket(target, {
    maxPayload: options.maxMessageBytes ?? 16 * 1024 * 1024,
    perMessageDeflate: false,
  });
  const client = new EnvironmentClient(socket);
  socket.on('message', (data: Buffer) => client.deliver(data.toString('utf8')));
  socket.on('close', (code: number, reason: Buffer) => client.end(code, reason.toString()));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      socket.terminate();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('open', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(client);
    });
    socket.on('unexpected-response', (request, response) => {
      response.resume();
      request.destroy();
      signal?.removeEventListener('abort', onAbort);
      reject(
        new EnvironmentServerError({
          message: `HTTP ${response.statusCode} instead of a WebSocket upgrade`,
          code: 'HANDSHAKE',
        }),
      );
    });
    // Before the handshake an error rejects the promise; after it, the 'close' that follows ends the client.
    socket.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}
