import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { HaggleError, InvalidInputError } from '../contract/errors.js';
import { HAGGLE_VERSION } from '../internal/haggle-version.js';
import { redact } from '../internal/redact.js';
import type { Environment, EnvironmentStepResult } from './environment.js';
import type { EpisodeLog } from './episode-log.js';
import { EnvironmentStateError } from './errors.js';
import {
  MINIMAL_OBSERVATION_OMITS,
  type ObservationFields,
  observationMessageJson,
} from './observation-json.js';
import { WebSocketConnection, webSocketServerOptions } from './websocket-connection.js';
import { ENVIRONMENT_WIRE_SCHEMAS } from './wire-schemas.js';

/** OpenEnv's error codes (`WSErrorCode` in its `env_server/types.py`), as its clients read them. */
export type EnvironmentErrorCode =
  | 'INVALID_JSON'
  | 'UNKNOWN_TYPE'
  | 'VALIDATION_ERROR'
  | 'EXECUTION_ERROR'
  | 'CAPACITY_REACHED'
  | 'SESSION_ERROR';

/** Limits of `EnvironmentServer` (all haggle's choices, with why). */
export interface EnvironmentServerLimits {
  /**
   * Episodes (connections) at once; one more is answered `CAPACITY_REACHED` and closed, as OpenEnv's
   * server does. Default 256: GRPO groups of 8-16 times a batch of 16 prompts.
   */
  maxSessions: number;
  /**
   * Milliseconds a connection may stay silent before its episode is reaped and the connection closed
   * (1001). Default 600,000: a trainer's generation step over a batch takes minutes at most.
   */
  idleTimeoutMs: number;
  /**
   * Largest message accepted, in bytes, its fragments counted together as they arrive; a bigger one
   * closes the connection (1009). Default 1 MiB: a model's turn is under 2 KiB; OpenEnv's client
   * allows 100 MB, which one connection could fill memory with. It also sets what one connection may
   * hold (see `docs/training.md`): about 4 x this + 1 MiB.
   */
  maxMessageBytes: number;
}

/**
 * haggle's choice: messages of one connection waiting for their answers. OpenEnv's client sends one
 * and waits for its answer; a client far past that is flooding, and each answer costs memory.
 */
export const MAX_UNANSWERED = 64;

/** Limits `EnvironmentServer` applies when none are given. */
export const DEFAULT_ENVIRONMENT_SERVER_LIMITS: EnvironmentServerLimits = {
  maxSessions: 256,
  idleTimeoutMs: 600_000,
  maxMessageBytes: 1024 * 1024,
};

/** What `EnvironmentServer` serves: a factory of environments (one per connection) and where episodes go. */
export interface EnvironmentServerOptions {
  /** Builds the environment of one connection. */
  createEnvironment: () => Environment;
  /** The environment's name and a line about it, for `/metadata`. */
  name: string;
  description: string;
  limits?: Partial<EnvironmentServerLimits>;
  /** Where every finished episode is appended (before its last answer is sent). */
  log?: EpisodeLog;
  /** Which observation fields are sent (`--observation`); default `full`. See `ObservationFields`. */
  observation?: ObservationFields;
  /** A session that failed on the server's side (not the client's mistake), redacted; for logs. */
  onFailure?: (failure: { message: string }) => void;
}

interface Session {
  connection: WebSocketConnection;
  environment: Environment;
  lastActive: number;
  /** Messages are answered in order, one at a time. */
  queue: Promise<unknown>;
  /** Messages received and not yet answered: a session waiting on its opponent is not idle. */
  pending: number;
}

/**
 * `haggle env serve`: OpenEnv's environment server protocol over HTTP and WebSocket, as its Python
 * `EnvClient` / `GenericEnvClient` speak it. `GET /health`, `/metadata`, `/schema`; `/ws` takes
 * `{"type": "reset" | "step" | "state" | "close", "data": ...}` and answers
 * `{"type": "observation", "data": {"observation", "reward", "done"}}`, `{"type": "state", "data"}` or
 * `{"type": "error", "data": {"message", "code"}}`. One episode per connection; it ends with the
 * connection, a `close` message, or the idle reaper. What is not served: the stateless HTTP
 * `POST /reset` and `/step` (OpenEnv's simulation mode creates a fresh environment per request, which
 * cannot hold a negotiation), `/mcp`, and the web UI.
 */
