import { ResponseOverLimitError } from '../../internal/errors.js';
import { readLimited } from '../../internal/limited-body.js';
import type { HttpTransport } from './node-transport.js';
import { bodyLimit, declaredLength } from './response-limit.js';

/**
 * The transport over a `fetch` the user passed in (one with a proxy dispatcher, a runtime's own, a
 * test double), under the same limits as the `node:http` one: the body is read as a stream and the
 * stream is cancelled at the limit, so `fetch` never builds the whole of a huge answer either.
 */
export function createFetchTransport(fetchImpl: typeof fetch): HttpTransport {
  return async (url, init) => {
    const target = withoutUserinfo(url, init.headers);
    const response = await fetchImpl(target.url, {
      method: init.method,
      headers: target.headers,
      body: init.body,
      signal: init.signal,
    });
    const limit = bodyLimit(response.status, init.maxResponseBytes);
    const declared = declaredLength(response.headers.get('content-length'));
    if (response.ok && declared !== undefined && declared > limit) {
      await cancelQuietly(response.body);
      throw new ResponseOverLimitError({ limitBytes: limit, declaredBytes: declared });
    }
    const text = await readLimited(response, limit);
    return {
      ok: response.ok,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text: () => Promise.resolve(text),
    };
  };
}

/**
 * `fetch` refuses a URL with user:password (a WHATWG rule), which would fail every attempt as a
 * connection error. As `node:http` does, the userinfo becomes `Authorization: Basic` unless the
 * request already has an Authorization header (the API key's `Bearer`, which wins).
 */
export function withoutUserinfo(
  url: string,
  headers: Record<string, string>,
): { url: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url, headers };
  const basic = btoa(
    String.fromCharCode(
      ...new TextEncoder().encode(
        `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`,
      ),
    ),
  );
  parsed.username = '';
  parsed.password = '';
  const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  return {
    url: parsed.toString(),
    headers: hasAuthorization ? headers : { ...headers, authorization: `Basic ${basic}` },
  };
}

async function cancelQuietly(body: ReadableStream<Uint8Array> | null): Promise<void> {
  try {
    await body?.cancel();
  } catch {
    // Already closed or errored: nothing left to free.
  }
}
