import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { InvalidInputError } from '../contract/errors.js';
import { HttpError } from './errors.js';

/** Which web pages on other origins may call the server (`haggle serve --cors ORIGIN`). */
export interface CorsOptions {
  /** Origins allowed, exactly as a browser sends them: `http://localhost:5173`. `*` needs `allowAnyOrigin`. */
  origins: readonly string[];
  /**
   * Lets `*` in `origins` allow every origin: any web page the user visits could then use the model
   * (and spend the API key's quota, if a page knows it). Off unless set: `--cors '*'` alone is refused.
   */
  allowAnyOrigin?: boolean;
}

/** Response headers a page's script may read: the server's warnings and the wait it asks for. */
const EXPOSED = 'x-haggle-warnings, retry-after';
/** haggle's choice: browsers cache a preflight 10 minutes at most anyway (Chromium's cap is 2 hours). */
const MAX_AGE_SECONDS = 600;
/** A requested header list is echoed back only when it is plain header names. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

/**
 * The server's CORS policy. Browsers send `Origin` on cross-origin requests (and on same-origin
 * POSTs); tools such as curl and the SDKs in Node send none and are not concerned. A cross-origin
 * request from an origin not allowed is refused with 403 and a message saying how to allow it: not
 * only because its page could not read the answer, but because a "simple" request (a `text/plain`
 * POST skips the preflight) would otherwise make the model work for any page the user visits.
 */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;
  private readonly any: boolean;

  constructor(options: CorsOptions | undefined) {
    const origins = options?.origins ?? [];
    const issues = origins.flatMap((origin, index) => {
      if (origin === '*') {
        return options?.allowAnyOrigin
          ? []
          : [
              {
                path: `cors.origins[${index}]`,
                message:
                  "'*' lets every web page use the server; name the origins (--cors http://localhost:5173), or pass --cors-allow-any-origin as well",
              },
            ];
      }
      return isOrigin(origin)
        ? []
        : [
            {
              path: `cors.origins[${index}]`,
              message: `${JSON.stringify(origin)} is not an origin: write scheme://host[:port] with no path or trailing slash, e.g. http://localhost:5173`,
            },
          ];
    });
    if (issues.length > 0) throw new InvalidInputError({ subject: 'OpenAIServer cors options', issues });
    this.any = origins.includes('*');
    this.origins = new Set(origins.filter((origin) => origin !== '*'));
  }

  /** Whether any cross-origin page is allowed at all. */
  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  /**
   * Applies the policy to a request: sets the CORS headers on `res` when the origin is allowed,
   * answers a preflight (`true`: nothing more to do), throws a 403 for an origin not allowed.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS';
    // Every answer depends on Origin once some origins are allowed: a shared cache that stored one
    // fetched without it (no CORS headers) must not hand it to an allowed page, nor the reverse.
    if (this.enabled) res.setHeader('vary', 'Origin');
    if (origin === undefined || (!preflight && isSameOrigin(origin, req))) {
      if (!preflight) return false;
      res.writeHead(204, { allow: 'GET, POST, OPTIONS', 'content-length': '0' });
      res.end();
      return true;
    }
    if (!this.allows(origin)) {
      throw new HttpError({
        status: 403,
        message: `cross-origin requests from ${JSON.stringify(origin)} are not allowed: start haggle serve with --cors ${origin} (or OpenAIServer's cors.origins)`,
        errorCode: 'cors_origin_not_allowed',
        headers: { vary: 'Origin' },
      });
    }
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-expose-headers', EXPOSED);
    if (!preflight) return false;
    const requested = req.headers['access-control-request-headers'];
    const allowHeaders =
      typeof requested === 'string' && requested.length <= 2000 && HEADER_LIST.test(requested.trim())
        ? requested.trim()
        : 'authorization, content-type';
    // Chromium's Private Network Access: a page from a less private address (a public site, or one
    // whose address it does not know) asks before calling a loopback or LAN server.
    const privateNetwork = req.headers['access-control-request-private-network'] === 'true';
    res.writeHead(204, {
      ...(privateNetwork ? { 'access-control-allow-private-network': 'true' } : {}),
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': allowHeaders,
      'access-control-max-age': String(MAX_AGE_SECONDS),
      'content-length': '0',
    });
    res.end();
    return true;
  }

  private allows(origin: string): boolean {
    return this.any || this.origins.has(origin);
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * A page of the server's own origin (its POSTs carry `Origin` too), reached by an IP address or
 * `localhost`. A host name is not trusted as "own": DNS rebinding points a page's name
 * (`evil.example:8000`) at this server, and the browser then sends `Host` and `Origin` that match, so
 * the name alone would let any web page use the model. A page served beside the server under a name
 * names its origin with `--cors`.
 */
function isSameOrigin(origin: string, req: IncomingMessage): boolean {
  const host = req.headers.host;
  if (host === undefined || !(origin === `http://${host}` || origin === `https://${host}`)) return false;
  if (!URL.canParse(origin)) return false;
  const hostname = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
  return hostname === 'localhost' || isIP(hostname) !== 0;
}
