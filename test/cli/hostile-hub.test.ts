import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTING_PAGE_BYTES } from '../../src/onnx/model-build/hub-pull.js';
import { startLoopbackHub } from '../onnx/model-build/loopback-hub.js';
import { type Ended, haggleUnderCeiling, KILL_AFTER_MS } from './ceiling-cli.js';

// `haggle model pull` reads a listing from whatever HF_ENDPOINT names. A broken or hostile endpoint
// must get a typed error in one line, not the machine's memory or a stack overflow. The CLI is a real
// process under a memory ceiling (RLIMIT_DATA, as in hostile-files.test.ts) and a kill timeout, so a
// regression fails here instead of taking the machine down.

const PEAK_LIMIT_KIB = 512 * 1024;

/** `haggle model pull acme/tiny` against `endpoint` under the ceilings, with its peak RSS (KiB). */
const pull = (endpoint: string, out: string, ...extra: string[]) =>
  haggleUnderCeiling(['model', 'pull', 'acme/tiny', '--out', out, ...extra], {
    HF_ENDPOINT: endpoint,
    HF_TOKEN: '',
  });

/** The commit the hostile hub says `main` is at. */
const COMMIT = 'c0ffee'.padEnd(40, '0');

/**
 * A hub whose listing is whatever `listing` writes and whose files are whatever `file` writes (404
 * without one); `main` resolves to `COMMIT`; every other path is 404.
 */
