import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';

/** One request a loopback server saw. */
export interface SeenRequest {
  server: 'hub' | 'storage';
  path: string;
  range: string | undefined;
  authorization: string | undefined;
}

export interface LoopbackHub {
  /** What `HF_ENDPOINT` is set to. */
  endpoint: string;
  /** The storage LFS files redirect to: another origin, as the hub's CDN is. */
  storage: string;
  /** Every request to either server, in order. */
  requests: SeenRequest[];
  /** The commit id the hub gives a repository's files as they are now (it changes when a file does). */
  commitOf(repo: string): string;
  close(): Promise<void>;
}

export interface HubOptions {
  /** Repository id -> the folder whose files it serves. */
  repos: Record<string, string>;
  /** Repositories whose files need `Authorization: Bearer TOKEN` (a gated repository) -> the token. */
  gated?: Record<string, string>;
  /** Paths whose bytes are served with their last byte flipped (a corrupted transfer). */
  corrupt?: string[];
  /** Cut the first body longer than this after this many bytes (a dropped connection). */
  cutAfter?: number;
  /** Entries per page of the tree listing (pages linked by a Link header). */
  pageSize?: number;
  /** `resolve` redirects to itself forever. */
  redirectLoop?: boolean;
}

/** The git blob id git (and the hub's ETag) gives a plain file: SHA-1 of `blob SIZE\0` + content. */
function gitBlobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

const isLfs = (path: string) => path.endsWith('.safetensors');

/**
 * A loopback stand-in for the Hugging Face hub as haggle uses it (the real hub is not reachable from
 * the test machines): a revision's commit from `/api/models/REPO/revision/REV`, the tree listing `/api/models/REPO/tree/REV` (LFS `oid` and `size` for
 * safetensors files, the git blob `oid` for the others, pages linked by a Link header), and
 * `/REPO/resolve/REV/PATH`, which answers a plain file with its bytes and `ETag: "<git blob id>"`, and
 * an LFS file with a 302 to a second server (another origin, as the hub's storage is) carrying
 * `X-Linked-Etag: "<sha256>"` and `X-Linked-Size`. Both honour `Range: bytes=N-`. Connections are
 * closed after each response and `close()` destroys any left, so nothing keeps a test waiting.
 */