export class EnvironmentServer {
  private readonly options: EnvironmentServerOptions;
  private readonly limits: EnvironmentServerLimits;
  private readonly sessions = new Set<Session>();
  private server: Server | undefined;
  private webSockets: WebSocketServer | undefined;
  private reaper: NodeJS.Timeout | undefined;
  private readonly counters = { episodes: 0, protocolErrors: 0, reaped: 0, refused: 0, flooded: 0 };

  constructor(options: EnvironmentServerOptions) {
    this.options = options;
    this.limits = { ...DEFAULT_ENVIRONMENT_SERVER_LIMITS, ...options.limits };
    const problems: { path: string; message: string }[] = [];
    const check = (key: keyof EnvironmentServerLimits, min: number, max: number) => {
      const value = this.limits[key];
      if (!Number.isInteger(value) || value < min || value > max)
        problems.push({ path: `limits.${key}`, message: `must be an integer from ${min} to ${max}` });
    };
    check('maxSessions', 1, 100_000);
    check('idleTimeoutMs', 1, 86_400_000);
    check('maxMessageBytes', 1024, 1024 * 1024 * 1024);
    if (
      options.observation !== undefined &&
      options.observation !== 'full' &&
      options.observation !== 'minimal'
    )
      problems.push({ path: 'observation', message: 'must be "full" or "minimal"' });
    if (typeof options.createEnvironment !== 'function')
      problems.push({ path: 'createEnvironment', message: 'must be a function that returns an Environment' });
    if (problems.length > 0)
      throw new InvalidInputError({ subject: 'EnvironmentServerOptions', issues: problems });
  }

  /** Episodes being played now (open connections). */
  get activeSessions(): number {
    return this.sessions.size;
  }

  /**
   * Episodes finished, error answers sent, sessions reaped idle, connections refused at capacity, and
   * connections closed for flooding (`flooded`, not an error answer: the client is sent a close, never
   * an answer): more than `MAX_UNANSWERED` messages ahead of their answers, pings while its answers
   * wait unread, or more bytes than a message may take without completing one.
   */
  get stats(): {
    episodes: number;
    protocolErrors: number;
    reaped: number;
    refused: number;
    flooded: number;
  } {
    return { ...this.counters };
  }