let server: Server | undefined;
async function hostileHub(
  listing: (response: ServerResponse) => void,
  file?: (response: ServerResponse, path: string) => void,
): Promise<string> {
  server = createServer((request, response) => {
    if (request.url === '/api/models/acme/tiny/revision/main')
      return void response.writeHead(200).end(JSON.stringify({ id: 'acme/tiny', sha: COMMIT }));
    if (request.url?.startsWith('/api/models/acme/tiny/tree/')) return listing(response);
    const resolved = /^\/acme\/tiny\/resolve\/[^/]+\/(.+)$/.exec(request.url ?? '');
    if (resolved && file) return file(response, resolved[1] as string);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

const root = mkdtempSync(join(tmpdir(), 'haggle-hostile-hub-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let outs = 0;
const freshOut = () => join(root, `out-${++outs}`);

beforeAll(() => {
  if (spawnSync('prlimit', ['--version']).status !== 0)
    throw new Error('these tests need prlimit (util-linux) on the PATH');
});

/** One line on stderr naming the problem, exit 1, small memory, nothing written but the folder. */
function expectRefused(
  result: Ended & { peakKiB: number },
  out: string,
  message: RegExp,
  left: string[] = [],
): void {
  expect(result.signal).toBeNull();
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/RangeError|TypeError|at .*\.ts:\d+/);
  expect(result.stderr.includes('\u001b'), 'an escape character reached the terminal').toBe(false);
  expect(result.code).toBe(1);
  expect(result.peakKiB).toBeGreaterThan(0);
  expect(result.peakKiB).toBeLessThan(PEAK_LIMIT_KIB);
  expect(existsSync(out) ? readdirSync(out) : []).toEqual(left);
}

/** A body without end: written again whenever the socket drains, until the client goes away. */
function endless(response: ServerResponse, chunk: string | Buffer): void {
  const more = () => {
    while (response.write(chunk)) if (response.destroyed) return;
  };
  response.on('drain', more);
  more();
}

const FILE_ENTRY =
  '{"type":"file","path":"config.json","size":2,"oid":"0000000000000000000000000000000000000000"}';

describe('haggle model pull against a hostile HF_ENDPOINT (a child process under prlimit)', () => {
  it(
    `stops an endless listing at ${MAX_LISTING_PAGE_BYTES} bytes with a typed error`,
    async () => {
      const endpoint = await hostileHub((response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[');
        const chunk = `${FILE_ENTRY},`.repeat(1000);
        // Endless: write again whenever the socket drains, until the client goes away.
        const more = () => {
          while (response.write(chunk)) if (response.destroyed) return;
        };
        response.on('drain', more);
        more();
      });
      const out = freshOut();
      expectRefused(
        await pull(endpoint, out),
        out,
        /a page of the listing is over 8388608 bytes.*HF_ENDPOINT/,
      );
    },
    KILL_AFTER_MS + 10_000,
  );

  it(
    'refuses a listing of more entries than a model repository has (a huge array overflowed the stack)',
    async () => {
      // 200,000 entries in 7 MB: under the page limit, over the entry limit (and over what a spread takes).
      const body = `[${'{"type":"directory","path":"d"},'.repeat(199_999)}{"type":"directory","path":"d"}]`;
      expect(body.length).toBeLessThan(MAX_LISTING_PAGE_BYTES);
      const endpoint = await hostileHub((response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      });
      const out = freshOut();
      expectRefused(await pull(endpoint, out), out, /the listing has more than 100000 entries/);
    },
    KILL_AFTER_MS + 10_000,
  );

  it.each([
    ['a string', '"not a listing"', /the listing is not a JSON array/],
    ['a broken JSON', '[{"type":', /the listing is not JSON/],
    ['a null entry', '[null]', /entry 0 of the listing is not an object/],
    [
      'a file without a size',
      '[{"type":"file","path":"config.json","size":"2"}]',
      /entry 0 of the listing has no size/,
    ],
    [
      'a file whose oid is no blob id',
      '[{"type":"file","path":"config.json","size":2,"oid":"\\u001b]0;owned\\u0007"}]',
      /entry 0 of the listing has an oid that is not a git blob id/,
    ],
    [
      'an LFS record without a SHA-256',
      '[{"type":"file","path":"model.safetensors","size":2,"lfs":{"oid":"x","size":2}}]',
      /entry 0 of the listing has an lfs record without a SHA-256 oid/,
    ],
  ])(
    'refuses %s in the listing with a typed error',
    async (_name, body, message) => {
      const endpoint = await hostileHub((response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      });
      const out = freshOut();
      expectRefused(await pull(endpoint, out), out, message);
    },
    KILL_AFTER_MS + 10_000,
  );

  it.each([
    [
      'a weights file of 1e15 bytes',
      'model.safetensors',
      1e15,
      /model\.safetensors: the listing claims 1000000000000000 bytes, over the 68719476736 that a weights file may take/,
    ],
    [
      'a config.json of 100 MiB',
      'config.json',
      100 * 1024 * 1024,
      /config\.json: the listing claims 104857600 bytes, over the 16777216 that a config may take/,
    ],
  ])(
    'refuses a listing that claims %s before writing a byte (the body is endless)',
    async (_what, path, size, message) => {
      const entry = path.endsWith('.safetensors')
        ? { type: 'file', path, size: 134, oid: 'f'.repeat(40), lfs: { oid: 'a'.repeat(64), size } }
        : { type: 'file', path, size, oid: 'b'.repeat(40) };
      let downloads = 0;
      const endpoint = await hostileHub(
        (response) => response.writeHead(200).end(JSON.stringify([entry])),
        (response) => {
          downloads++;
          response.writeHead(200);
          endless(response, Buffer.alloc(64 * 1024, 7));
        },
      );
      const out = freshOut();
      expectRefused(await pull(endpoint, out), out, message);
      // Today's code streamed 15 GB of .part against such a claim.
      expect(downloads).toBe(0);
    },
    KILL_AFTER_MS + 10_000,
  );

  it(
    'stops writing at the listed size: a longer body is an error, and no part is left',
    async () => {
      const endpoint = await hostileHub(
        (response) => response.writeHead(200).end(`[${FILE_ENTRY}]`),
        (response) => {
          response.writeHead(200);
          endless(response, Buffer.alloc(64 * 1024, 7));
        },
      );
      const out = freshOut();
      expectRefused(
        await pull(endpoint, out),
        out,
        /config\.json: more than the 2 bytes the listing gives: the file was removed/,
      );
    },
    KILL_AFTER_MS + 10_000,
  );

  it(
    'gives up a file download that stalls after --idle-timeout, says so while it waits, and keeps the part',
    async () => {
      const endpoint = await hostileHub(
        (response) =>
          response
            .writeHead(200)
            .end(JSON.stringify([{ type: 'file', path: 'config.json', size: 100, oid: 'b'.repeat(40) }])),
        // Ten bytes, then nothing, with the connection held open.
        (response) => {
          response.writeHead(200, { 'content-length': '100' });
          response.write(Buffer.alloc(10, 32));
        },
      );
      const out = freshOut();
      const result = await pull(endpoint, out, '--idle-timeout', '1.5');
      expect(result.signal).toBeNull();
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split('\n');
      // The progress line (off a terminal: one line) that says the download is waiting, then the error.
      expect(lines[0]).toMatch(
        /^haggle: pull config\.json: stalled: no byte for \d+ s \(gives up after 1\.5 s\)$/,
      );
      expect(lines[1]).toMatch(
        /config\.json: no byte arrived for 1\.5 s: the connection stalled \(what arrived is kept; run the same command again to resume, or give a longer --idle-timeout\)$/,
      );
      expect(lines).toHaveLength(2);
      expect(result.seconds).toBeLessThan(KILL_AFTER_MS / 1000 - 10);
      expect(readdirSync(out)).toEqual(['config.json.part']);
    },
    KILL_AFTER_MS + 10_000,
  );

  it(
    'gives up a listing that stalls after --idle-timeout',
    async () => {
      const endpoint = await hostileHub((response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[');
      });
      const out = freshOut();
      expectRefused(
        await pull(endpoint, out, '--idle-timeout', '1'),
        out,
        /tree\/c0ffee0+\?recursive=true: no byte arrived for 1 s: the connection stalled/,
      );
    },
    KILL_AFTER_MS + 10_000,
  );

  it(
    'downloads again a file the hub changed at the same size (identity by checksum, not size)',
    async () => {
      const repo = join(root, 'changing-repo');
      mkdirSync(repo);
      writeFileSync(join(repo, 'config.json'), '{"model_type": "qwen3"}\n');
      writeFileSync(join(repo, 'model.safetensors'), Buffer.alloc(4096, 1));
      const hub = await startLoopbackHub({ repos: { 'acme/tiny': repo } });
      try {
        const out = freshOut();
        const first = await pull(hub.endpoint, out);
        expect(first.stderr).toBe('');
        expect(first.stdout).toMatch(/: 2 downloaded, 0 already there\n$/);
        // Same sizes, other bytes: the listing's git blob id and LFS SHA-256 change, the sizes do not.
        writeFileSync(join(repo, 'config.json'), '{"model_type": "QWEN3"}\n');
        writeFileSync(join(repo, 'model.safetensors'), Buffer.alloc(4096, 2));
        const second = await pull(hub.endpoint, out);
        expect(second.stderr).toBe('');
        expect(second.code).toBe(0);
        // Before: "0 downloaded, 2 already there", and the old bytes kept.
        expect(second.stdout).toMatch(
          new RegExp(
            `^pulled acme/tiny at ${hub.commitOf('acme/tiny')} into .*: 2 downloaded, 0 already there\\n$`,
          ),
        );
        expect(readFileSync(join(out, 'config.json'), 'utf8')).toBe('{"model_type": "QWEN3"}\n');
        expect(readFileSync(join(out, 'model.safetensors')).equals(Buffer.alloc(4096, 2))).toBe(true);
        const third = await pull(hub.endpoint, out);
        expect(third.stdout).toMatch(/: 0 downloaded, 2 already there\n$/);
      } finally {
        await hub.close();
      }
    },
    3 * KILL_AFTER_MS + 10_000,
  );
});
