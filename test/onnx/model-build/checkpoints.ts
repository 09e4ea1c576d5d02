import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkpointTensors,
  type LoraOptions,
  loraTensors,
  type StoredDtype,
  storedValues,
} from '../../../scripts/fixture-model/hf-checkpoint.js';
import type { Qwen3Shape } from '../../../src/onnx/model-build/qwen3-shape.js';
import {
  NORM_NAMES,
  PROJECTION_NAMES,
  type WeightSource,
} from '../../../src/onnx/model-build/weight-source.js';

/** A small Qwen3 over the real 151,936-token vocabulary (hidden 64 so a 4-bit block of 32 fits twice). */
export const SMALL_QWEN3: Qwen3Shape = {
  vocabSize: 151936,
  hiddenSize: 64,
  intermediateSize: 128,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  headDim: 32,
  rmsNormEps: 1e-6,
  ropeTheta: 1_000_000,
};

export function tempFolder(label: string): string {
  return mkdtempSync(join(tmpdir(), `haggle-${label}-`));
}

/**
 * The test's own statement of the merged model, independent of the builder's code: the base tensors
 * as the files store them, plus scale * B A computed in float64 from the adapter's stored tensors,
 * transposed to the [in, out] layout the reference forward pass takes.
 */
export function mergedReferenceWeights(
  shape: Qwen3Shape,
  seed: number,
  baseDtype: StoredDtype,
  adapter?: LoraOptions & { scale: number },
): WeightSource {
  const base = new Map(checkpointTensors(shape, seed).map((t) => [t.name, t]));
  const lora = new Map(adapter ? loraTensors(shape, adapter).map((t) => [t.name, t]) : []);
  const read = (name: string) => {
    const tensor = base.get(name);
    if (!tensor) throw new Error(`no ${name}`);
    return storedValues(tensor, baseDtype);
  };
  return {
    projection(layer, kind) {
      const name = `model.layers.${layer}.${PROJECTION_NAMES[kind]}`;
      const tensor = base.get(`${name}.weight`);
      if (!tensor) throw new Error(`no ${name}`);
      const [out, inputs] = tensor.shape as [number, number];
      const w = storedValues(tensor, baseDtype);
      const merged = new Float64Array(w);
      const a = lora.get(`base_model.model.${name}.lora_A.weight`);
      const b = lora.get(`base_model.model.${name}.lora_B.weight`);
      if (adapter && a && b) {
        const dtype = adapter.dtype ?? 'F32';
        const av = storedValues(a, dtype);
        const bv = storedValues(b, dtype);
        const r = adapter.rank;
        for (let o = 0; o < out; o++)
          for (let i = 0; i < inputs; i++) {
            let sum = 0;
            for (let k = 0; k < r; k++) sum += (bv[o * r + k] as number) * (av[k * inputs + i] as number);
            merged[o * inputs + i] = (merged[o * inputs + i] as number) + adapter.scale * sum;
          }
      }
      const transposed = new Float32Array(out * inputs);
      for (let o = 0; o < out; o++)
        for (let i = 0; i < inputs; i++) transposed[i * out + o] = merged[o * inputs + i] as number;
      return transposed;
    },
    norm: (layer, kind) => read(`model.layers.${layer}.${NORM_NAMES[kind]}`),
    finalNorm: () => read('model.norm.weight'),
    embedChunks: () => [read('model.embed_tokens.weight')],
  };
}
