// How a failed attempt is classified, the same for a plain request and a streamed one: an HTTP error
// status, or what made it throw (its own timer, a cross-origin refusal, the connection).
import type { Redactor } from '../../internal/redact.js';
import type { AttemptFailure } from './attempt-failure.js';
import type { AttemptTimer } from './attempt-timer.js';
import { crossOriginFailure } from './cross-origin.js';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';

/** The status line and headers of an HTTP error answer, as both transports give them. */
interface ErrorStatus {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
}

/** An HTTP error status as a failure: retryable or not by status, `retry-after` honoured, text redacted. */
export function statusFailure(response: ErrorStatus, body: string, redactor: Redactor): AttemptFailure {
  const preview = redactor.preview(body);
  // The reason phrase is the server's text too: a proxy may put the key in it.
  const reason = redactor.preview(response.statusText, 120);
  const retryAfterMs = parseRetryAfter(response.headers);
  return {
    kind: 'status',
    status: response.status,
    retryable: isRetryableStatus(response.status),
    message: `HTTP ${response.status}${reason ? ` ${reason}` : ''}${preview ? `: ${preview}` : ''}`,
    responseBody: preview,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/**
 * What an attempt that threw (not by the caller's abort, which the caller rethrows) failed of: its own
 * timer, a browser's cross-origin refusal, or the connection. `incomplete` says what a time-out left
 * undone ("no complete response", "the stream did not complete"), `during` what was under way.
 */
export function thrownFailure(
  error: unknown,
  attempt: {
    url: string;
    timer: AttemptTimer;
    timeoutMs: number;
    redactor: Redactor;
    incomplete: string;
    during: string;
  },
): AttemptFailure {
  const { timer, redactor } = attempt;
  if (timer.timedOut) {
    return {
      kind: 'timeout',
      scope: timer.scope,
      // Another attempt fits only when the per-attempt limit fired, not the total one.
      retryable: timer.scope === 'attempt',
      message:
        timer.scope === 'attempt'
          ? `${attempt.incomplete} within the attempt timeout of ${attempt.timeoutMs} ms`
          : `the total timeout ran out during ${attempt.during}`,
    };
  }
  const crossOrigin = crossOriginFailure(attempt.url, error);
  if (crossOrigin) return { ...crossOrigin, message: redactor.text(crossOrigin.message) };
  return {
    kind: 'connection',
    retryable: true,
    message: `connection failed: ${redactor.text(describeNetworkError(error))}`,
    cause: error,
  };
}

/** `fetch failed (ECONNRESET: socket hang up)`: undici hides the useful part in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (cause && typeof cause === 'object') {
    const code = typeof cause.code === 'string' ? cause.code : undefined;
    const message = typeof cause.message === 'string' ? cause.message : undefined;
    const detail = [code, message].filter(Boolean).join(': ');
    if (detail) return `${error.message} (${detail})`;
  }
  return error.message;
}
