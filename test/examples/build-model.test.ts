import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { writeHfCheckpoint, writeLoraAdapter } from '../../scripts/fixture-model/hf-checkpoint.js';
import { SMALL_QWEN3, tempFolder } from '../onnx/model-build/checkpoints.js';
import { runExampleOutput } from './run-example.js';

const root = tempFolder('example-build-model');
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('build-model: a bf16 sharded checkpoint + a rank-64 adapter -> an ONNX folder -> a valid turn', async () => {
  writeHfCheckpoint(join(root, 'base'), { shape: SMALL_QWEN3, seed: 2, dtype: 'BF16', shards: 2 });
  writeLoraAdapter(join(root, 'adapter'), SMALL_QWEN3, { rank: 64, alpha: 128, seed: 3 });
  const out = join(root, 'model');
  const { stdout, stderr } = await runExampleOutput(
    'build-model.ts',
    join(root, 'base'),
    join(root, 'adapter'),
    out,
    'q4f16',
  );
  expect(stdout).toMatch(
    /^built onnx\/model_q4f16\.onnx from base [0-9a-f]{12} \+ adapter [0-9a-f]{12} \(r 64, alpha 128, 14 projections merged\)$/m,
  );
  expect(stdout).toMatch(
    /^opening turn: (offer|offer_with_message|accept|decline|message_only|no_response)( at [\d.]+)?$/m,
  );
  expect(stderr).toBe('');
  expect(existsSync(join(out, 'haggle-model.json'))).toBe(true);
}, 120_000);