  /** Starts listening; resolves with the base URL (`http://host:port`). */
  async listen(options: { port?: number; host?: string } = {}): Promise<string> {
    const server = createServer((request, response) => this.handleHttp(request, response));
    this.webSockets = new WebSocketServer(webSocketServerOptions(this.limits.maxMessageBytes));
    server.on('upgrade', (request, socket, head) => this.handleUpgrade(request, socket, head));
    server.on('clientError', (_error, socket) => socket.destroy());
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8000, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const interval = Math.max(10, Math.min(10_000, Math.floor(this.limits.idleTimeoutMs / 4)));
    this.reaper = setInterval(() => this.reap(), interval);
    this.reaper.unref();
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  /** Ends every episode and connection, and stops listening. */
  async close(): Promise<void> {
    clearInterval(this.reaper);
    for (const session of this.sessions) {
      session.environment.close();
      session.connection.close(1001, 'server stopping');
    }
    this.sessions.clear();
    this.webSockets?.close();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections?.();
  }

  /** Closes the server (`close()`), for `await using`, as `OpenAIServer` does. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private handleHttp(request: IncomingMessage, response: ServerResponse): unknown {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      response.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      response.end(text);
    };
    request.resume(); // no route reads a body: drain whatever was sent
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(405, {
        detail: `${request.method} is not served: episodes are played over the WebSocket at /ws`,
      });
    switch (path) {
      case '/health':
        return send(200, {
          status: 'healthy',
          active_sessions: this.sessions.size,
          max_sessions: this.limits.maxSessions,
        });
      case '/metadata':
        return send(200, {
          name: this.options.name,
          description: this.options.description,
          version: HAGGLE_VERSION,
          author: 'haggle',
        });
      case '/schema':
        return send(
          200,
          this.options.observation === 'minimal' ? minimalWireSchemas() : ENVIRONMENT_WIRE_SCHEMAS,
        );
      case '/ws':
        return send(426, { detail: '/ws speaks WebSocket: connect with an Upgrade request' });
      default:
        return send(404, { detail: `no route ${path}: /health, /metadata, /schema, /ws` });
    }
  }

  private handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (request.url ?? '/').split('?')[0];
    const webSockets = this.webSockets;
    if (path !== '/ws' || !webSockets) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // `ws` checks the handshake (a bad one is answered 400) and owns the socket from here.
    webSockets.handleUpgrade(request, socket, head, (webSocket) => this.accept(webSocket, socket));
  }

  /** Starts the episode of a new connection, or refuses it at capacity. */
  private accept(webSocket: WebSocket, socket: Duplex): void {
    let session: Session | undefined;
    const connection = new WebSocketConnection(
      webSocket,
      socket,
      { maxMessageBytes: this.limits.maxMessageBytes },
      {
        onText: (text, bytes) => {
          if (!session) return;
          const current = session;
          if (current.pending >= MAX_UNANSWERED) {
            connection.closeForFlooding(
              `more than ${MAX_UNANSWERED} messages unanswered: wait for each answer before the next message`,
            );
            return;
          }
          current.lastActive = Date.now();
          current.pending++;
          current.queue = current.queue.then(() => this.answerInTurn(current, text, bytes));
        },
        // Counted once per connection, however many frames it had sent past its bound.
        onFlood: () => {
          this.counters.flooded++;
        },
        onClose: () => {
          if (!session) return;
          // A dropped connection frees its episode at once: its negotiation is aborted.
          session.environment.close();
          this.sessions.delete(session);
        },
      },
    );
    if (this.sessions.size >= this.limits.maxSessions) {
      this.counters.refused++;
      connection.sendText(
        JSON.stringify({
          type: 'error',
          data: {
            message: `the server holds its most episodes (${this.limits.maxSessions}); retry later or raise --max-sessions`,
            code: 'CAPACITY_REACHED',
            active_sessions: this.sessions.size,
            max_sessions: this.limits.maxSessions,
          },
        }),
      );
      connection.close(1013, 'capacity reached');
      return;
    }
    let environment: Environment;
    try {
      environment = this.options.createEnvironment();
    } catch (error) {
      connection.sendText(this.error('SESSION_ERROR', error));
      connection.close(1011, 'environment failed');
      return;
    }
    session = { connection, environment, lastActive: Date.now(), queue: Promise.resolve(), pending: 0 };
    this.sessions.add(session);
  }

  /** Answers one message after the ones before it; a failure is reported, never left to reject the queue. */
  private async answerInTurn(session: Session, text: string, bytes: number): Promise<void> {
    try {
      await this.answer(session, text);
    } catch (error) {
      this.options.onFailure?.({ message: redact(describe(error)) });
    } finally {
      session.pending--;
      session.lastActive = Date.now();
      session.connection.answered(bytes);
    }
  }

  private async answer(session: Session, text: string): Promise<unknown> {
    const { connection } = session;
    if (!connection.open) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return this.reply(session, this.error('INVALID_JSON', `Invalid JSON: ${(error as Error).message}`));
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      return this.reply(session, this.error('VALIDATION_ERROR', 'a message is a JSON object with "type"'));
    const { type, data } = message as { type?: unknown; data?: unknown };
    const dataObject =
      data === undefined
        ? {}
        : typeof data === 'object' && data !== null && !Array.isArray(data)
          ? (data as Record<string, unknown>)
          : undefined;
    if (dataObject === undefined)
      return this.reply(session, this.error('VALIDATION_ERROR', '"data" must be a JSON object'));
    try {
      switch (type) {
        case 'reset': {
          const seed = dataObject.seed;
          const episodeId = dataObject.episode_id;
          if (seed !== undefined && seed !== null && !(Number.isSafeInteger(seed) && (seed as number) >= 0))
            return this.reply(
              session,
              this.error('VALIDATION_ERROR', 'reset: "seed" must be a non-negative integer'),
            );
          if (
            episodeId !== undefined &&
            episodeId !== null &&
            (typeof episodeId !== 'string' || episodeId.length > 256)
          )
            return this.reply(
              session,
              this.error(
                'VALIDATION_ERROR',
                'reset: "episode_id" must be a string of at most 256 characters',
              ),
            );
          const result = await session.environment.reset({
            ...(typeof seed === 'number' ? { seed } : {}),
            ...(typeof episodeId === 'string' ? { episodeId } : {}),
          });
          return this.replyResult(session, result);
        }
        case 'step': {
          if (typeof dataObject.text !== 'string')
            return this.reply(
              session,
              this.error(
                'VALIDATION_ERROR',
                'step: the action is {"text": RAW_MODEL_OUTPUT}, "text" a string',
              ),
            );
          const result = await session.environment.step(dataObject.text);
          return this.replyResult(session, result);
        }
        case 'state':
          return this.reply(session, JSON.stringify({ type: 'state', data: session.environment.state() }));
        case 'close':
          session.environment.close();
          this.sessions.delete(session);
          connection.close(1000);
          return;
        default:
          return this.reply(
            session,
            this.error('UNKNOWN_TYPE', `Unknown message type: ${String(type).slice(0, 64)}`),
          );
      }
    } catch (error) {
      const clientMistake = error instanceof EnvironmentStateError || error instanceof InvalidInputError;
      if (!clientMistake) this.options.onFailure?.({ message: redact(describe(error)) });
      return this.reply(session, this.error('EXECUTION_ERROR', error));
    }
  }

  private replyResult(session: Session, result: EnvironmentStepResult): void {
    if (result.done) {
      this.counters.episodes++;
      const record = session.environment.record();
      // On disk before the trainer hears the episode ended.
      if (record && this.options.log) this.options.log.append(record);
    }
    session.lastActive = Date.now();
    this.reply(session, observationMessageJson(result, this.options.observation));
  }

  private reply(session: Session, text: string): void {
    if (text.startsWith('{"type":"error"')) this.counters.protocolErrors++;
    session.connection.sendText(text);
  }

  private error(code: EnvironmentErrorCode, cause: unknown): string {
    const message = typeof cause === 'string' ? cause : describe(cause);
    return JSON.stringify({ type: 'error', data: { message: redact(message), code } });
  }

  private reap(): void {
    const now = Date.now();
    for (const session of this.sessions) {
      if (session.pending > 0 || now - session.lastActive <= this.limits.idleTimeoutMs) continue;
      this.counters.reaped++;
      session.environment.close();
      this.sessions.delete(session);
      session.connection.close(1001, 'idle too long');
    }
  }
}

/** `GET /schema` of a server sending minimal observations: the observation schema without the omitted fields. */
function minimalWireSchemas(): typeof ENVIRONMENT_WIRE_SCHEMAS {
  const omitted = new Set<string>(MINIMAL_OBSERVATION_OMITS);
  const full = ENVIRONMENT_WIRE_SCHEMAS.observation as {
    properties: Record<string, unknown>;
    required: string[];
  };
  const observation = {
    ...full,
    properties: Object.fromEntries(Object.entries(full.properties).filter(([key]) => !omitted.has(key))),
    required: full.required.filter((key) => !omitted.has(key)),
  };
  return { ...ENVIRONMENT_WIRE_SCHEMAS, observation };
}

function describe(error: unknown): string {
  if (HaggleError.isInstance(error) || error instanceof Error) return error.message;
  return String(error);
}
