import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { onnx } from 'onnx-proto';
import { afterAll, describe, expect, it } from 'vitest';
import type { TinyQwen3Config } from '../../scripts/fixture-model/config.js';
import { ExternalDataWriter } from '../../scripts/fixture-model/external-data-writer.js';
import { parameterCount, QWEN3_PRESETS } from '../../scripts/fixture-model/presets.js';
import { checkFixtureModel } from '../../scripts/fixture-model/reference-check.js';
import { seededTensor } from '../../scripts/fixture-model/seeded-tensor.js';
import { DTYPE_FILE, writePresetModel } from '../../scripts/fixture-model/write-preset-folder.js';
import { fixtureModel } from './fixture-model.js';

const proto = (createRequire(import.meta.url)('onnx-proto') as { onnx: typeof onnx }).onnx;

// The real-size presets take minutes and gigabytes, so no test builds them: a small shape goes
// through the same streaming writer, half-precision graph and 4-bit packing, and the same check.
// head_dim 32 is not hidden / heads (16), as in Qwen3, so nothing may assume it is.
const SMALL: TinyQwen3Config = {
  vocabSize: 4096,
  hiddenSize: 64,
  intermediateSize: 128,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  headDim: 32,
  rmsNormEps: 1e-6,
  ropeTheta: 1_000_000,
};
const TOKENS = [1, 17, 300, 4095, 2, 2048];
const dir = mkdtempSync(join(tmpdir(), 'haggle-presets-'));
const folder = join(dir, 'small');
writePresetModel(folder, {
  preset: 'qwen3-0.6b',
  config: SMALL,
  seed: 3,
  dtypes: ['fp32', 'fp16', 'q4f16', 'q4', 'q8'],
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the real-size presets', () => {
  it('have the parameter counts of the model cards (Qwen3-0.6B: 0.6B, 0.44B without embeddings; Qwen3-4B: 4.0B, 3.6B)', () => {
    const embedding = (c: TinyQwen3Config) => c.vocabSize * c.hiddenSize;
    const small = QWEN3_PRESETS['qwen3-0.6b'];
    const big = QWEN3_PRESETS['qwen3-4b'];
    expect(parameterCount(small) / 1e9).toBeCloseTo(0.6, 1);
    expect((parameterCount(small) - embedding(small)) / 1e9).toBeCloseTo(0.44, 2);
    expect(parameterCount(big) / 1e9).toBeCloseTo(4.0, 1);
    expect((parameterCount(big) - embedding(big)) / 1e9).toBeCloseTo(3.6, 1);
  });
});

