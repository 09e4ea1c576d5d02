import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeHfCheckpoint, writeLoraAdapter } from '../../scripts/fixture-model/hf-checkpoint.js';
import { runCli } from '../../src/cli/main.js';
import { HubDownloadError } from '../../src/onnx/model-build/errors.js';
import { pullRepository } from '../../src/onnx/model-build/hub-pull.js';
import { captureIo } from '../helpers/capture-io.js';
import { SMALL_QWEN3, tempFolder } from '../onnx/model-build/checkpoints.js';
import { type HubOptions, type LoopbackHub, startLoopbackHub } from '../onnx/model-build/loopback-hub.js';

const root = tempFolder('hub-pull');
/** A repository of the files a pull takes (two LFS shards, an index, plain JSON) and two it leaves. */
const repo = join(root, 'repo');
const SHARD_BYTES = 1_500_000;
const WANTED = [
  'config.json',
  'model-00001-of-00002.safetensors',
  'model-00002-of-00002.safetensors',
  'model.safetensors.index.json',
  'tokenizer_config.json',
];

beforeAll(() => {
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, 'config.json'), '{"model_type": "qwen3"}\n');
  writeFileSync(join(repo, 'tokenizer_config.json'), '{"model_max_length": 40960}\n');
  writeFileSync(join(repo, 'model.safetensors.index.json'), '{"metadata": {}, "weight_map": {}}\n');
  writeFileSync(join(repo, 'model-00001-of-00002.safetensors'), randomBytes(SHARD_BYTES));
  writeFileSync(join(repo, 'model-00002-of-00002.safetensors'), randomBytes(SHARD_BYTES / 3));
  writeFileSync(join(repo, 'README.md'), '# not pulled\n');
  writeFileSync(join(repo, 'pytorch_model.bin'), randomBytes(1000));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let hub: LoopbackHub | undefined;
/** A loopback hub that HF_ENDPOINT points at, and no HF_TOKEN unless a test sets one. */
async function serve(options: Omit<HubOptions, 'repos'> & { repos?: HubOptions['repos'] } = {}) {
  hub = await startLoopbackHub({ repos: { 'acme/tiny': repo }, ...options });
  vi.stubEnv('HF_ENDPOINT', hub.endpoint);
  vi.stubEnv('HF_TOKEN', undefined);
  return hub;
}
afterEach(async () => {
  vi.unstubAllEnvs();
  await hub?.close();
  hub = undefined;
});

let outs = 0;
const freshOut = () => join(root, `out-${++outs}`);
const pull = async (out: string, io = captureIo()) => ({
  code: await runCli(['model', 'pull', 'acme/tiny', '--out', out], io),
  io,
});
const sameBytes = (out: string, name: string) =>
  readFileSync(join(out, name)).equals(readFileSync(join(repo, name)));

