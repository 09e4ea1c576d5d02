import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_QWEN3 } from '../../scripts/fixture-model/config.js';
import { dequantizedWeights } from '../../scripts/fixture-model/quantize-4bit.js';
import { referenceLogits } from '../../scripts/fixture-model/reference-forward.js';
import { makeWeights } from '../../scripts/fixture-model/weights.js';
import { halfToFloat32 } from '../../src/onnx/float16.js';
import { fixtureModel } from './fixture-model.js';
import { expectValidHalfPrecisionTurns, prefillFromEmpty } from './half-precision.js';

// A q4f16 export (`model_q4f16.onnx`, what transformers.js users run on WebGPU and CUDA) keeps its
// projections in onnxruntime's MatMulNBits with 4-bit block weights, behind the fp16 interface. The
// fixture's has the same operator and layout, so the quantized path of the decode loop runs on the CPU.
const { vocabSize } = TINY_QWEN3;
const folder = fixtureModel(1, { q4f16: true });
let q4: ort.InferenceSession;

beforeAll(async () => {
  q4 = await ort.InferenceSession.create(join(folder, 'onnx', 'model_q4f16.onnx'));
});
afterAll(async () => {
  await q4?.release();
});

describe('the fixture q4f16 export', () => {
  it('computes the reference forward pass of its dequantized weights (4-bit packing and scales right)', async () => {
    const ids = [151644, 872, 198, 9707, 11, 1246, 525, 498];
    const out = await prefillFromEmpty(q4, ids, 'float16');
    const logits = out.logits as ort.Tensor;
    expect(logits.type).toBe('float16');
    expect((out['present.0.key'] as ort.Tensor).type).toBe('float16');
    const got = halfToFloat32(logits.data as Uint16Array, 0, vocabSize);
    const weights = makeWeights(TINY_QWEN3, 1);
    const reference = referenceLogits(TINY_QWEN3, dequantizedWeights(weights, TINY_QWEN3), ids).at(
      -1,
    ) as Float64Array;
    const unquantized = referenceLogits(TINY_QWEN3, weights, ids).at(-1) as Float64Array;
    let worst = 0;
    let moved = 0;
    for (let i = 0; i < vocabSize; i++) {
      const want = reference[i] as number;
      // Half precision out: within 2^-10 relative, plus a little for float32 arithmetic inside.
      worst = Math.max(worst, Math.abs((got[i] as number) - want) / Math.max(1, Math.abs(want)));
      moved = Math.max(moved, Math.abs(want - (unquantized[i] as number)));
    }
    expect(worst).toBeLessThan(2e-3);
    // And quantization did change the model (the test would pass vacuously on float weights).
    expect(moved).toBeGreaterThan(1e-2);
  });

  it('OnnxBackend loads it with dtype q4f16, keeps an fp16 KV cache and returns valid JSON', async () => {
    await expectValidHalfPrecisionTurns(folder, 'q4f16');
  });
});
