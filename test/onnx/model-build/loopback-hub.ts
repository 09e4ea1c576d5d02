import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';

export interface LoopbackHub {
  endpoint: string;
  /** Every request's method, path and headers that matter, in order. */
  requests: { path: string; range: string | undefined; authorization: string | undefined }[];
  close(): Promise<void>;
}

export interface HubOptions {
  /** Repository id -> the folder whose files it serves. */
  repos: Record<string, string>;
  /** A token the repositories require (a gated repository), or none. */
  token?: string;
  /** Paths whose bytes are served with one byte flipped (a corrupted transfer). */
  corrupt?: string[];
  /** Cut each `resolve` response after this many bytes once (a dropped connection). */
  cutAfter?: number;
  /** Entries per page of the tree listing (pagination with a Link header). */
  pageSize?: number;
}

/**
 * A loopback stand-in for the Hugging Face hub's two endpoints haggle uses: the tree listing
 * (`/api/models/REPO/tree/REV`, with LFS sizes and SHA-256 for safetensors files, paged by a Link
 * header) and `/REPO/resolve/REV/PATH` with HTTP range requests. The real hub is not reachable here.
 */
export async function startLoopbackHub(options: HubOptions): Promise<LoopbackHub> {
  const requests: LoopbackHub['requests'] = [];
  let cut = options.cutAfter;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push({
      path: url.pathname,
      range: request.headers.range,
      authorization: request.headers.authorization,
    });
    if (options.token && request.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401).end('{"error":"Access to model is restricted."}');
      return;
    }
    const tree = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)$/.exec(url.pathname);
    if (tree) {
      const folder = options.repos[tree[1] as string];
      if (!folder) return void response.writeHead(404).end();
      const entries = listFiles(folder).map((path) => {
        const bytes = readFileSync(join(folder, path));
        const lfs = path.endsWith('.safetensors')
          ? {
              lfs: {
                oid: createHash('sha256').update(bytes).digest('hex'),
                size: bytes.length,
                pointerSize: 134,
              },
            }
          : {};
        return {
          type: 'file',
          path,
          size: path.endsWith('.safetensors') ? 134 : bytes.length,
          oid: 'x',
          ...lfs,
        };
      });
      const size = options.pageSize ?? entries.length;
      const page = Number(url.searchParams.get('cursor') ?? 0);
      const next = page + size < entries.length ? page + size : undefined;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (next !== undefined)
        headers.link = `<${url.origin.replace('localhost', request.headers.host ?? '')}${url.pathname}?recursive=true&cursor=${next}>; rel="next"`;
      response.writeHead(200, headers).end(JSON.stringify(entries.slice(page, page + size)));
      return;
    }
    const resolveMatch = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    const folder = resolveMatch ? options.repos[resolveMatch[1] as string] : undefined;
    if (!resolveMatch || !folder) return void response.writeHead(404).end();
    const path = decodeURIComponent(resolveMatch[3] as string);
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(folder, path));
    } catch {
      return void response.writeHead(404).end();
    }
    if (options.corrupt?.includes(path)) {
      bytes = Buffer.from(bytes);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff;
    }
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const body = bytes.subarray(start);
    response.writeHead(range ? 206 : 200, {
      'content-length': String(body.length),
      ...(range ? { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    if (cut !== undefined && body.length > cut) {
      const keep = cut;
      cut = undefined;
      response.write(body.subarray(0, keep), () => response.destroy());
      return;
    }
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function listFiles(folder: string, under = folder): string[] {
  return readdirSync(under).flatMap((name) => {
    const path = join(under, name);
    return statSync(path).isDirectory() ? listFiles(folder, path) : [relative(folder, path)];
  });
}
