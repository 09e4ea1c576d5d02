import { HaggleAbortError } from '../../contract/errors.js';
import { ResponseOverLimit } from '../../internal/limited-body.js';
import type { Redactor } from '../../internal/redact.js';
import type { BackendWarning } from '../language-backend.js';
import type { AttemptFailure } from './attempt-failure.js';
import { crossOriginFailure } from './cross-origin.js';
import type { HttpTransport } from './node-transport.js';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';

export type { AttemptFailure } from './attempt-failure.js';

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
  /** Cleans everything the server sent before it goes into a message. */
  redactor: Redactor;
  transport: HttpTransport;
  maxResponseBytes: number;
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
      maxResponseBytes: args.maxResponseBytes,
    });
    const text = await response.text();
    if (!response.ok) {
      const preview = args.redactor.preview(text);
      // The reason phrase is the server's text too: a proxy may put the key in it.
      const reason = args.redactor.preview(response.statusText, 120);
      const retryAfterMs = parseRetryAfter(response.headers);
      return {
        ok: false,
        failure: {
          kind: 'status',
          status: response.status,
          retryable: isRetryableStatus(response.status),
          message: `HTTP ${response.status}${reason ? ` ${reason}` : ''}${preview ? `: ${preview}` : ''}`,
          responseBody: preview,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        },
      };
    }
    try {
      return {
        ok: true,
        json: JSON.parse(text),
        serverWarnings: readServerWarnings(response.headers, args.redactor),
      };
    } catch {
      return {
        ok: false,
        failure: {
          kind: 'invalid-response',
          retryable: true,
          message: `the response is not JSON: ${JSON.stringify(args.redactor.preview(text, 80))}`,
        },
      };
    }
  } catch (error) {
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);
    if (error instanceof ResponseOverLimit) {
      return {
        ok: false,
        failure: {
          kind: 'too-large',
          // The same server would send the same answer again.
          retryable: false,
          limitBytes: error.limitBytes,
          message: `${error.message} (maxResponseBytes); reading stopped there and the connection was closed`,
        },
      };
    }
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
    const crossOrigin = crossOriginFailure(args.url, error);
    if (crossOrigin)
      return { ok: false, failure: { ...crossOrigin, message: args.redactor.text(crossOrigin.message) } };
    return {
      ok: false,
      failure: {
        kind: 'connection',
        retryable: true,
        message: `connection failed: ${args.redactor.text(describeNetworkError(error))}`,
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

/** The warnings a response's headers carry (`haggle serve` sends its backend's), redacted. */
export function readServerWarnings(
  headers: { get(name: string): string | null },
  redactor: Redactor,
): BackendWarning[] {
  return serverWarnings(headers.get(WARNINGS_HEADER), redactor);
}

/**
 * The upstream's warnings, redacted like any text a server sends. `haggle serve` writes the header as
 * ASCII JSON; a server that sent raw UTF-8 bytes arrives here as Latin-1 (Node's reading of header
 * bytes) and is decoded back.
 */
function serverWarnings(header: string | null, redactor: Redactor): BackendWarning[] {
  if (!header) return [];
  try {
    const value: unknown = JSON.parse(utf8FromLatin1(header));
    if (!Array.isArray(value)) return [];
    return value
      .filter(
        (item): item is BackendWarning =>
          typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string',
      )
      .map((item) => redactWarning(item, redactor));
  } catch {
    return [];
  }
}

function redactWarning(warning: BackendWarning, redactor: Redactor): BackendWarning {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(warning)) {
    out[name] = typeof value === 'string' ? redactor.text(value) : value;
  }
  return out as unknown as BackendWarning;
}

/** Header text whose characters are all bytes (<= 0xFF) read back as UTF-8, when it is valid UTF-8. */
function utf8FromLatin1(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is for bytes above ASCII
  if (!/[\u0080-\u00ff]/.test(text) || /[^\u0000-\u00ff]/.test(text)) return text;
  const bytes = Uint8Array.from(text, (char) => char.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return text;
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
