import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHfCheckpoint } from '../../scripts/fixture-model/hf-checkpoint.js';
import { SMALL_QWEN3, tempFolder } from '../onnx/model-build/checkpoints.js';
import { type Ended, haggleUnderCeiling, KILL_AFTER_MS } from './ceiling-cli.js';

// Issue 40: `haggle model build` believed its folder before checking it. A config of a billion layers
// ran 64 s and took 2.5 GB before a RangeError; tokenizer.json linked to /dev/urandom was "built" into
// a 0-byte copy of mode 0666, and as a FIFO it hung after the ONNX file was written; overlapping
// safetensors offsets were accepted; config.json linked to /etc/passwd put `root:x:0:0` into the error.
// Each case runs `npx haggle model build --base DIR --out DIR` as a real process under a memory
// ceiling (RLIMIT_DATA) and a kill timeout, as the other hostile tests do.

const PEAK_LIMIT_KIB = 512 * 1024;
const root = tempFolder('hostile-model-folder');
/** A whole, buildable checkpoint (the real Qwen3 tokenizer, a single safetensors file). */
const good = join(root, 'good');
afterAll(() => rmSync(root, { recursive: true, force: true }));

let startupSeconds = 0;
beforeAll(async () => {
  if (spawnSync('prlimit', ['--version']).status !== 0)
    throw new Error('these tests need prlimit (util-linux) on the PATH');
  writeHfCheckpoint(good, { shape: SMALL_QWEN3, seed: 3, dtype: 'BF16', shards: 1 });
  const version = await haggleUnderCeiling(['--version']);
  expect(version.code).toBe(0);
  startupSeconds = version.seconds;
}, KILL_AFTER_MS + 30_000);

let copies = 0;
/** A copy of the good checkpoint to spoil, and an `--out` beside it that must stay absent. */
function spoiled(label: string): { base: string; out: string } {
  const base = join(root, `${label}-${++copies}`);
  cpSync(good, base, { recursive: true });
  return { base, out: join(root, `${label}-${copies}-built`) };
}

const build = (base: string, out: string) =>
  haggleUnderCeiling(['model', 'build', '--base', base, '--out', out]);

/** Exit 2, one line naming `file`, quick, small, no stack, no escape, nothing built. */
function expectRefused(result: Ended & { peakKiB: number }, out: string, message: RegExp): void {
  expect(result.signal).toBeNull();
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/RangeError|TypeError|at .*\.ts:\d+/);
  expect(result.code).toBe(2);
  expect(result.peakKiB).toBeGreaterThan(0);
  expect(result.peakKiB).toBeLessThan(PEAK_LIMIT_KIB);
  expect(existsSync(out)).toBe(false);
}

