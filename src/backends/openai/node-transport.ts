import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ResponseOverLimitError } from '../../internal/errors.js';
import { bodyLimit, declaredLength } from './response-limit.js';

/** Header lookup by lower-case name; `fetch`'s `Headers` satisfies it. */
export interface HeaderLookup {
  /** The header's value, or `null` when the response has none. */
  get(name: string): string | null;
}

/** What one attempt needs from an HTTP client; `fetch` satisfies it, and so does the Node transport. */
export interface TransportResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers: HeaderLookup;
  text(): Promise<string>;
}

export interface TransportInit {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /**
   * A 2xx body longer than this rejects with `ResponseOverLimitError` (reading stops there); an error
   * status's body is cut at `ERROR_BODY_BYTES` instead, since only its start is shown.
   */
  maxResponseBytes: number;
}

/**
 * One POST, its body read whole (within the limits of `init.maxResponseBytes`) before the promise
 * resolves, so the attempt's timer covers the body too.
 */
export type HttpTransport = (url: string, init: TransportInit) => Promise<TransportResponse>;

/**
 * POSTs through `node:http` with a keep-alive agent. Node 20's built-in `fetch` spends several times
 * more CPU per request than `node:http` (measured in bench/remote.ts), which at 64 sessions against
 * a fast server is the difference between using the server and waiting on ourselves. The body is read
 * whole before the promise resolves, counted as it arrives: past its limit the socket is destroyed, so
 * a server cannot make us hold more than the limit. An abort destroys the socket too; the server sees it.
 */
export function createNodeTransport(maxSockets: number): HttpTransport {
  const agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets }),
    https: new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  return (url, init) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      const req = send(target, {
        method: init.method,
        headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        agent: secure ? agents.https : agents.http,
      });
      const onAbort = () => req.destroy(abortError(init.signal.reason));
      if (init.signal.aborted) {
        onAbort();
      } else {
        init.signal.addEventListener('abort', onAbort, { once: true });
      }
      const done = () => init.signal.removeEventListener('abort', onAbort);
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        done();
        outcome();
      };
      req.on('error', (error) => settle(() => reject(error)));
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const limit = bodyLimit(status, init.maxResponseBytes);
        const answer = (chunks: Buffer[]) =>
          resolve({
            ok,
            status,
            statusText: res.statusMessage ?? '',
            headers: { get: (name) => headerValue(res.headers, name) },
            text: () => Promise.resolve(Buffer.concat(chunks).toString('utf8')),
          });
        const declared = declaredLength(headerValue(res.headers, 'content-length'));
        if (ok && declared !== undefined && declared > limit) {
          settle(() => reject(new ResponseOverLimitError({ limitBytes: limit, declaredBytes: declared })));
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          if (size + chunk.length <= limit) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          if (ok) {
            settle(() => reject(new ResponseOverLimitError({ limitBytes: limit })));
          } else {
            // An error body: its start is all anyone reads, so keep that and answer with it.
            chunks.push(chunk.subarray(0, limit - size));
            settle(() => answer(chunks));
          }
          req.destroy();
        });
        // A body cut short (the server closed mid-body) surfaces as `aborted` then `error`/`close`.
        res.on('aborted', () =>
          settle(() => reject(new Error('terminated: the response body was cut short'))),
        );
        res.on('error', (error) => settle(() => reject(error)));
        res.on('end', () => {
          if (!res.complete) {
            settle(() => reject(new Error('terminated: the response body was cut short')));
            return;
          }
          settle(() => answer(chunks));
        });
      });
      req.end(init.body);
    });
}

// Node lower-cases incoming header names; a plain lookup avoids building a `Headers` per response.
function headerValue(raw: IncomingMessage['headers'], name: string): string | null {
  const value = raw[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function abortError(reason: unknown): Error {
  const error = new Error(reason instanceof Error ? reason.message : 'aborted');
  error.name = 'AbortError';
  return error;
}
