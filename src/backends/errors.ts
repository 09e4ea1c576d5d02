import { BackendError, HaggleError } from '../contract/errors.js';

/** How one HTTP attempt failed; decides whether another attempt may help. */
export type FailureKind = 'status' | 'timeout' | 'connection' | 'invalid-response' | 'too-large';

/** What every remote backend error carries: the message, the backend, the replica and the attempt. */
export interface RemoteErrorArgs {
  message: string;
  /** `openai-compatible:<model>`, the same name the agent uses for the backend. */
  backend: string;
  /** The replica's URL without credentials, e.g. `http://10.0.0.5:8000/v1`. */
  replica: string;
  kind: FailureKind;
  status?: number;
  retryable: boolean;
  attempts: number;
  /** The start of the server's error body, credentials removed; for `status` failures. */
  responseBody?: string;
  cause?: unknown;
}

/**
 * A request to an OpenAI-compatible server failed after every attempt the retry policy allowed. Says
 * which replica answered last, with which status, after how many attempts. Never holds the API key:
 * messages and bodies pass through redaction before they get here.
 */
export class RemoteBackendError extends BackendError {
  static override readonly marker: string = 'haggle.error.RemoteBackendError';
  readonly replica: string;
  readonly kind: FailureKind;
  readonly responseBody: string | undefined;

  constructor(args: RemoteErrorArgs) {
    super({
      message: args.message,
      backend: args.backend,
      retryable: args.retryable,
      attempts: args.attempts,
      cause: args.cause,
      ...(args.status !== undefined ? { status: args.status } : {}),
    });
    this.name = 'RemoteBackendError';
    this.replica = args.replica;
    this.kind = args.kind;
    this.responseBody = args.responseBody;
  }
}

/**
 * The server answered with an HTTP error status. Subclasses name the common ones, as openai-node does:
 * each is one line, its `name`, over this base (which holds the status and the constructor).
 */
export class HttpStatusError extends RemoteBackendError {
  static override readonly marker: string = 'haggle.error.HttpStatusError';
  declare readonly status: number;
  constructor(args: RemoteErrorArgs & { status: number }) {
    super({ ...args, kind: 'status' });
    this.name = 'HttpStatusError';
  }
}

/** 400: the server refused the request as malformed (a schema it cannot enforce, a bad field). */
export class BadRequestError extends HttpStatusError {
  static override readonly marker: string = 'haggle.error.BadRequestError';
  override name = 'BadRequestError';
}

/** 401: no API key, or a wrong one. */
export class AuthenticationError extends HttpStatusError {
  static override readonly marker: string = 'haggle.error.AuthenticationError';
  override name = 'AuthenticationError';
}

/** 403: the key may not use this model or endpoint. */
export class PermissionDeniedError extends HttpStatusError {
  static override readonly marker: string = 'haggle.error.PermissionDeniedError';
  override name = 'PermissionDeniedError';
}

/**
 * 404: usually a wrong base URL, or a model (LoRA adapter) name the server does not serve. Where the
 * base URL looks like one of the common mistakes (no `/v1`, or the full `/chat/completions` endpoint),
 * the message says "did you mean" and `suggestedBaseURL` holds the corrected URL.
 */
export class NotFoundError extends HttpStatusError {
  static override readonly marker: string = 'haggle.error.NotFoundError';
  /** The base URL the request probably meant (without credentials); undefined when it looked right. */
  readonly suggestedBaseURL: string | undefined;

  constructor(args: RemoteErrorArgs & { status: number; suggestedBaseURL?: string }) {
    super(args);
    this.name = 'NotFoundError';
    this.suggestedBaseURL = args.suggestedBaseURL;
  }
}

/** 422: the request is well-formed but the server cannot act on it. */
export class UnprocessableEntityError extends HttpStatusError {
  static override readonly marker: string = 'haggle.error.UnprocessableEntityError';
  override name = 'UnprocessableEntityError';
}

/** 429: too many requests; retried after `retry-after` when the policy allows. */
export class RateLimitError extends HttpStatusError {
  static override readonly marker: string = 'haggle.error.RateLimitError';
  override name = 'RateLimitError';
}

/** 5xx: the server failed; retried when the policy allows. */
export class InternalServerError extends HttpStatusError {
  static override readonly marker: string = 'haggle.error.InternalServerError';
  override name = 'InternalServerError';
}

/** No usable connection: refused, reset, or closed before the whole response arrived. */
export class RemoteConnectionError extends RemoteBackendError {
  static override readonly marker: string = 'haggle.error.RemoteConnectionError';
  constructor(args: RemoteErrorArgs) {
    super({ ...args, kind: 'connection' });
    this.name = 'RemoteConnectionError';
  }
}