export async function startLoopbackHub(options: HubOptions): Promise<LoopbackHub> {
  const requests: SeenRequest[] = [];
  let cut = options.cutAfter;
  const seen = (server: SeenRequest['server'], request: IncomingMessage, path: string) =>
    requests.push({
      server,
      path,
      range: request.headers.range,
      authorization: request.headers.authorization,
    });

  const fileBytes = (repo: string, path: string): Buffer | undefined => {
    const folder = options.repos[repo];
    if (!folder) return undefined;
    try {
      return readFileSync(join(folder, path));
    } catch {
      return undefined;
    }
  };

  /** The bytes of a file, honouring a range, corrupted or cut when the test says so. */
  const sendBytes = (request: IncomingMessage, response: ServerResponse, path: string, stored: Buffer) => {
    let bytes = stored;
    if (options.corrupt?.includes(path)) {
      bytes = Buffer.from(stored);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff;
    }
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= bytes.length && bytes.length > 0) {
      response.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
      return;
    }
    const body = bytes.subarray(start);
    response.writeHead(range ? 206 : 200, {
      'content-length': String(body.length),
      ...(range ? { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    if (cut !== undefined && body.length > cut) {
      const keep = cut;
      cut = undefined;
      // Half the body, then the socket goes: the client sees the connection drop mid-file.
      response.write(body.subarray(0, keep), () => response.destroy());
      return;
    }
    response.end(body);
  };

  const storage = createServer((request, response) => {
    response.shouldKeepAlive = false;
    const url = new URL(request.url ?? '/', 'http://storage');
    seen('storage', request, url.pathname);
    const match = /^\/lfs\/([^/]+\/[^/]+)\/(.+)$/.exec(url.pathname);
    const path = match ? decodeURIComponent(match[2] as string) : '';
    const bytes = match ? fileBytes(match[1] as string, path) : undefined;
    if (!bytes) return void response.writeHead(404).end();
    sendBytes(request, response, path, bytes);
  });

  /** The listing's entries of a repository's folder as it is now. */
  const entriesOf = (folder: string) =>
    listFiles(folder).map((path) => {
      const bytes = readFileSync(join(folder, path));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      return isLfs(path)
        ? {
            type: 'file',
            path,
            size: bytes.length,
            oid: 'f'.repeat(40),
            lfs: { oid: sha256, size: bytes.length, pointerSize: 134 },
          }
        : { type: 'file', path, size: bytes.length, oid: gitBlobId(bytes) };
    });
  // A stand-in for a commit id: the hash of what the repository holds, so it changes with any file.
  const commitOf = (repo: string) =>
    createHash('sha1')
      .update(JSON.stringify(entriesOf(options.repos[repo] as string)))
      .digest('hex');

  const hub = createServer((request, response) => {
    response.shouldKeepAlive = false;
    const url = new URL(request.url ?? '/', 'http://hub');
    seen('hub', request, url.pathname);
    // The model info of a revision, as the hub's /api/models/REPO/revision/REV gives it (its `sha`).
    const revision = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/]+)$/.exec(url.pathname);
    if (revision) {
      const repo = revision[1] as string;
      if (!options.repos[repo]) return void response.writeHead(404).end('{"error":"Repository not found"}');
      const body = JSON.stringify({ id: repo, sha: commitOf(repo) });
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    const tree = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)$/.exec(url.pathname);
    if (tree) {
      const folder = options.repos[tree[1] as string];
      if (!folder) return void response.writeHead(404).end('{"error":"Repository not found"}');
      const entries = entriesOf(folder);
      const size = options.pageSize ?? entries.length;
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const next = from + size < entries.length ? from + size : undefined;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (next !== undefined) headers.link = `<${url.pathname}?recursive=true&cursor=${next}>; rel="next"`;
      response.writeHead(200, headers).end(JSON.stringify(entries.slice(from, from + size)));
      return;
    }
    const resolveMatch = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!resolveMatch) return void response.writeHead(404).end();
    const repo = resolveMatch[1] as string;
    const token = options.gated?.[repo];
    if (token && request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401, { 'content-type': 'application/json' });
      return void response.end(
        '{"error":"Access to model is restricted. You must have access to it and be authenticated to access it. Please log in."}',
      );
    }
    if (options.redirectLoop) return void response.writeHead(302, { location: url.pathname }).end();
    const path = decodeURIComponent(resolveMatch[3] as string);
    const bytes = fileBytes(repo, path);
    if (!bytes) return void response.writeHead(404).end('{"error":"Entry not found"}');
    if (isLfs(path)) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      response.writeHead(302, {
        location: `${storageOrigin}/lfs/${repo}/${encodeURIComponent(path)}`,
        'x-linked-etag': `"${sha256}"`,
        'x-linked-size': String(bytes.length),
        etag: `"${'f'.repeat(40)}"`,
      });
      return void response.end(`Found. Redirecting to ${storageOrigin}`);
    }
    response.setHeader('etag', `"${gitBlobId(bytes)}"`);
    sendBytes(request, response, path, bytes);
  });

  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const endpoint = await listen(hub);
  const storageOrigin = await listen(storage);
  const stop = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    endpoint,
    storage: storageOrigin,
    requests,
    commitOf,
    close: async () => {
      await Promise.all([stop(hub), stop(storage)]);
    },
  };
}

function listFiles(folder: string, under = folder): string[] {
  return readdirSync(under).flatMap((name) => {
    const path = join(under, name);
    return statSync(path).isDirectory() ? listFiles(folder, path) : [relative(folder, path)];
  });
}
