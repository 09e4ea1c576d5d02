import { quantize4 } from '../../src/onnx/model-build/quantize-4bit.js';
import type { TinyQwen3Config } from './config.js';
import type { TinyQwen3Weights } from './weights.js';

export { Q4_BLOCK, type Quantized4, quantize4 } from '../../src/onnx/model-build/quantize-4bit.js';

/** The weights a q4 graph computes with: every layer projection replaced by its dequantized form. */
export function dequantizedWeights(weights: TinyQwen3Weights, config: TinyQwen3Config): TinyQwen3Weights {
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m } = config;
  const back = (w: Float32Array, k: number, n: number) => quantize4(w, k, n).dequantized;
  return {
    ...weights,
    layers: weights.layers.map((layer) => ({
      ...layer,
      q: back(layer.q, d, heads * headDim),
      k: back(layer.k, d, kvHeads * headDim),
      v: back(layer.v, d, kvHeads * headDim),
      o: back(layer.o, heads * headDim, d),
      gate: back(layer.gate, d, m),
      up: back(layer.up, d, m),
      down: back(layer.down, m, d),
    })),
  };
}
