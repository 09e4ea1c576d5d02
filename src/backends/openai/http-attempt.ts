import { HaggleAbortError } from '../../contract/errors.js';
import { ResponseOverLimitError } from '../../internal/errors.js';
import type { Redactor } from '../../internal/redact.js';
import type { BackendWarning } from '../language-backend.js';
import { statusFailure, thrownFailure } from './attempt-classify.js';
import type { AttemptFailure } from './attempt-failure.js';
import { AttemptTimer } from './attempt-timer.js';
import type { HttpTransport } from './node-transport.js';

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
  const timer = new AttemptTimer(args.timeoutMs, args.deadline, signal);
  try {
    const response = await args.transport(args.url, {
      method: 'POST',
      headers: args.headers,
      body: args.body,
      signal: timer.controller.signal,
      maxResponseBytes: args.maxResponseBytes,
    });
    const text = await response.text();
    if (!response.ok) return { ok: false, failure: statusFailure(response, text, args.redactor) };
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
    if (error instanceof ResponseOverLimitError) {
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
    return {
      ok: false,
      failure: thrownFailure(error, {
        ...args,
        timer,
        incomplete: 'no complete response',
        during: 'the request',
      }),
    };
  } finally {
    timer.dispose();
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
