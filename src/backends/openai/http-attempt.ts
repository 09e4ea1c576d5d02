import { HaggleAbortError } from '../../contract/errors.js';
import type { BackendWarning } from '../language-backend.js';
import type { FailureKind } from './http-errors.js';
import type { HttpTransport } from './node-transport.js';
import { bodyPreview, redact } from './redaction.js';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';

/** Why one attempt failed, before it is known whether it was the last one. */
export interface AttemptFailure {
  kind: FailureKind;
  status?: number;
  retryable: boolean;
  /** What the server asked us to wait (`retry-after`), if it said. */
  retryAfterMs?: number;
  /** For timeouts: which limit fired. */
  scope?: 'attempt' | 'total';
  /** One redacted sentence. */
  message: string;
  responseBody?: string;
  cause?: unknown;
}

export type AttemptResult =
  | { ok: true; json: unknown; serverWarnings: BackendWarning[] }
  | { ok: false; failure: AttemptFailure };

export interface AttemptArgs {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Epoch ms after which the whole call is over. */
  deadline: number;
  signal: AbortSignal | undefined;
  secrets: readonly string[];
  transport: HttpTransport;
}

/**
 * One POST with its own timer (the shorter of the per-attempt timeout and what is left of the total),
 * the caller's signal wired to the socket, and every failure classified. The body is read under the
 * same timer, so a server that hangs mid-body counts as a timeout, and one that closes mid-body as a
 * connection failure. The caller's abort is the only thing that throws.
 */
export async function attemptRequest(args: AttemptArgs): Promise<AttemptResult> {
  const { signal } = args;
  if (signal?.aborted) throw new HaggleAbortError(signal.reason);
  const remaining = args.deadline - Date.now();
  const scope: 'attempt' | 'total' = args.timeoutMs < remaining ? 'attempt' : 'total';
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    },
    Math.max(0, Math.min(args.timeoutMs, remaining)),
  );
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const response = await args.transport(args.url, {
      method: 'POST',
      headers: args.headers,
      body: args.body,
      signal: controller.signal,
    });
    const text = await response.text();
    if (!response.ok) {
      const preview = bodyPreview(text, args.secrets);
      const retryAfterMs = parseRetryAfter(response.headers);
      return {
        ok: false,
        failure: {
          kind: 'status',
          status: response.status,
          retryable: isRetryableStatus(response.status),
          message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${preview ? `: ${preview}` : ''}`,
          responseBody: preview,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        },
      };
    }
    try {
      return {
        ok: true,
        json: JSON.parse(text),
        serverWarnings: serverWarnings(response.headers.get(WARNINGS_HEADER)),
      };
    } catch {
      return {
        ok: false,
        failure: {
          kind: 'invalid-response',
          retryable: true,
          message: `the response is not JSON: ${JSON.stringify(bodyPreview(text, args.secrets, 80))}`,
        },
      };
    }
  } catch (error) {
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);
    if (timedOut) {
      return {
        ok: false,
        failure: {
          kind: 'timeout',
          scope,
          // Another attempt fits only when the per-attempt limit fired, not the total one.
          retryable: scope === 'attempt',
          message:
            scope === 'attempt'
              ? `no complete response within the attempt timeout of ${args.timeoutMs} ms`
              : 'the total timeout ran out during the request',
        },
      };
    }
    return {
      ok: false,
      failure: {
        kind: 'connection',
        retryable: true,
        message: `connection failed: ${redact(describeNetworkError(error), args.secrets)}`,
        cause: error,
      },
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** `haggle serve` passes its backend's warnings on in this header, so they reach the remote agent. */
const WARNINGS_HEADER = 'x-haggle-warnings';

function serverWarnings(header: string | null): BackendWarning[] {
  if (!header) return [];
  try {
    const value: unknown = JSON.parse(header);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (item): item is BackendWarning =>
        typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string',
    );
  } catch {
    return [];
  }
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
