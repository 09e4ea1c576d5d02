import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  BackendStreamPart,
  BackendWarning,
  ChatMessage,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../backends/language-backend.js';
import { streamGenerate } from '../backends/stream-generate.js';
import { HaggleError } from '../contract/errors.js';
import { Redactor, redact } from '../internal/redact.js';
import { renderQwen3NoThink } from '../prompt/qwen3-chat-format.js';
import { Admission } from './admission.js';
import {
  type AnyCompletionRequest,
  parseChatRequest,
  parseCompletionRequest,
  toGenerateOptions,
  toolCallPlanOf,
} from './chat-request.js';
import { asToolsMistake, clientMistake } from './client-mistake.js';
import { chatCompletion, type ResponseMeta, StreamChunks, textCompletion } from './completion-response.js';
import { type CorsOptions, CorsPolicy } from './cors.js';
import { Deadline } from './deadline.js';
import { HttpError } from './errors.js';
import { headerJson } from './header-value.js';
import { readJsonBody, sendError, sendJson } from './http-io.js';
import { capMaxTokens } from './max-tokens.js';
import { DEFAULT_REQUEST_LIMITS, jsonDepth, type RequestLimits } from './request-limits.js';
import { describeFailure, type ServerFailure } from './server-failure.js';
import type { ToolCallPlan } from './tool-call-plan.js';

/** Options of `OpenAIServer`: the backend it serves, model names, API key, prompt rendering and limits. */
export interface OpenAIServerOptions {
  /** What answers the requests: any `LanguageBackend` (local, remote, or a scripted one in tests). */
  backend: LanguageBackend;
  /** Model names clients may ask for. Default: the backend's `modelId`. */
  models?: readonly string[];
  /** When set, clients must send `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Renders chat messages into the prompt string local backends need. Default: `qwen3_nothink`. */
  renderText?: (messages: readonly ChatMessage[]) => string;
  /**
   * Web pages on other origins allowed to call the server (CORS), answering their preflights. Without
   * it, a cross-origin request gets a 403 that says how to allow it. See `CorsOptions`.
   */
  cors?: CorsOptions;
  /** Largest request body accepted. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Ceiling on tokens per sample, deadline, queue and nesting depth; see `RequestLimits`. */
  limits?: Partial<RequestLimits>;
  /**
   * Called for every request answered with a 5xx status (or cut off mid-stream), with the cause
   * redacted: a 500's client sees only "internal server error", so this is where the cause is said.
   * `haggle serve` prints these on stderr. A listener that throws is ignored.
   */
  onFailure?: (failure: ServerFailure) => void;
  /**
   * Called when a client closes its connection before its answer (its work is cancelled): not a
   * failure of the server, so not an `onFailure`. `haggle serve` prints one line, in nginx's
   * wording of it (499). A listener that throws is ignored.
   */
  onClientClosed?: (event: ClientClosed) => void;
}

/** A client that hung up before its answer. */
export interface ClientClosed {
  method: string;
  path: string;
  /** Milliseconds from the request's arrival to the hang-up. */
  afterMs: number;
}

