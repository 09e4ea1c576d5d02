import { fromHalfArray, toHalfArray } from './half-precision.js';
import { quantize4, quantizeRows4 } from './quantize-4bit.js';
import type { Qwen3Shape } from './qwen3-shape.js';
import type { ProjectionKind, WeightSource } from './weight-source.js';

/**
 * The exports a build can write, named as transformers.js names its `dtype`s: `q4` is 4-bit weights
 * with float32 activations and KV cache (for CPUs), `q4f16` the same weights computing in half precision;
 * `q8` is q4 with 8-bit weights.
 */
export type ModelDtype = 'fp32' | 'fp16' | 'q4f16' | 'q4' | 'q8';

export const MODEL_DTYPES: readonly ModelDtype[] = ['fp32', 'fp16', 'q4f16', 'q4', 'q8'];

/** Inputs per 4-bit block in q4f16 and q4: 32, as transformers.js's q4f16 and q4 exports use. */
export const Q4F16_BLOCK = 32;

/**
 * The weights as a graph of `dtype` stores them: fp16 rounds every weight to half precision; q4f16
 * replaces each layer projection by its 4-bit blocks (dequantized) with half-precision scales and the
 * rest in half precision; q4 does the same with float32 scales, keeps the rest float32 and gives the
 * head as its 4-bit blocks (`headChunks`) beside the float32 embedding. What the float64 reference runs on to check a built graph, so that the check
 * measures the graph's arithmetic, not the (intended) loss of the dtype.
 */
export function storedWeights(source: WeightSource, dtype: ModelDtype, shape: Qwen3Shape): WeightSource {
  if (dtype === 'fp32') return source;
  if (dtype === 'q4' || dtype === 'q8') {
    const bits = dtype === 'q8' ? 8 : 4;
    return {
      projection: (layer, kind) =>
        quantize4(source.projection(layer, kind), ...kn(shape, kind), Q4F16_BLOCK, bits).dequantized,
      norm: (layer, kind) => source.norm(layer, kind),
      finalNorm: () => source.finalNorm(),
      embedChunks: () => source.embedChunks(),
      *headChunks() {
        for (const piece of source.embedChunks())
          yield quantizeRows4(piece, shape.hiddenSize, Q4F16_BLOCK, bits).dequantized;
      },
    };
  }
  const half = (values: Float32Array) => fromHalfArray(toHalfArray(values));
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m } = shape;
  const inputs = { q: d, k: d, v: d, o: heads * headDim, gate: d, up: d, down: m };
  const outputs = {
    q: heads * headDim,
    k: kvHeads * headDim,
    v: kvHeads * headDim,
    o: d,
    gate: m,
    up: m,
    down: d,
  };
  return {
    projection(layer, kind) {
      const weight = source.projection(layer, kind);
      if (dtype === 'fp16') return half(weight);
      const k = inputs[kind];
      const n = outputs[kind];
      const q = quantize4(weight, k, n, Q4F16_BLOCK);
      const scales = half(q.scales);
      const blocks = k / Q4F16_BLOCK;
      const out = new Float32Array(k * n);
      for (let row = 0; row < k; row++)
        for (let col = 0; col < n; col++) {
          const original = q.dequantized[row * n + col] as number;
          const scale = q.scales[col * blocks + Math.floor(row / Q4F16_BLOCK)] as number;
          const stored = scales[col * blocks + Math.floor(row / Q4F16_BLOCK)] as number;
          out[row * n + col] = scale === 0 ? 0 : (original / scale) * stored;
        }
      return out;
    },
    norm: (layer, kind) => half(source.norm(layer, kind)),
    finalNorm: () => half(source.finalNorm()),
    *embedChunks() {
      for (const piece of source.embedChunks()) yield half(piece);
    },
  };
}

/** The [K, N] of a layer projection of `shape`. */
function kn(shape: Qwen3Shape, kind: ProjectionKind): [number, number] {
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m } = shape;
  const sizes: Record<ProjectionKind, [number, number]> = {
    q: [d, heads * headDim],
    k: [d, kvHeads * headDim],
    v: [d, kvHeads * headDim],
    o: [heads * headDim, d],
    gate: [d, m],
    up: [d, m],
    down: [m, d],
  };
  return sizes[kind];
}
