import { Random } from '../../src/internal/random.js';
import type { WeightSource } from '../../src/onnx/model-build/weight-source.js';
import type { TinyQwen3Config } from './config.js';

export interface LayerWeights {
  inputNorm: Float32Array;
  /** Projections stored as [in, out] (what ONNX MatMul wants; transformers stores [out, in]). */
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  o: Float32Array;
  qNorm: Float32Array;
  kNorm: Float32Array;
  postNorm: Float32Array;
  gate: Float32Array;
  up: Float32Array;
  down: Float32Array;
}

export interface TinyQwen3Weights {
  /** [vocab, hidden]; also the output head (tied). */
  embed: Float32Array;
  layers: LayerWeights[];
  finalNorm: Float32Array;
}

/**
 * Seeded weights. The embedding is large (std 1) so the tied head gives peaked, context-dependent
 * logits: a random model that is opinionated is a harder customer for the constrained decoder than
 * a flat one, and it makes sampling bugs visible.
 */
export function makeWeights(config: TinyQwen3Config, seed: number): TinyQwen3Weights {
  const random = new Random(seed);
  const normal = (n: number, std: number) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i += 2) {
      // Box-Muller: two normals per two uniforms.
      const u = 1 - random.next();
      const v = random.next();
      const r = Math.sqrt(-2 * Math.log(u)) * std;
      out[i] = r * Math.cos(2 * Math.PI * v);
      if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v);
    }
    return out;
  };
  const norm = (n: number) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = 1 + 0.1 * (random.next() - 0.5);
    return out;
  };
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m } = config;
  const embed = normal(config.vocabSize * d, 1);
  const layers: LayerWeights[] = [];
  for (let l = 0; l < config.layers; l++) {
    layers.push({
      inputNorm: norm(d),
      q: normal(d * heads * headDim, 1 / Math.sqrt(d)),
      k: normal(d * kvHeads * headDim, 1 / Math.sqrt(d)),
      v: normal(d * kvHeads * headDim, 1 / Math.sqrt(d)),
      o: normal(heads * headDim * d, 1 / Math.sqrt(heads * headDim)),
      qNorm: norm(headDim),
      kNorm: norm(headDim),
      postNorm: norm(d),
      gate: normal(d * m, 1 / Math.sqrt(d)),
      up: normal(d * m, 1 / Math.sqrt(d)),
      down: normal(m * d, 1 / Math.sqrt(m)),
    });
  }
  return { embed, layers, finalNorm: norm(d) };
}

export type { NormKind, ProjectionKind, WeightSource } from '../../src/onnx/model-build/weight-source.js';

/** A source over weights held in memory (the tiny model's `makeWeights`). */
export function inMemoryWeights(weights: TinyQwen3Weights): WeightSource {
  const layer = (l: number) => {
    const w = weights.layers[l];
    if (!w) throw new Error(`no weights for layer ${l}`);
    return w;
  };
  return {
    projection: (l, kind) => layer(l)[kind],
    norm: (l, kind) => layer(l)[kind],
    finalNorm: () => weights.finalNorm,
    embedChunks: () => [weights.embed],
  };
}