describe('haggle model pull REPO --out DIR (a loopback hub at HF_ENDPOINT)', () => {
  it("downloads the model files byte for byte, LFS ones from the storage they redirect to, and keeps what's there", async () => {
    const server = await serve({ pageSize: 2 });
    const out = freshOut();
    const { code, io } = await pull(out);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    const commit = server.commitOf('acme/tiny');
    expect(io.out()).toBe(`pulled acme/tiny at ${commit} into ${out}: 5 downloaded, 0 already there\n`);
    expect(readdirSync(out).sort()).toEqual(['.haggle-pull.json', ...WANTED]);
    for (const name of WANTED) expect(sameBytes(out, name), name).toBe(true);
    // Shards came from the storage origin after the hub's redirect, every listing page was read.
    const storagePaths = server.requests.filter((r) => r.server === 'storage').map((r) => r.path);
    expect(storagePaths.sort()).toEqual([
      '/lfs/acme/tiny/model-00001-of-00002.safetensors',
      '/lfs/acme/tiny/model-00002-of-00002.safetensors',
    ]);
    // The revision resolved to its commit once, then every listing page read at that commit.
    const api = server.requests.filter((r) => r.path.startsWith('/api/models/')).map((r) => r.path);
    expect(api).toEqual([
      '/api/models/acme/tiny/revision/main',
      ...Array(4).fill(`/api/models/acme/tiny/tree/${commit}`),
    ]);

    const again = await pull(out);
    expect(again.code).toBe(0);
    expect(again.io.out()).toMatch(/0 downloaded, 5 already there/);
    expect(server.requests.filter((r) => r.path.includes('/resolve/'))).toHaveLength(5);
  });

  it('downloads a file again when the hub changed it at the same size (its checksum, not its size, is its identity)', async () => {
    const server = await serve();
    const out = freshOut();
    expect((await pull(out)).code).toBe(0);
    const before = server.commitOf('acme/tiny');
    const original = readFileSync(join(repo, 'config.json'));
    // The same length, other bytes: a new git blob id in the listing, a new commit.
    const changed = Buffer.from(original.toString('utf8').replace('qwen3', 'QWEN3'));
    expect(changed.length).toBe(original.length);
    writeFileSync(join(repo, 'config.json'), changed);
    try {
      expect(server.commitOf('acme/tiny')).not.toBe(before);
      const again = await pull(out);
      expect(again.io.err()).toBe('');
      expect(again.code).toBe(0);
      expect(again.io.out()).toMatch(/: 1 downloaded, 4 already there\n$/);
      expect(readFileSync(join(out, 'config.json')).equals(changed)).toBe(true);
      // A file changed on disk behind the pull's back (same size, same mtime rules aside) is hashed
      // again and replaced, not trusted.
      writeFileSync(
        join(out, 'tokenizer_config.json'),
        readFileSync(join(out, 'tokenizer_config.json'), 'utf8').replace('40960', '40961'),
      );
      const third = await pull(out);
      expect(third.io.out()).toMatch(/: 1 downloaded, 4 already there\n$/);
      expect(sameBytes(out, 'tokenizer_config.json')).toBe(true);
    } finally {
      writeFileSync(join(repo, 'config.json'), original);
    }
  });

  it('--revision pins a commit: no revision lookup, every file resolved at that commit', async () => {
    const server = await serve();
    const commit = server.commitOf('acme/tiny');
    const out = freshOut();
    const io = captureIo();
    expect(await runCli(['model', 'pull', 'acme/tiny', '--out', out, '--revision', commit], io)).toBe(0);
    expect(server.requests.some((r) => r.path.includes('/revision/'))).toBe(false);
    const resolved = server.requests.filter((r) => r.server === 'hub' && r.path.includes('/resolve/'));
    expect(resolved).toHaveLength(5);
    expect(resolved.every((r) => r.path.startsWith(`/acme/tiny/resolve/${commit}/`))).toBe(true);
  });

  it('resumes a file whose connection dropped mid-way with a range request, and the result checks out', async () => {
    const server = await serve({ cutAfter: 400_000 });
    const out = freshOut();
    const first = await pull(out);
    expect(first.code).toBe(1);
    expect(first.io.err()).toMatch(
      /^haggle: .*model-00001-of-00002\.safetensors: the connection dropped at \d+ of 1500000 bytes .*run the same command again to resume\n$/,
    );
    const part = join(out, 'model-00001-of-00002.safetensors.part');
    const kept = statSync(part).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(SHARD_BYTES);
    expect(existsSync(join(out, 'model-00001-of-00002.safetensors'))).toBe(false);

    const second = await pull(out);
    expect(second.io.err()).toBe('');
    expect(second.code).toBe(0);
    // The range goes to the hub's resolve URL and, after its redirect, to the storage.
    expect(server.requests.filter((r) => r.range)).toEqual([
      {
        server: 'hub',
        path: `/acme/tiny/resolve/${server.commitOf('acme/tiny')}/model-00001-of-00002.safetensors`,
        range: `bytes=${kept}-`,
        authorization: undefined,
      },
      {
        server: 'storage',
        path: '/lfs/acme/tiny/model-00001-of-00002.safetensors',
        range: `bytes=${kept}-`,
        authorization: undefined,
      },
    ]);
    for (const name of WANTED) expect(sameBytes(out, name), name).toBe(true);
    expect(existsSync(part)).toBe(false);
  });

  it("refuses a file whose SHA-256 (LFS) or git blob id (plain file) differs from the hub's, and leaves none of it", async () => {
    await serve({ corrupt: ['model-00002-of-00002.safetensors'] });
    const out = freshOut();
    // From code the hub is an option: the library reads no HF_ENDPOINT (the CLI does).
    const error = await pullRepository('acme/tiny', { out, endpoint: hub?.endpoint }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HubDownloadError);
    expect((error as Error).message).toMatch(
      /model-00002-of-00002\.safetensors: SHA-256 [0-9a-f]{64} differs from the hub's [0-9a-f]{64}: the file was removed/,
    );
    expect(readdirSync(out).filter((name) => name.startsWith('model-00002'))).toEqual([]);
    await hub?.close();

    await serve({ corrupt: ['config.json'] });
    const plain = freshOut();
    const { code, io } = await pull(plain);
    expect(code).toBe(1);
    expect(io.err()).toMatch(/config\.json: git blob SHA-1 [0-9a-f]{40} differs from the hub's [0-9a-f]{40}/);
    expect(readdirSync(plain)).toEqual([]);
  });

  it('asks for HF_TOKEN on a gated repository, and sends it as a bearer token to the hub only', async () => {
    const token = 'hf_loopbackSecret123';
    const server = await serve({ gated: { 'acme/tiny': token } });
    const out = freshOut();
    const refused = await pull(out);
    expect(refused.code).toBe(1);
    expect(refused.io.err()).toMatch(
      /^haggle: .*config\.json: the repository is gated or private: .*set HF_TOKEN/,
    );
    expect(readdirSync(out)).toEqual([]);

    const before = server.requests.length;
    vi.stubEnv('HF_TOKEN', token);
    const allowed = await pull(out);
    expect(allowed.io.err()).toBe('');
    expect(allowed.code).toBe(0);
    const hubRequests = server.requests.slice(before).filter((r) => r.server === 'hub');
    expect(hubRequests.length).toBeGreaterThan(5);
    expect(hubRequests.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
    const storage = server.requests.filter((r) => r.server === 'storage');
    expect(storage).toHaveLength(2);
    expect(storage.every((r) => r.authorization === undefined)).toBe(true);
    expect(refused.io.err() + allowed.io.out()).not.toContain(token);
  });

  it('stops when aborted mid-file with an aborted error, keeping the part for a resume', async () => {
    await serve();
    const out = freshOut();
    const controller = new AbortController();
    const error = await pullRepository('acme/tiny', {
      out,
      endpoint: hub?.endpoint,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.file.endsWith('00001-of-00002.safetensors') && event.bytes < event.total)
          controller.abort(new Error('stop'));
      },
    }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('aborted');
    expect(existsSync(join(out, 'model-00001-of-00002.safetensors'))).toBe(false);
    expect(statSync(join(out, 'model-00001-of-00002.safetensors.part')).size).toBeLessThan(SHARD_BYTES);
    expect((await pull(out)).code).toBe(0);
    for (const name of WANTED) expect(sameBytes(out, name), name).toBe(true);
  });

  it('draws a progress bar on a terminal only', async () => {
    await serve();
    const terminal = captureIo();
    (terminal.stderr as { isTTY: boolean }).isTTY = true;
    expect((await pull(freshOut(), terminal)).code).toBe(0);
    expect(terminal.err()).toMatch(/\rpull model-00001-of-00002\.safetensors █+/);
    expect(terminal.err()).toMatch(/1500000\/1500000 .*100%/);

    const piped = await pull(freshOut());
    expect(piped.code).toBe(0);
    expect(piped.io.err()).toBe('');
  });

  it('stops a redirect loop and an unknown repository with a typed error', async () => {
    await serve({ redirectLoop: true });
    const loop = await pull(freshOut());
    expect(loop.code).toBe(1);
    expect(loop.io.err()).toMatch(/config\.json: more than 5 redirects: a redirect loop/);
    const missing = captureIo();
    expect(await runCli(['model', 'pull', 'acme/absent', '--out', freshOut()], missing)).toBe(1);
    expect(missing.err()).toMatch(/revision\/main: not found: check the repository id and the revision/);
    const bad = await pullRepository('not a repo', { out: freshOut() }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(HubDownloadError);
  });
});

describe('haggle model build --base hf:ORG/REPO --adapter hf:ORG/ADAPTER', () => {
  it('pulls both from the hub, then builds a model that passes --check', async () => {
    const base = join(root, 'qwen-base');
    const adapter = join(root, 'qwen-adapter');
    writeHfCheckpoint(base, { shape: SMALL_QWEN3, seed: 5, dtype: 'BF16', shards: 2 });
    writeLoraAdapter(adapter, SMALL_QWEN3, { rank: 8, alpha: 16, seed: 6 });
    const server = await serve({ repos: { 'acme/qwen3-small': base, 'acme/negotiator-lora': adapter } });
    const downloads = join(root, 'downloads');
    const out = join(root, 'built');
    const io = captureIo();
    const code = await runCli(
      [
        'model',
        'build',
        '--base',
        'hf:acme/qwen3-small',
        '--adapter',
        'hf:acme/negotiator-lora',
        '--out',
        out,
        '--download-dir',
        downloads,
        '--check',
      ],
      io,
    );
    expect(io.err()).not.toMatch(/error/);
    expect(code).toBe(0);
    expect(io.out()).toMatch(/^ok fp32: largest logit difference/);
    expect(io.out()).toMatch(/adapter merged into 14 projections/);
    // The cache folder names the commit it holds: a new commit on the hub is pulled into a new folder.
    const commit = server.commitOf('acme/qwen3-small');
    expect(readdirSync(join(downloads, 'acme--qwen3-small'))).toEqual([commit]);
    expect(readdirSync(join(downloads, 'acme--negotiator-lora'))).toEqual([
      server.commitOf('acme/negotiator-lora'),
    ]);
    for (const name of readdirSync(base))
      expect(
        readFileSync(join(downloads, 'acme--qwen3-small', commit, name)).equals(
          readFileSync(join(base, name)),
        ),
        name,
      ).toBe(true);
    const record = JSON.parse(readFileSync(join(out, 'haggle-model.json'), 'utf8'));
    expect(record.adapter.r).toBe(8);
    expect(
      server.requests.some(
        (r) =>
          r.path ===
          `/acme/negotiator-lora/resolve/${server.commitOf('acme/negotiator-lora')}/adapter_model.safetensors`,
      ),
    ).toBe(true);
  });
});
