import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { HeaderLookup } from './node-transport.js';
import { ERROR_BODY_BYTES } from './response-limit.js';
import type { HttpStreamTransport } from './stream-transport.js';

/**
 * The streaming transport over `node:http` with its own keep-alive agent: a 2xx body is the
 * `IncomingMessage` itself, read as it arrives; an abort or `cancel()` destroys the socket, which the
 * server sees (and `haggle serve` frees the row).
 */
export function createNodeStreamTransport(maxSockets: number): HttpStreamTransport {
  const agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets }),
    https: new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const req = (secure ? httpsRequest : httpRequest)(target, {
        method: init.method,
        headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        agent: secure ? agents.https : agents.http,
      });
      const onAbort = () => {
        const error = new Error(init.signal.reason instanceof Error ? init.signal.reason.message : 'aborted');
        error.name = 'AbortError';
        req.destroy(error);
      };
      if (init.signal.aborted) onAbort();
      else init.signal.addEventListener('abort', onAbort, { once: true });
      // The listener stays while the body is read (an abort mid-stream must close it) and goes with the socket.
      req.on('close', () => init.signal.removeEventListener('abort', onAbort));
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const headers: HeaderLookup = {
          get: (name) => {
            const value = res.headers[name.toLowerCase()];
            if (value === undefined) return null;
            return Array.isArray(value) ? value.join(', ') : value;
          },
        };
        resolve({
          ok,
          status,
          statusText: res.statusMessage ?? '',
          headers,
          errorText: () => (ok ? Promise.resolve('') : readStart(res, ERROR_BODY_BYTES, () => req.destroy())),
          body: res,
          cancel: () => req.destroy(),
        });
      });
      req.end(init.body);
    });
}

/** The first `limit` bytes of a body; the connection is dropped past them. */
async function readStart(res: IncomingMessage, limit: number, drop: () => void): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > limit) {
        chunks.push(buffer.subarray(0, limit - size));
        drop();
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } catch {
    // A body cut short: its start is what there is.
  }
  return Buffer.concat(chunks).toString('utf8');
}
