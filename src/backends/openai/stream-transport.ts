import { readLimited } from '../../internal/limited-body.js';
import { withoutUserinfo } from './fetch-transport.js';
import type { HeaderLookup, TransportInit } from './node-transport.js';
import { bodyLimit, ERROR_BODY_BYTES } from './response-limit.js';

/** A response whose body is read as it arrives (a streamed answer), not whole. */
export interface StreamingResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers: HeaderLookup;
  /** An error status's body, its start only (`ERROR_BODY_BYTES`); empty for a 2xx. */
  errorText(): Promise<string>;
  /** A 2xx body's bytes as they arrive; it throws when the connection fails or the signal fires. */
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and closes the connection (a stream abandoned or over its limits). */
  cancel(): void;
}

/** One POST whose 2xx body is handed out as it arrives; `init.signal` closes the connection. */
export type HttpStreamTransport = (url: string, init: TransportInit) => Promise<StreamingResponse>;

/** The streaming transport over a `fetch` (browsers, Deno, Bun, edge runtimes, or one the user passed). */
export function createFetchStreamTransport(fetchImpl: typeof fetch): HttpStreamTransport {
  return async (url, init) => {
    const target = withoutUserinfo(url, init.headers);
    const response = await fetchImpl(target.url, {
      method: init.method,
      headers: target.headers,
      body: init.body,
      signal: init.signal,
    });
    const body = response.body;
    const reader = response.ok && body && typeof body.getReader === 'function' ? body.getReader() : undefined;
    const cancel = () => {
      reader?.cancel().catch(() => undefined);
    };
    return {
      ok: response.ok,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      errorText: () =>
        response.ok
          ? Promise.resolve('')
          : readLimited(response, bodyLimit(response.status, ERROR_BODY_BYTES)),
      body: reader ? readChunks(reader) : wholeBody(response),
      cancel,
    };
  };
}

async function* readChunks(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** A test double's `Response` without a stream: its text, at once. */
async function* wholeBody(response: Response): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(await response.text());
}
