import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** Header lookup by lower-case name; `fetch`'s `Headers` satisfies it. */
export interface HeaderLookup {
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

export type HttpTransport = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<TransportResponse>;

/**
 * POSTs through `node:http` with a keep-alive agent. Node 20's built-in `fetch` spends several times
 * more CPU per request than `node:http` (measured in bench/remote.ts), which at 64 sessions against
 * a fast server is the difference between using the server and waiting on ourselves. The body is read
 * whole before the promise resolves; an abort destroys the socket, which the server sees.
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
      req.on('error', (error) => {
        done();
        reject(error);
      });
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        // A body cut short (the server closed mid-body) surfaces as `aborted` then `error`/`close`.
        res.on('aborted', () => {
          done();
          reject(new Error('terminated: the response body was cut short'));
        });
        res.on('error', (error) => {
          done();
          reject(error);
        });
        res.on('end', () => {
          done();
          if (!res.complete) {
            reject(new Error('terminated: the response body was cut short'));
            return;
          }
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          resolve({
            ok: status >= 200 && status < 300,
            status,
            statusText: res.statusMessage ?? '',
            headers: { get: (name) => headerValue(res.headers, name) },
            text: () => Promise.resolve(text),
          });
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