describe('haggle model build checks its folder before it believes it (a child process under prlimit)', () => {
  it(
    'refuses num_hidden_layers 1e9 within 2 s of start-up, exit 2, naming the field and the bound',
    async () => {
      const { base, out } = spoiled('layers');
      const config = JSON.parse(readFileSync(join(base, 'config.json'), 'utf8'));
      writeFileSync(join(base, 'config.json'), JSON.stringify({ ...config, num_hidden_layers: 1e9 }));
      const result = await build(base, out);
      expectRefused(
        result,
        out,
        /config\.json: num_hidden_layers is 1000000000, over 256, the most haggle builds/,
      );
      // Today's code listed a billion layers' tensors: a minute and 2.5 GB, then a RangeError.
      expect(result.seconds).toBeLessThan(startupSeconds + 2);
    },
    KILL_AFTER_MS + 10_000,
  );

  it(
    'refuses a config whose num_hidden_layers is in bounds but not what the shards hold',
    async () => {
      const { base, out } = spoiled('layers-mismatch');
      const config = JSON.parse(readFileSync(join(base, 'config.json'), 'utf8'));
      writeFileSync(join(base, 'config.json'), JSON.stringify({ ...config, num_hidden_layers: 200 }));
      expectRefused(
        await build(base, out),
        out,
        /config\.json: num_hidden_layers is 200, but the checkpoint's tensors hold 2 layers/,
      );
    },
    KILL_AFTER_MS + 10_000,
  );

  it.each([
    [
      'a link to a device',
      (path: string) => symlinkSync('/dev/urandom', path),
      /is a symbolic link to \/dev\/urandom, outside its folder/,
    ],
    [
      'a link to a file outside the folder',
      (path: string) => {
        const elsewhere = join(root, `elsewhere-${++copies}`);
        mkdirSync(elsewhere);
        cpSync(join(good, 'tokenizer.json'), join(elsewhere, 'tokenizer.json'));
        symlinkSync(join(elsewhere, 'tokenizer.json'), path);
      },
      /is a symbolic link to .*elsewhere-\d+\/tokenizer\.json, outside its folder/,
    ],
    [
      'a named pipe with no writer',
      (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0),
      /is a named pipe \(FIFO\), not a file/,
    ],
  ])(
    'refuses tokenizer.json as %s, exit 2 naming the file, before anything is written',
    async (_what, spoil, message) => {
      const { base, out } = spoiled('tokenizer');
      rmSync(join(base, 'tokenizer.json'));
      spoil(join(base, 'tokenizer.json'));
      const result = await build(base, out);
      expectRefused(result, out, new RegExp(`${base}/tokenizer\\.json: ${message.source}`));
      // Refused before hashing or converting anything.
      expect(result.stdout).toBe('');
    },
    KILL_AFTER_MS + 10_000,
  );

  it(
    'refuses a config.json linked to a file outside the folder without quoting it, and a non-JSON one too',
    async () => {
      const secret = join(root, 'passwd');
      writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n');
      const linked = spoiled('config-link');
      rmSync(join(linked.base, 'config.json'));
      symlinkSync(secret, join(linked.base, 'config.json'));
      const refused = await build(linked.base, linked.out);
      expectRefused(refused, linked.out, /config\.json: is a symbolic link to .*passwd, outside its folder/);
      expect(refused.stderr).not.toMatch(/root:x|daemon/);

      // The same text as a regular file in the folder: not JSON, and the error says where, not what.
      const copied = spoiled('config-text');
      cpSync(secret, join(copied.base, 'config.json'));
      const notJson = await build(copied.base, copied.out);
      expectRefused(notJson, copied.out, /config\.json: is not valid JSON( \(at character \d+\))?\n$/);
      expect(notJson.stderr).not.toMatch(/root:x|daemon|"r/);
    },
    2 * KILL_AFTER_MS + 10_000,
  );

  it(
    "refuses safetensors offsets that overlap (one tensor reading another's bytes)",
    async () => {
      const { base, out } = spoiled('overlap');
      const shard = join(base, 'model.safetensors');
      // Point post_attention_layernorm of layer 0 at input_layernorm's bytes: same size, same dtype,
      // so every other check passes; the header is padded back to its length with spaces.
      const fd = openSync(shard, 'r+');
      try {
        const prefix = Buffer.alloc(8);
        readSync(fd, prefix, 0, 8, 0);
        const length = Number(prefix.readBigUInt64LE(0));
        const text = Buffer.alloc(length);
        readSync(fd, text, 0, length, 8);
        const header = JSON.parse(text.toString('utf8'));
        const a = header['model.layers.0.input_layernorm.weight'];
        const b = header['model.layers.0.post_attention_layernorm.weight'];
        expect(a.shape).toEqual(b.shape);
        const [first, second] = a.data_offsets[0] < b.data_offsets[0] ? [a, b] : [b, a];
        second.data_offsets = [...first.data_offsets];
        const json = JSON.stringify(header);
        expect(json.length).toBeLessThanOrEqual(length);
        writeSync(fd, Buffer.from(json.padEnd(length, ' ')), 0, length, 8);
      } finally {
        closeSync(fd);
      }
      expectRefused(
        await build(base, out),
        out,
        /model\.safetensors \(tensor model\.layers\.0\.\w+\.weight\): its data_offsets overlap the tensor before it/,
      );
    },
    KILL_AFTER_MS + 10_000,
  );
});
