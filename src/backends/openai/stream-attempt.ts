import { HaggleAbortError } from '../../contract/errors.js';
import type { Redactor } from '../../internal/redact.js';
import { SseLineTooLongError } from '../errors.js';
import type { FinishReason, GenerateChoice, Usage } from '../language-backend.js';
import { statusFailure, thrownFailure } from './attempt-classify.js';
import type { AttemptFailure } from './attempt-failure.js';
import { AttemptTimer } from './attempt-timer.js';
import type { Endpoint } from './dialect.js';
import { readServerWarnings } from './http-attempt.js';
import type { ParsedResponse } from './response-parsing.js';
import { SseReader } from './sse-reader.js';
import { parseStreamChunk } from './stream-chunk.js';
import type { HttpStreamTransport } from './stream-transport.js';

/**
 * The longest line (one event's data) of a stream read: 1 MiB. haggle's choice: a chunk of a streamed
 * answer is a few hundred bytes (one token of up to 16 choices); a server that sends a 10 MB line is
 * broken or hostile, and buffering it waiting for its end is how a client runs out of memory.
 */
export const MAX_STREAM_LINE_BYTES = 1024 * 1024;

export interface StreamAttemptArgs {
  url: string;
  headers: Record<string, string>;
  body: string;
  endpoint: Endpoint;
  /** Choices asked for: every one must finish before `[DONE]`. */
  n: number;
  timeoutMs: number;
  deadline: number;
  signal: AbortSignal;
  redactor: Redactor;
  transport: HttpStreamTransport;
  /** The whole stream's bytes are bounded like a whole answer's. */
  maxResponseBytes: number;
}

export type StreamAttemptOutcome =
  | { ok: true; response: ParsedResponse; serverWarnings: ReturnType<typeof readServerWarnings> }
  | { ok: false; failure: AttemptFailure };

/**
 * One streamed POST: yields each text delta (`{ index, text }`) as its event arrives, then returns the
 * whole answer, or the failure classified as `attemptRequest` classifies it (status, timeout,
 * connection, too large, invalid). The attempt's timer covers the whole stream, so a stalled stream
 * is a timeout; a stream that ends without `[DONE]` was cut short (a connection failure). Returning
 * early (the caller abandoned it) closes the connection. The caller's abort is the only thing that throws.
 */
export async function* streamAttempt(
  args: StreamAttemptArgs,
): AsyncGenerator<{ index: number; text: string }, StreamAttemptOutcome> {
  const { signal } = args;
  if (signal.aborted) throw new HaggleAbortError(signal.reason);
  const timer = new AttemptTimer(args.timeoutMs, args.deadline, signal);
  let cancel: (() => void) | undefined;
  let finished = false;

  try {
    const response = await args.transport(args.url, {
      method: 'POST',
      headers: args.headers,
      body: args.body,
      signal: timer.controller.signal,
      maxResponseBytes: args.maxResponseBytes,
    });
    cancel = response.cancel;
    if (!response.ok) {
      const text = await response.errorText();
      finished = true;
      return { ok: false, failure: statusFailure(response, text, args.redactor) };
    }
    const serverWarnings = readServerWarnings(response.headers, args.redactor);
    const reader = new SseReader(MAX_STREAM_LINE_BYTES);
    const texts = new Map<number, string[]>();
    const reasons = new Map<number, FinishReason>();
    let usage: Usage | undefined;
    let id: string | undefined;
    let model: string | undefined;
    let size = 0;
    let done = false;
    const invalid = (message: string): StreamAttemptOutcome => ({
      ok: false,
      failure: { kind: 'invalid-response', retryable: true, message: args.redactor.text(message) },
    });

    for await (const bytes of response.body) {
      size += bytes.length;
      if (size > args.maxResponseBytes) return tooLarge(args.maxResponseBytes, 'the stream');
      for (const data of reader.push(bytes)) {
        if (done) continue; // after [DONE] nothing counts
        if (data === '[DONE]') {
          done = true;
          continue;
        }
        const chunk = parseStreamChunk(data, args.endpoint);
        if (typeof chunk === 'string') return invalid(chunk);
        id ??= chunk.id;
        model ??= chunk.model;
        if (chunk.usage) usage = chunk.usage;
        for (const delta of chunk.deltas) {
          if (delta.index < 0 || delta.index >= args.n)
            return invalid(`a stream event is for choice ${delta.index} of ${args.n}`);
          const pieces = texts.get(delta.index) ?? [];
          pieces.push(delta.text);
          texts.set(delta.index, pieces);
          yield delta;
        }
        for (const end of chunk.finished) reasons.set(end.index, end.reason);
      }
      if (done) break;
    }
    reader.end();
    finished = true;
    if (!done) {
      return {
        ok: false,
        failure: {
          kind: 'connection',
          retryable: true,
          message: 'connection failed: the stream ended without its closing "data: [DONE]" (cut short)',
        },
      };
    }
    const choices: GenerateChoice[] = [];
    for (let index = 0; index < args.n; index++) {
      const text = (texts.get(index) ?? []).join('');
      choices.push({ text, finishReason: reasons.get(index) ?? 'other' });
    }
    return {
      ok: true,
      response: { choices, usage: usage ?? { promptTokens: 0, completionTokens: 0 }, id, model },
      serverWarnings,
    };
  } catch (error) {
    if (signal.aborted) throw new HaggleAbortError(signal.reason);
    if (error instanceof SseLineTooLongError) return tooLarge(error.limitBytes, 'one line of the stream');
    return {
      ok: false,
      failure: thrownFailure(error, {
        ...args,
        timer,
        incomplete: 'the stream did not complete',
        during: 'the stream',
      }),
    };
  } finally {
    timer.dispose();
    // Abandoned, failed or over a limit before the body's end: the connection goes, not back to the pool.
    if (!finished) {
      cancel?.();
      // `fetch` may otherwise keep the socket to drain the body; aborting its request destroys it.
      if (!timer.controller.signal.aborted) timer.controller.abort(new Error('the stream was closed'));
    }
  }
}

function tooLarge(limitBytes: number, what: string): StreamAttemptOutcome {
  return {
    ok: false,
    failure: {
      kind: 'too-large',
      retryable: false,
      limitBytes,
      message: `${what} grew past the limit of ${limitBytes} bytes; reading stopped there and the connection was closed`,
    },
  };
}
