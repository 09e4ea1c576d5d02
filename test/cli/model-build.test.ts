import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHfCheckpoint, writeLoraAdapter } from '../../scripts/fixture-model/hf-checkpoint.js';
import { runCli } from '../../src/cli/main.js';
import { TurnSchema } from '../../src/contract/turn.js';
import { captureIo } from '../helpers/capture-io.js';
import { SMALL_QWEN3, tempFolder } from '../onnx/model-build/checkpoints.js';

const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;
const root = tempFolder('cli-model-build');
const base = join(root, 'base');
const adapter = join(root, 'adapter');

beforeAll(() => {
  writeHfCheckpoint(base, { shape: SMALL_QWEN3, seed: 3, dtype: 'BF16', shards: 2 });
  // The model card's adapter: rank 64, alpha 128, all seven projections.
  writeLoraAdapter(adapter, SMALL_QWEN3, { rank: 64, alpha: 128, seed: 4 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const context = {
  id: 'l1',
  item: { title: 'Nikon F3 camera body', category: 'Cameras & Photo', condition: 'Used', description: '' },
  listPrice: 120,
  currency: 'USD',
  seller: { feedbackScore: 100 },
  buyer: { feedbackScore: 5 },
};

describe('haggle model build', () => {
  it('writes a folder that `haggle predict --backend onnx --model DIR` loads and predicts valid turns with', async () => {
    const out = join(root, 'model');
    const io = captureIo();
    const code = await runCli(
      ['model', 'build', '--base', base, '--adapter', adapter, '--out', out, '--dtype', 'fp32', '--check'],
      io,
    );
    expect(io.err()).not.toMatch(/error/);
    expect(code).toBe(0);
    expect(io.out()).toMatch(/^ok fp32: largest logit difference from the float64 reference /);
    expect(io.out()).toMatch(/adapter merged into 14 projections/);
    expect(existsSync(join(out, 'haggle-model.json'))).toBe(true);

    const file = join(root, 'context.json');
    writeFileSync(file, JSON.stringify(context));
    for (const seed of ['1', '2', '3']) {
      const predicted = captureIo();
      expect(
        await runCli(
          ['predict', '--backend', 'onnx', '--model', out, '--context', file, '--seed', seed],
          predicted,
        ),
      ).toBe(0);
      expect(TurnSchema.safeParse(JSON.parse(predicted.out())).success).toBe(true);
    }
  });

  it('exits 2 with one line naming the tensor for an adapter it cannot merge, and leaves no folder', async () => {
    const bad = join(root, 'bad-adapter');
    writeLoraAdapter(bad, SMALL_QWEN3, { rank: 8, alpha: 16, seed: 4, config: { r: 16 } });
    const io = captureIo();
    const out = join(root, 'not-built');
    expect(await runCli(['model', 'build', '--base', base, '--adapter', bad, '--out', out], io)).toBe(2);
    expect(io.err()).toMatch(
      /^haggle: .*adapter_model\.safetensors \(tensor base_model\.model\.model\.layers\.0\.self_attn\.q_proj\.lora_A\.weight\): shape \[8, 64\], but r = 16/,
    );
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a bad --dtype and an existing --out without --overwrite', async () => {
    const io = captureIo();
    expect(
      await runCli(['model', 'build', '--base', base, '--out', join(root, 'x'), '--dtype', 'int8'], io),
    ).toBe(2);
    expect(io.err()).toMatch(/--dtype must be fp32, fp16, q4f16, q4 or q8/);
    const again = captureIo();
    expect(await runCli(['model', 'build', '--base', base, '--out', join(root, 'model')], again)).toBe(2);
    expect(again.err()).toMatch(/already exists.*--overwrite/);
  });

  it('stops on SIGTERM: exit 130, nothing left behind', async () => {
    const out = join(root, 'terminated');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', BIN, 'model', 'build', '--base', base, '--out', out, '--dtype', 'fp32,fp16,q4f16'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Once the last shard is being hashed, the build is under way.
    while (!/hashing .*adapter|hashing .*00002-of-00002/.test(stderr))
      await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGTERM');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/haggle: Aborted: terminated \(SIGTERM\)/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(root).filter((name) => name.includes('terminated'))).toEqual([]);
  });
});