describe('a preset written through the streaming writer', () => {
  it('keeps every large weight in <model>.onnx_data, 4 kB aligned, and config.json the shape', () => {
    const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));
    expect(config).toMatchObject({
      num_hidden_layers: 2,
      hidden_size: 64,
      head_dim: 32,
      num_key_value_heads: 2,
    });
    expect(config['transformers.js_config'].use_external_data_format).toEqual({
      'model.onnx': 1,
      'model_fp16.onnx': 1,
      'model_q4f16.onnx': 1,
      'model_q4.onnx': 1,
      'model_q8.onnx': 1,
    });
    for (const file of Object.values(DTYPE_FILE)) {
      const model = proto.ModelProto.decode(readFileSync(join(folder, 'onnx', file)));
      const external = (model.graph?.initializer ?? []).filter(
        (t) => t.dataLocation === proto.TensorProto.DataLocation.EXTERNAL,
      );
      // embedding + 7 projections per layer (+ 7 scale tensors in q4f16, of 1 kB or more when large)
      expect(external.length).toBeGreaterThanOrEqual(1 + 7 * SMALL.layers);
      for (const tensor of model.graph?.initializer ?? [])
        if (tensor.dataLocation !== proto.TensorProto.DataLocation.EXTERNAL)
          expect(tensor.rawData?.length ?? 0).toBeLessThan(1024);
      const dataSize = statSync(join(folder, 'onnx', `${file}_data`)).size;
      for (const tensor of external) {
        const entry = (key: string) => Number(tensor.externalData?.find((e) => e.key === key)?.value);
        expect(entry('offset') % 4096).toBe(0);
        expect(entry('offset') + entry('length')).toBeLessThanOrEqual(dataSize);
      }
    }
    // Half precision halves the weights; 4 bits (plus a 2-byte scale per 32) about a quarter of that.
    const size = (file: string) => statSync(join(folder, 'onnx', `${file}_data`)).size;
    expect(size('model_fp16.onnx')).toBeLessThan(0.6 * size('model.onnx'));
    expect(size('model_q4f16.onnx')).toBeLessThan(size('model_fp16.onnx'));
    // q4: the float32 embedding, and the 4-bit head and projections beside it.
    expect(size('model_q4.onnx')).toBeLessThan(size('model.onnx'));
    // q8: the same with a byte a weight (at this small shape the 4 kB alignment and the float32
    // embedding beside the 8-bit head leave it no smaller than fp32).
    expect(size('model_q8.onnx')).toBeGreaterThan(size('model_q4.onnx'));
  });

  it('matches the float64 reference forward pass in fp32, fp16, q4f16, q4 and q8', async () => {
    for (const dtype of ['fp32', 'fp16', 'q4f16', 'q4', 'q8'] as const) {
      const result = await checkFixtureModel(folder, { dtype, tokens: TOKENS });
      expect(result.ok, `${dtype}: ${result.relative}`).toBe(true);
      expect(result.sameArgmax).toBe(TOKENS.length);
    }
  });

  it('and the check fails on a graph that computes something else (rotary frequencies off by 2x)', async () => {
    const broken = join(dir, 'broken');
    writePresetModel(broken, { preset: 'qwen3-0.6b', config: SMALL, seed: 3, dtypes: ['fp32'] });
    const path = join(broken, 'onnx', 'model.onnx');
    const model = proto.ModelProto.decode(readFileSync(path));
    // The reference computes the rotary angles from config.json's rope_theta, not from the graph.
    const frequencies = model.graph?.initializer?.find((t) => t.name === 'rope.inv_freq');
    if (!frequencies?.rawData) throw new Error('no rope.inv_freq in the graph');
    const values = new Float32Array(new Uint8Array(frequencies.rawData).buffer);
    frequencies.rawData = new Uint8Array(values.map((v) => 2 * v).buffer);
    writeFileSync(path, proto.ModelProto.encode(model).finish());
    const result = await checkFixtureModel(broken, { dtype: 'fp32', tokens: TOKENS });
    expect(result.ok).toBe(false);
    expect(result.relative).toBeGreaterThan(1e-2);
  });

  it('the tiny fixture the tests use passes the same check', async () => {
    const result = await checkFixtureModel(fixtureModel(1), { dtype: 'fp32' });
    expect(result.ok).toBe(true);
    expect(result.relative).toBeLessThan(1e-4);
  });
});

describe('the pieces of the streaming path', () => {
  it('ExternalDataWriter appends pieces, each tensor starting on a 4 kB boundary', () => {
    const path = join(dir, 'data.bin');
    const writer = new ExternalDataWriter(path);
    const a = writer.write([Uint8Array.of(1, 2, 3)]);
    const b = writer.write([Uint8Array.of(4), Uint8Array.of(5, 6)]);
    writer.close();
    expect(a).toEqual({ location: 'data.bin', offset: 0, length: 3 });
    expect(b).toEqual({ location: 'data.bin', offset: 4096, length: 3 });
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([1, 2, 3]);
    expect([...bytes.subarray(4096, 4099)]).toEqual([4, 5, 6]);
  });

  it('seeded tensors repeat from (seed, name), differ otherwise, and have the asked standard deviation', () => {
    const a = seededTensor(1, 'layer.0.q', 100_000, 0.5);
    expect(seededTensor(1, 'layer.0.q', 100_000, 0.5)).toEqual(a);
    expect(seededTensor(2, 'layer.0.q', 100_000, 0.5)).not.toEqual(a);
    expect(seededTensor(1, 'layer.0.k', 100_000, 0.5)).not.toEqual(a);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    const std = Math.sqrt(a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length);
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(std).toBeCloseTo(0.5, 2);
  });
});