/** Where `OpenAIServer.listen` listens: port and host. */
export interface ListenOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`: only this machine. Use `0.0.0.0` to serve other machines. */
  host?: string;
}

/**
 * An OpenAI-compatible HTTP server in front of a `LanguageBackend`: `GET /v1/models`,
 * `POST /v1/chat/completions` and `POST /v1/completions` with `response_format` json_schema, `n`,
 * `seed` and `stream` (SSE), and forced tool calls (`tools` with a named or `"required"`
 * `tool_choice`, the arguments decoded under the tool's parameters). A request field it does not
 * honour is a 400 naming it, never silently dropped. Apps in other languages, and other machines, use
 * a local model through it with any OpenAI client. A client that disconnects cancels its backend call. `limits` bound every
 * request (tokens, deadline, queue, nesting: see `RequestLimits`); client mistakes are 4xx.
 *
 * @example
 * ```ts
 * import { OpenAIServer } from 'haggle/server';
 *
 * // Any backend, e.g. a local OnnxBackend, behind /v1/chat/completions.
 * const server = new OpenAIServer({ backend });
 * const baseURL = await server.listen({ port: 8000 });
 * console.log(`serving at ${baseURL}`);
 * await server.close();
 * ```
 * @see The guide: [Remote backend and haggle serve](../../docs/remote.md).
 */
export class OpenAIServer {
  readonly backend: LanguageBackend;
  readonly models: readonly string[];
  private readonly server: Server;
  private readonly apiKey: Buffer | undefined;
  private readonly renderText: (messages: readonly ChatMessage[]) => string;
  private readonly maxBodyBytes: number;
  readonly limits: RequestLimits;
  private readonly admission: Admission;
  private readonly created = Math.floor(Date.now() / 1000);
  private readonly onFailure: ((failure: ServerFailure) => void) | undefined;
  private readonly onClientClosed: ((event: ClientClosed) => void) | undefined;
  private readonly logRedactor: Redactor;
  private readonly cors: CorsPolicy;
  /** The close in progress, which later calls of `close()` wait for. */
  private closing: Promise<void> | undefined;

  constructor(options: OpenAIServerOptions) {
    this.backend = options.backend;
    this.models =
      options.models && options.models.length > 0 ? [...options.models] : [options.backend.modelId];
    this.apiKey = options.apiKey ? Buffer.from(options.apiKey) : undefined;
    this.renderText = options.renderText ?? renderQwen3NoThink;
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.limits = { ...DEFAULT_REQUEST_LIMITS, ...options.limits };
    this.admission = new Admission(this.limits.maxQueue);
    this.onFailure = options.onFailure;
    this.onClientClosed = options.onClientClosed;
    this.logRedactor = new Redactor(options.apiKey ? [options.apiKey] : []);
    this.cors = new CorsPolicy(options.cors);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        const answer = toHttpError(error);
        // A 503 is a backend saying it is restarting: it reported its cause once, not per request.
        if (answer.status >= 500 && answer.status !== 503) this.reportFailure(req, answer.status, error);
        sendError(res, answer);
      });
    });
  }

  /** Starts listening; resolves with the API root clients use as their base URL (`…/v1`). */
  listen(options: ListenOptions = {}): Promise<string> {
    const host = options.host ?? '127.0.0.1';
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(options.port ?? 0, host, () => {
        this.server.off('error', reject);
        resolve(this.url as string);
      });
    });
  }

  /** `http://host:port/v1` once listening. */
  get url(): string | undefined {
    const address = this.server.address() as AddressInfo | null;
    if (!address || typeof address !== 'object') return undefined;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}/v1`;
  }

  /**
   * Stops accepting connections and closes open ones (keep-alive clients would hold it open).
   * Idempotent: every call while closing, and after, resolves when the server has closed. The backend
   * is the caller's: it is not disposed of here.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    if (!this.server.listening) return Promise.resolve();
    this.closing = new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    }).finally(() => {
      this.closing = undefined;
    });
    return this.closing;
  }

  /** Closes the server (`close()`), for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '') ?? '';
    // Before the API key: a preflight never carries one.
    if (this.cors.handle(req, res)) return;
    if (path === '/health' && req.method === 'GET') {
      // The backend's own word (a model reloading after its worker ended is not ready: 503).
      const health = this.backend.health?.() ?? { status: 'ok' };
      return sendJson(res, health.status === 'ok' ? 200 : 503, health);
    }
    this.authorize(req);
    if (path === '/v1/models' && req.method === 'GET') {
      return sendJson(res, 200, { object: 'list', data: this.models.map((id) => this.modelObject(id)) });
    }
    if (path.startsWith('/v1/models/') && req.method === 'GET') {
      const id = decodePathSegment(path.slice('/v1/models/'.length));
      if (!this.models.includes(id)) throw modelNotFound(id);
      return sendJson(res, 200, this.modelObject(id));
    }
    if (path === '/v1/chat/completions' || path === '/v1/completions') {
      if (req.method !== 'POST')
        throw new HttpError({ status: 405, message: `${path} takes POST`, errorCode: 'method_not_allowed' });
      const kind = path === '/v1/chat/completions' ? 'chat' : 'completions';
      let leave: () => void;
      try {
        leave = this.admission.enter();
      } catch (error) {
        req.resume(); // the body is not read: drain it so the connection can serve the next request
        throw error;
      }
      // The deadline runs from arrival: a client that trickles its body in spends its own time.
      const deadline = new Deadline(this.limits.requestTimeoutMs);
      try {
        const body = await deadline.race(readJsonBody(req, this.maxBodyBytes));
        const depth = jsonDepth(body, this.limits.maxJsonDepth);
        if (depth > this.limits.maxJsonDepth) {
          throw new HttpError({
            status: 400,
            message:
              `the request body nests over ${this.limits.maxJsonDepth} levels of arrays and objects; ` +
              'flatten the schema or the content',
            errorCode: 'too_deep',
          });
        }
        const request: AnyCompletionRequest =
          kind === 'chat' ? parseChatRequest(body) : parseCompletionRequest(body);
        const toolCall = toolCallPlanOf(request);
        try {
          return await this.complete(req, res, request, kind, deadline, toolCall);
        } catch (error) {
          throw toolCall ? asToolsMistake(error) : error;
        }
      } finally {
        deadline.clear();
        leave();
      }
    }
    throw new HttpError({
      status: 404,
      message: `no route for ${req.method} ${path}`,
      errorCode: 'not_found',
    });
  }

  private async complete(
    req: IncomingMessage,
    res: ServerResponse,
    request: AnyCompletionRequest,
    kind: 'chat' | 'completions',
    deadline: Deadline,
    toolCall: ToolCallPlan | undefined,
  ): Promise<void> {
    if (!this.models.includes(request.model)) throw modelNotFound(request.model);
    // The client hanging up (before the answer is written) cancels the backend call; so does the deadline.
    const controller = new AbortController();
    const arrived = performance.now();
    let clientClosed = false;
    const onClose = () => {
      if (res.writableFinished || controller.signal.aborted) return;
      clientClosed = true;
      controller.abort(new Error('the client closed the connection'));
    };
    res.on('close', onClose);
    req.on('error', onClose);
    deadline.onExpiry(() => controller.abort(deadline.error()));
    const { options, warnings: limitWarnings } = capMaxTokens(
      toGenerateOptions(request, this.renderText, controller.signal, toolCall),
      this.limits.maxTokens,
    );
    // Who asked, for a backend's fair shares (the ONNX backend's schema vetting, issue 40).
    options.client = req.socket.remoteAddress ?? '';
    const meta: ResponseMeta = {
      id: `${kind === 'chat' ? 'chatcmpl' : 'cmpl'}-${randomUUID()}`,
      created: Math.floor(Date.now() / 1000),
      model: request.model,
    };

    if (request.stream) {
      const includeUsage = request.stream_options?.include_usage === true;
      return this.stream(
        req,
        res,
        { options, limitWarnings, meta, kind, includeUsage, deadline, arrived, toolCall },
        () => (clientClosed && !deadline.expired ? performance.now() - arrived : undefined),
      );
    }

    let generated: GenerateResult;
    try {
      // The deadline answers at its time whatever the backend is doing; the abort above stops its work.
      generated = await deadline.bound(this.backend.doGenerate(options));
    } catch (error) {
      if (clientClosed && !deadline.expired) {
        this.reportClientClosed(req, performance.now() - arrived);
        return;
      }
      throw deadline.expired ? deadline.error() : error;
    }
    if (clientClosed && !deadline.expired) {
      this.reportClientClosed(req, performance.now() - arrived);
      return;
    }
    if (deadline.expired) throw deadline.error();
    const result = { ...generated, warnings: [...generated.warnings, ...limitWarnings] };
    const headers: Record<string, string> =
      result.warnings.length > 0 ? { 'x-haggle-warnings': headerJson(result.warnings) } : {};

    sendJson(
      res,
      200,
      kind === 'chat' ? chatCompletion(meta, result, toolCall) : textCompletion(meta, result),
      headers,
    );
  }

  /**
   * A streamed answer, chunk by chunk as the backend writes (its `doStream`; a backend without one
   * answers whole, as one delta per choice). Headers wait for the backend's first part, so a schema it
   * refuses or a deadline before any text is the same 4xx or 504 as without streaming. A failure after
   * the first byte ends the stream with an OpenAI-style `error` event and no `[DONE]`. The client
   * hanging up aborts the backend's work (the local backend frees the row in its batch).
   */
  private async stream(
    req: IncomingMessage,
    res: ServerResponse,
    call: {
      options: GenerateOptions;
      limitWarnings: BackendWarning[];
      meta: ResponseMeta;
      kind: 'chat' | 'completions';
      includeUsage: boolean;
      deadline: Deadline;
      arrived: number;
      toolCall: ToolCallPlan | undefined;
    },
    closedAfter: () => number | undefined,
  ): Promise<void> {
    const { deadline } = call;
    const parts = streamGenerate(this.backend, call.options)[Symbol.asyncIterator]();
    const stop = () => parts.return?.()?.catch(() => undefined);
    let next: IteratorResult<BackendStreamPart>;
    try {
      next = await deadline.bound(parts.next());
    } catch (error) {
      await stop();
      const closed = closedAfter();
      if (closed !== undefined) return this.reportClientClosed(req, closed);
      throw deadline.expired ? deadline.error() : error;
    }
    const chunks = new StreamChunks(call.meta, call.kind, call.toolCall);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      // Only the server's own warnings (a capped max_tokens): the backend's come with its last part,
      // after the headers have gone.
      ...(call.limitWarnings.length > 0 ? { 'x-haggle-warnings': headerJson(call.limitWarnings) } : {}),
    });
    let sentText = false;
    try {
      for (; !next.done; next = await deadline.bound(parts.next())) {
        const part = next.value;
        if (part.type === 'text-delta') {
          for (const chunk of chunks.delta(part.index, part.delta)) await send(res, chunk, deadline);
          sentText = true;
        } else if (part.type === 'reset') {
          // OpenAI's stream format cannot take text back: a client would join both attempts' text.
          if (sentText)
            throw new HttpError({
              status: 502,
              message: 'the backend retried after its stream had begun; ask again',
              errorCode: 'stream_reset',
            });
        } else {
          for (const chunk of chunks.finish(part.result, call.includeUsage)) await send(res, chunk, deadline);
          res.end('data: [DONE]\n\n');
          return;
        }
      }
      throw new HttpError({
        status: 502,
        message: 'the backend stream ended without its final part',
        errorCode: 'stream_incomplete',
      });
    } catch (error) {
      await stop();
      const closed = closedAfter();
      if (closed !== undefined) return this.reportClientClosed(req, closed);
      const answer = toHttpError(deadline.expired ? deadline.error() : error);
      if (answer.status >= 500 && answer.status !== 503) this.reportFailure(req, answer.status, error);
      // A client that stopped reading would hold the socket (and megabytes unread in it) for ever
      // behind an error event it never reads: it is cut off instead.
      if (res.writableNeedDrain) res.destroy();
      else if (!res.destroyed) res.end(`data: ${JSON.stringify(answer.toJSON())}\n\n`);
    }
  }

  private reportClientClosed(req: IncomingMessage, afterMs: number): void {
    if (!this.onClientClosed) return;
    try {
      this.onClientClosed({
        method: req.method ?? 'GET',
        path: this.logRedactor.text((req.url ?? '/').split('?')[0] ?? '/'),
        afterMs: Math.round(afterMs),
      });
    } catch {
      // The operator's listener is not the client's problem.
    }
  }

  /** Hands a 5xx answer to `onFailure`, its cause redacted; a throwing listener never breaks the answer. */
  private reportFailure(req: IncomingMessage, status: number, error: unknown): void {
    if (!this.onFailure) return;
    try {
      this.onFailure({
        status,
        method: req.method ?? 'GET',
        path: this.logRedactor.text((req.url ?? '/').split('?')[0] ?? '/'),
        message: describeFailure(error, this.logRedactor),
        error,
      });
    } catch {
      // The operator's listener is not the client's problem.
    }
  }

  private authorize(req: IncomingMessage): void {
    if (!this.apiKey) return;
    const header = req.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (given.length !== this.apiKey.length || !timingSafeEqual(given, this.apiKey)) {
      throw new HttpError({
        status: 401,
        message: 'missing or wrong API key',
        type: 'authentication_error',
        errorCode: 'invalid_api_key',
      });
    }
  }

  private modelObject(id: string) {
    return { id, object: 'model', created: this.created, owned_by: 'haggle' };
  }
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError({
      status: 400,
      message: `the path segment ${JSON.stringify(segment)} is not valid percent-encoding`,
      errorCode: 'invalid_path',
    });
  }
}

function modelNotFound(model: string): HttpError {
  return new HttpError({
    status: 404,
    message: `The model ${JSON.stringify(model)} does not exist on this server`,
    errorCode: 'model_not_found',
    param: 'model',
  });
}

/**
 * Writes one SSE event, waiting while the socket's buffer is full (a slow reader slows the stream),
 * but not past the request's deadline: a client that opens a stream and stops reading would otherwise
 * hold its admission slot for as long as it keeps the connection open.
 */
async function send(res: ServerResponse, chunk: Record<string, unknown>, deadline: Deadline): Promise<void> {
  if (res.destroyed) throw new HttpError({ status: 499, message: 'the client closed the connection' });
  if (res.write(`data: ${JSON.stringify(chunk)}\n\n`)) return;
  await deadline.bound(
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    }),
  );
}

/**
 * What a client may see of an error: typed haggle errors by their message, anything else generically.
 * A backend's failure passes the shared redaction once more on its way out: a remote backend cleaned
 * its own key from it, and this catches anything shaped like a credential (a bearer token, a URL's
 * user:password, an `api-key=` parameter) that an upstream put there.
 */
function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (HaggleError.isInstance(error)) {
    const refused = clientMistake(error);
    if (refused) return refused;
    const message = redact(error.message);
    const status = (error as { status?: unknown }).status;
    if (status === 429)
      return new HttpError({ status: 429, message, type: 'rate_limit_error', errorCode: error.code });
    // A backend that is reloading (its worker ended): the client may retry in a moment.
    if (status === 503) {
      return new HttpError({
        status: 503,
        message,
        type: 'server_error',
        errorCode: 'backend_unavailable',
        headers: { 'retry-after': '1' },
      });
    }
    // An upstream that refused the request itself (a schema it cannot take): the client's to fix, and a
    // 502 would make its client send the same request again.
    if (status === 400 || status === 422) return new HttpError({ status, message, errorCode: error.code });
    return new HttpError({ status: 502, message, type: 'server_error', errorCode: error.code });
  }
  return new HttpError({ status: 500, message: 'internal server error', errorCode: 'internal_error' });
}
