import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_QWEN3 } from '../../scripts/fixture-model/config.js';
import { writeHfCheckpoint } from '../../scripts/fixture-model/hf-checkpoint.js';
import { OnnxWeightsReader } from '../../scripts/fixture-model/onnx-weights-reader.js';
import { buildQwen3Graph } from '../../scripts/fixture-model/qwen3-graph.js';
import { checkFixtureModel } from '../../scripts/fixture-model/reference-check.js';
import { makeWeights } from '../../scripts/fixture-model/weights.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { CHECK_TOLERANCE, compareLogits, graphLogits } from '../../src/onnx/model-build/build-check.js';
import { dtypeGraphOptions } from '../../src/onnx/model-build/dtype-graph-options.js';
import { buildModel } from '../../src/onnx/model-build/index.js';
import { referenceLogits } from '../../src/onnx/model-build/reference-forward.js';
import type { OnnxDtype } from '../../src/onnx/onnx-options.js';
import { fixtureModel } from './fixture-model.js';
import { expectValidTurns, prefillFromEmpty, turnSchema } from './half-precision.js';
import { SMALL_QWEN3, tempFolder } from './model-build/checkpoints.js';

// The CPU's export (`model_q4.onnx`, as transformers.js names it): 4-bit MatMulNBits projections and
// LM head, float32 activations and KV cache. The tiny fixture has both it and `model.onnx`.
const folder = fixtureModel(1, { q4: true });
const root = tempFolder('q4-export');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the fixture q4 export', () => {
  let q4: ort.InferenceSession;
  let fp32: ort.InferenceSession;
  beforeAll(async () => {
    q4 = await ort.InferenceSession.create(join(folder, 'onnx', 'model_q4.onnx'));
    fp32 = await ort.InferenceSession.create(join(folder, 'onnx', 'model.onnx'));
  });
  afterAll(async () => {
    await q4?.release();
    await fp32?.release();
  });

  it('has float32 KV cache and logits, and 4-bit weights that move the logits away from fp32', async () => {
    const ids = [151644, 872, 198, 9707, 11, 1246, 525, 498];
    const got = await prefillFromEmpty(q4, ids, 'float32');
    expect((got.logits as ort.Tensor).type).toBe('float32');
    // Only the run's own keys and values come back (the decoder appends them to its cache).
    expect((got['new_key_values.0.key'] as ort.Tensor).type).toBe('float32');
    expect((got['new_key_values.0.key'] as ort.Tensor).dims).toEqual([
      1,
      TINY_QWEN3.kvHeads,
      8,
      TINY_QWEN3.headDim,
    ]);
    expect(got['present.0.key']).toBeUndefined();
    const full = (await prefillFromEmpty(fp32, ids, 'float32')).logits as ort.Tensor;
    const a = (got.logits as ort.Tensor).data as Float32Array;
    const b = full.data as Float32Array;
    let moved = 0;
    for (let i = 0; i < a.length; i++) moved = Math.max(moved, Math.abs((a[i] as number) - (b[i] as number)));
    // Quantization did change the model (a q4 file holding float weights would pass the checks vacuously).
    expect(moved).toBeGreaterThan(1e-2);
  });

  it("is within q4's --check tolerance of a float64 pass over the weights it stores (head included)", async () => {
    const check = await checkFixtureModel(folder, { dtype: 'q4' });
    expect(check.relative).toBeLessThanOrEqual(CHECK_TOLERANCE.q4);
    expect(check.ok).toBe(true);
    expect(check.sameArgmax).toBe(check.tokens);
    // The tolerance still tells a wrong weight: the same graph against a reference whose head is the
    // float32 embedding (the 4-bit head's own error) is far outside it.
    const ids = [151644, 872, 198, 9707, 11, 1879, 0];
    const reader = new OnnxWeightsReader(join(folder, 'onnx', 'model_q4.onnx'), TINY_QWEN3);
    try {
      const unquantizedHead = {
        projection: reader.projection.bind(reader),
        norm: reader.norm.bind(reader),
        finalNorm: reader.finalNorm.bind(reader),
        embedChunks: reader.embedChunks.bind(reader),
      };
      const got = await graphLogits(join(folder, 'onnx', 'model_q4.onnx'), TINY_QWEN3, ids);
      const wrong = compareLogits(got, referenceLogits(TINY_QWEN3, unquantizedHead, ids), 'q4');
      expect(wrong.relative).toBeGreaterThan(2 * CHECK_TOLERANCE.q4);
      expect(wrong.ok).toBe(false);
    } finally {
      reader.close();
    }
  });

  it('OnnxBackend on a CPU picks q4 over fp32 when both are there, with a float32 KV cache, and says so', async () => {
    const backend = await OnnxBackend.load(folder, { device: 'cpu' });
    try {
      expect(backend.dtype).toBe('q4');
      expect(backend.describe().dtype).toBe('q4');
      expect(backend.shape.kvDtype).toBe('float32');
      await expectValidTurns(backend);
    } finally {
      await backend.dispose();
    }
  });

  it('the dtype option forces an export: fp32 from the same folder, and q4 asked for by name', async () => {
    for (const dtype of ['fp32', 'q4'] as OnnxDtype[]) {
      const backend = await OnnxBackend.load(folder, { device: 'cpu', dtype });
      try {
        expect(backend.dtype).toBe(dtype);
        expect(backend.describe().dtype).toBe(dtype);
        expect(backend.shape.kvDtype).toBe('float32');
        await expectValidTurns(backend);
      } finally {
        await backend.dispose();
      }
    }
  });

  it('a q4 folder built before new_key_values (present.* outputs) still loads, and gives the same turns', async () => {
    const older = join(root, 'older-q4');
    mkdirSync(join(older, 'onnx'), { recursive: true });
    for (const name of readdirSync(folder))
      if (name !== 'onnx') copyFileSync(join(folder, name), join(older, name));
    writeFileSync(
      join(older, 'onnx', 'model_q4.onnx'),
      buildQwen3Graph(TINY_QWEN3, makeWeights(TINY_QWEN3, 1), {
        ...dtypeGraphOptions('q4'),
        kvOutputs: 'present',
      }),
    );
    const request = {
      prompt: { messages: [], text: '<|im_start|>user\nOffer?<|im_end|>\n<|im_start|>assistant\n' },
      responseFormat: {
        type: 'json' as const,
        schema: turnSchema,
      },
      seed: 5,
      maxTokens: 40,
    };
    const texts: string[][] = [];
    for (const dir of [older, folder]) {
      const backend = await OnnxBackend.load(dir, { device: 'cpu', dtype: 'q4' });
      try {
        // Batch 1 (prompt prefill, then one row), and four rows at once (batch decoding).
        const one = await backend.doGenerate(request);
        const four = await backend.doGenerate({ ...request, n: 4 });
        texts.push([...one.choices, ...four.choices].map((choice) => choice.text));
      } finally {
        await backend.dispose();
      }
    }
    const session = await ort.InferenceSession.create(join(older, 'onnx', 'model_q4.onnx'));
    expect(session.outputNames).toContain('present.0.key');
    await session.release();
    // Both forms compute the same float32 numbers; only where the cache is grown differs.
    expect(texts[0]).toEqual(texts[1]);
    expect(new Set(texts[1]).size).toBeGreaterThan(1);
  });

  it('a folder with only model.onnx still loads fp32 on a CPU; one with only model_q4.onnx loads q4', async () => {
    for (const only of ['model.onnx', 'model_q4.onnx']) {
      const copy = join(root, `only-${only}`);
      mkdirSync(join(copy, 'onnx'), { recursive: true });
      for (const name of readdirSync(folder))
        if (name !== 'onnx') copyFileSync(join(folder, name), join(copy, name));
      copyFileSync(join(folder, 'onnx', only), join(copy, 'onnx', only));
      const backend = await OnnxBackend.load(copy, { device: 'cpu' });
      try {
        expect(backend.dtype).toBe(only === 'model.onnx' ? 'fp32' : 'q4');
      } finally {
        await backend.dispose();
      }
    }
  });
});

describe('haggle model build --dtype q4', () => {
  it('writes onnx/model_q4.onnx beside model.onnx, and its --check passes within the stated tolerance', async () => {
    const base = join(root, 'base');
    writeHfCheckpoint(base, { shape: SMALL_QWEN3, seed: 11, dtype: 'BF16', shards: 1 });
    const out = join(root, 'built');
    const result = await buildModel({ base, out, dtype: ['fp32', 'q4'], check: true });
    expect(result.record.files).toEqual({ fp32: 'onnx/model.onnx', q4: 'onnx/model_q4.onnx' });
    expect(result.checks.map((c) => [c.dtype, c.ok])).toEqual([
      ['fp32', true],
      ['q4', true],
    ]);
    const q4 = result.checks[1];
    expect(q4?.tolerance).toBe(CHECK_TOLERANCE.q4);
    expect(q4?.sameArgmax).toBe(q4?.tokens);
  });
});
