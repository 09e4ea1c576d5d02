import { request } from 'node:http';
import { HaggleError } from '../contract/errors.js';
import { WebSocketConnection } from './websocket-connection.js';
import { acceptKey, newClientKey } from './websocket-frames.js';

/** A step result as OpenEnv's wire carries it: observation, reward, done. */
export interface RemoteStepResult {
  observation: Record<string, unknown>;
  reward: number | null;
  done: boolean;
}

/** An `error` message of OpenEnv's protocol (or a dropped connection), with its code. */
export class EnvironmentServerError extends HaggleError {
  static override readonly marker: string = 'haggle.error.EnvironmentServerError';
  readonly serverCode: string;
  readonly data: Record<string, unknown>;

  constructor(data: Record<string, unknown>) {
    super(
      'environment-server',
      `environment server error: ${String(data.message ?? 'unknown')} (code: ${String(data.code ?? 'UNKNOWN')})`,
    );
    this.name = 'EnvironmentServerError';
    this.serverCode = String(data.code ?? 'UNKNOWN');
    this.data = data;
  }
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
  constructor(private readonly connection: WebSocketConnection) {}

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
    if (!this.connection.open) {
      this.end(1006, 'the connection dropped');
      return Promise.reject(this.ended);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.connection.sendText(JSON.stringify(message));
    });
  }

  /** Sends `close` (the server frees the episode) and ends the connection. */
  close(): void {
    if (!this.connection.open) return;
    this.connection.sendText(JSON.stringify({ type: 'close' }));
    this.connection.close(1000);
  }

  /** Drops the connection without a word, as a crashed trainer would. */
  drop(): void {
    this.connection.destroy();
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
 * or `ws://host:port`). Node 20 has no WebSocket client; this one speaks the few frames the protocol needs.
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
  const key = newClientKey();
  return new Promise((resolve, reject) => {
    const req = request({
      host: base.hostname,
      port: base.port || 80,
      path: `${base.pathname.replace(/\/$/, '')}/ws`,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': key,
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    req.on('upgrade', (response, socket, head) => {
      if (response.headers['sec-websocket-accept'] !== acceptKey(key)) {
        socket.destroy();
        reject(
          new EnvironmentServerError({
            message: 'the server answered the handshake wrongly',
            code: 'HANDSHAKE',
          }),
        );
        return;
      }
      socket.setNoDelay(true);
      let client: EnvironmentClient | undefined;
      const connection = new WebSocketConnection(
        socket,
        { side: 'client', maxMessageBytes: options.maxMessageBytes ?? 16 * 1024 * 1024 },
        { onText: (text) => client?.deliver(text), onClose: ({ code, reason }) => client?.end(code, reason) },
      );
      client = new EnvironmentClient(connection);
      if (!connection.open) client.end(1006, 'the connection dropped');
      // What the server sent with its handshake answer (an error at capacity) reaches the client now.
      if (head.length > 0) socket.unshift(head);
      resolve(client);
    });
    req.on('response', (response) => {
      response.resume();
      reject(
        new EnvironmentServerError({
          message: `HTTP ${response.statusCode} instead of a WebSocket upgrade`,
          code: 'HANDSHAKE',
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
