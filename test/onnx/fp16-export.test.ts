import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_QWEN3 } from '../../scripts/fixture-model/config.js';
import { halfToFloat32 } from '../../src/onnx/float16.js';
import { fixtureModel } from './fixture-model.js';
import { expectValidHalfPrecisionTurns, prefillFromEmpty } from './half-precision.js';

// The fixture's fp16 export has the interface of a real one (`model_fp16.onnx`: KV cache and logits in
// float16) around float32 arithmetic, so its logits are the fp32 graph's rounded to half precision. That
// is the code path a GPU user meets: half-precision tensors in and out of every step.
const { vocabSize } = TINY_QWEN3;
const folder = fixtureModel(1, { fp16: true });
let fp32: ort.InferenceSession;
let fp16: ort.InferenceSession;

beforeAll(async () => {
  fp32 = await ort.InferenceSession.create(join(folder, 'onnx', 'model.onnx'));
  fp16 = await ort.InferenceSession.create(join(folder, 'onnx', 'model_fp16.onnx'));
});
afterAll(async () => {
  await fp32?.release();
  await fp16?.release();
});

describe('the fixture fp16 export', () => {
  it('takes and returns the KV cache and logits as float16, equal to fp32 within half precision', async () => {
    const ids = [151644, 872, 198, 9707, 11, 1879, 0];
    const full = await prefillFromEmpty(fp32, ids, 'float32');
    const half = await prefillFromEmpty(fp16, ids, 'float16');
    expect(half.logits?.type).toBe('float16');
    expect(half['present.0.key']?.type).toBe('float16');
    const exact = full.logits?.data as Float32Array;
    const rounded = halfToFloat32(half.logits?.data as Uint16Array, 0, vocabSize);
    let worst = 0;
    for (let i = 0; i < vocabSize; i++) {
      const a = exact[i] as number;
      worst = Math.max(worst, Math.abs(a - (rounded[i] as number)) / Math.max(1, Math.abs(a)));
    }
    // Half precision keeps 11 significant bits: a relative error of at most 2^-11.
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(2 ** -11);
  });

  it('OnnxBackend loads it with dtype fp16, keeps an fp16 KV cache and returns valid JSON', async () => {
    await expectValidHalfPrecisionTurns(folder, 'fp16');
  });
});
