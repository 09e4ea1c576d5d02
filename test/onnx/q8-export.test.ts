import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeHfCheckpoint } from '../../scripts/fixture-model/hf-checkpoint.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { CHECK_TOLERANCE } from '../../src/onnx/model-build/build-check.js';
import { buildModel } from '../../src/onnx/model-build/index.js';
import { quantize4 } from '../../src/onnx/model-build/quantize-4bit.js';
import { SMALL_QWEN3, tempFolder } from './model-build/checkpoints.js';

// q8: q4's graph (MatMulNBits projections and head, blocks of 32, accuracy_level 4, float32
// activations) with 8-bit weights, one byte each around zero point 128.
const root = tempFolder('q8-export');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('8-bit MatMulNBits blocks', () => {
  it('one byte a weight, zero point 128, within half a step of the weight', () => {
    const k = 64;
    const n = 3;
    const weight = Float32Array.from({ length: k * n }, (_, i) => Math.sin(i * 0.37) * (1 + (i % 5)));
    const q = quantize4(weight, k, n, 32, 8);
    expect(q.packed.length).toBe(k * n);
    expect(q.scales.length).toBe(n * 2);
    for (let col = 0; col < n; col++)
      for (let row = 0; row < k; row++) {
        const scale = q.scales[col * 2 + (row >> 5)] as number;
        const code = q.packed[col * k + row] as number;
        // MatMulNBits' layout: [N, blocks, block] bytes; the byte is the code, w ~ (code - 128) * scale.
        expect(q.dequantized[row * n + col]).toBeCloseTo((code - 128) * scale, 6);
        expect(Math.abs((weight[row * n + col] as number) - (code - 128) * scale)).toBeLessThanOrEqual(
          scale / 2 + 1e-6,
        );
        expect(code).toBeGreaterThanOrEqual(1);
        expect(code).toBeLessThanOrEqual(255);
      }
    // Symmetric: each block's largest |w| takes code 128 +- 127.
    const codes = Array.from(q.packed.subarray(0, 32), (c) => Math.abs(c - 128));
    expect(Math.max(...codes)).toBe(127);
  });
});

describe('haggle model build --dtype q8', () => {
  it('writes onnx/model_q8.onnx beside model.onnx, its --check passes, and a CPU load picks it over fp32', async () => {
    const base = join(root, 'base');
    writeHfCheckpoint(base, { shape: SMALL_QWEN3, seed: 11, dtype: 'BF16', shards: 1 });
    const out = join(root, 'built');
    const result = await buildModel({ base, out, dtype: ['fp32', 'q8'], check: true });
    expect(result.record.files).toEqual({ fp32: 'onnx/model.onnx', q8: 'onnx/model_q8.onnx' });
    const q8 = result.checks[1];
    expect(q8?.dtype).toBe('q8');
    expect(q8?.ok).toBe(true);
    expect(q8?.tolerance).toBe(CHECK_TOLERANCE.q8);
    expect(q8?.sameArgmax).toBe(q8?.tokens);
    // Quantized for real: a q8 file holding float weights would sit at fp32's 1e-6 from the reference.
    expect(q8?.relative as number).toBeGreaterThan(1e-4);
    // Measured faster than fp32 on a CPU (docs/benchmarks.md), so it comes before it; q4 stays first.
    const backend = await OnnxBackend.load(out, { device: 'cpu' });
    try {
      expect(backend.dtype).toBe('q8');
      expect(backend.shape.kvDtype).toBe('float32');
    } finally {
      await backend.dispose();
    }
  });
});