/**
 * In a browser, a request to another origin that `fetch` rejected without a reason, most likely
 * because the server does not allow the page's origin (CORS). Browsers hide the reason from scripts
 * (their console shows it), so a server that is down fails the same way; the message says both and
 * names the fix for `haggle serve`: `--cors <pageOrigin>`. Not retried.
 */
export class CrossOriginRequestError extends RemoteConnectionError {
  static override readonly marker: string = 'haggle.error.CrossOriginRequestError';
  /** The origin of the page that made the request, e.g. `http://localhost:5173`. */
  readonly pageOrigin: string;
  /** The server's origin, e.g. `http://127.0.0.1:8000`. */
  readonly targetOrigin: string;

  constructor(args: RemoteErrorArgs & { pageOrigin: string; targetOrigin: string }) {
    super(args);
    this.name = 'CrossOriginRequestError';
    this.pageOrigin = args.pageOrigin;
    this.targetOrigin = args.targetOrigin;
  }
}

/** An attempt, or the whole call, ran out of time. */
export class RemoteTimeoutError extends RemoteBackendError {
  static override readonly marker: string = 'haggle.error.RemoteTimeoutError';
  /** `attempt`: one request took longer than `timeoutMs`; `total`: the call ran past `totalTimeoutMs`. */
  readonly scope: 'attempt' | 'total';
  constructor(args: RemoteErrorArgs & { scope: 'attempt' | 'total' }) {
    super({ ...args, kind: 'timeout' });
    this.name = 'RemoteTimeoutError';
    this.scope = args.scope;
  }
}

/** A 2xx answer that is not a chat or completions response (broken JSON, no choices). */
export class InvalidResponseError extends RemoteBackendError {
  static override readonly marker: string = 'haggle.error.InvalidResponseError';
  constructor(args: RemoteErrorArgs) {
    super({ ...args, kind: 'invalid-response' });
    this.name = 'InvalidResponseError';
  }
}

/**
 * A successful answer longer than `maxResponseBytes`: reading stopped at the limit and the connection
 * was closed, so the answer never filled memory. Not retried (the same server would send it again).
 * Raise `maxResponseBytes` if the server's answers are really this long; otherwise the server (or a
 * proxy in front of it) is broken or hostile.
 */
export class ResponseTooLargeError extends RemoteBackendError {
  static override readonly marker: string = 'haggle.error.ResponseTooLargeError';
  /** The limit in bytes the answer went past. */
  readonly limitBytes: number;
  /** The endpoint asked, without credentials (no user:password, no query). */
  readonly url: string;

  constructor(args: RemoteErrorArgs & { limitBytes: number; url: string }) {
    super({ ...args, kind: 'too-large', retryable: false });
    this.name = 'ResponseTooLargeError';
    this.limitBytes = args.limitBytes;
    this.url = args.url;
  }
}

/** The error class for an HTTP status, so callers can `instanceof` the case they handle. */
export function httpStatusError(
  args: RemoteErrorArgs & { status: number; suggestedBaseURL?: string },
): HttpStatusError {
  const { status } = args;
  if (status === 400) return new BadRequestError(args);
  if (status === 401) return new AuthenticationError(args);
  if (status === 403) return new PermissionDeniedError(args);
  if (status === 404) return new NotFoundError(args);
  if (status === 422) return new UnprocessableEntityError(args);
  if (status === 429) return new RateLimitError(args);
  if (status >= 500) return new InternalServerError(args);
  return new HttpStatusError(args);
}

/**
 * A backend was asked for by name but cannot be used in this build or on this machine (for example
 * the local ONNX backend before it ships). Thrown at configuration time, before any work starts, so a
 * CLI run or a server fails fast with a sentence a person can act on.
 */
export class BackendUnavailableError extends HaggleError {
  static override readonly marker: string = 'haggle.error.BackendUnavailableError';
  /** The backend's name as the user wrote it, e.g. `onnx`. */
  readonly backendName: string;

  constructor({ backendName, reason }: { backendName: string; reason: string }) {
    super({ code: 'backend-unavailable', message: `The ${backendName} backend is not available: ${reason}` });
    this.name = 'BackendUnavailableError';
    this.backendName = backendName;
  }
}

/** An SSE line (or one event's data) longer than the reader keeps. */
export class SseLineTooLongError extends HaggleError {
  static override readonly marker: string = 'haggle.error.SseLineTooLongError';
  constructor(readonly limitBytes: number) {
    super({
      code: 'sse-line-too-long',
      message: `an event of the stream grew past the limit of ${limitBytes} characters`,
    });
    this.name = 'SseLineTooLongError';
  }
}
