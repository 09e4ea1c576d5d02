import type { AttemptFailure } from './attempt-failure.js';

/**
 * The origin of the page (or web worker) this code runs in, or `undefined` outside a browser. Node,
 * Deno and Bun enforce no CORS, so only a `document` or a `WorkerGlobalScope` makes the origin count.
 * An opaque origin (`"null"`: a file:// page, a sandboxed frame) is left out: no `--cors` value fits it.
 */
export function browserOrigin(): string | undefined {
  const scope = globalThis as {
    document?: unknown;
    WorkerGlobalScope?: unknown;
    location?: { origin?: unknown };
  };
  if (scope.document === undefined && scope.WorkerGlobalScope === undefined) return undefined;
  const origin = scope.location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}

/**
 * The failure for a `fetch` that rejected with a bare `TypeError` in a browser page calling another
 * origin; `undefined` for anything else. A browser hides why (CORS refused, server down, DNS) behind
 * the same "Failed to fetch"; across origins CORS is the usual cause, so the message names it and the
 * `haggle serve --cors` fix. haggle's choice: not retried, since a refused origin is refused again
 * and five retries with backoff only delay the answer (a server that is down fails the same way, and
 * the message says so). undici's `TypeError` ("fetch failed") carries a `cause`; a browser's does not.
 */
export function crossOriginFailure(url: string, error: unknown): AttemptFailure | undefined {
  if (!(error instanceof TypeError) || error.cause !== undefined) return undefined;
  const page = browserOrigin();
  if (page === undefined) return undefined;
  let target: string;
  try {
    target = new URL(url).origin;
  } catch {
    return undefined;
  }
  if (target === page) return undefined;
  return {
    kind: 'connection',
    retryable: false,
    crossOrigin: { pageOrigin: page, targetOrigin: target },
    message:
      `the browser refused the cross-origin request from ${page} to ${target} (${JSON.stringify(error.message)}): ` +
      `most likely CORS, the server does not allow the origin ${page}; with haggle serve, start it with ` +
      `--cors ${page}. The browser's console shows the reason; a server that is down or unreachable fails the same way`,
    cause: error,
  };
}
