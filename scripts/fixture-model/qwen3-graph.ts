import {
  buildQwen3Graph as buildFromSource,
  type GraphOptions,
} from '../../src/onnx/model-build/qwen3-graph.js';
import type { TinyQwen3Config } from './config.js';
import { inMemoryWeights, type TinyQwen3Weights, type WeightSource } from './weights.js';

export {
  type GraphOptions,
  MASKED_SCORE,
  MASKED_SCORE_HALF,
} from '../../src/onnx/model-build/qwen3-graph.js';

/** The fixture's graph (the builder lives in src/onnx/model-build, which `haggle model build` uses too). */
export function buildQwen3Graph(
  config: TinyQwen3Config,
  weights: TinyQwen3Weights | WeightSource,
  options: GraphOptions = {},
): Uint8Array {
  return buildFromSource(config, 'embed' in weights ? inMemoryWeights(weights) : weights, options);
}
