import { referenceLogits as referenceFromSource } from '../../src/onnx/model-build/reference-forward.js';
import type { TinyQwen3Config } from './config.js';
import { inMemoryWeights, type TinyQwen3Weights, type WeightSource } from './weights.js';

/** The float64 reference forward pass (src/onnx/model-build/reference-forward.ts) over the fixture's weights. */
export function referenceLogits(
  config: TinyQwen3Config,
  weights: TinyQwen3Weights | WeightSource,
  ids: number[],
): Float64Array<ArrayBufferLike>[] {
  return referenceFromSource(config, 'embed' in weights ? inMemoryWeights(weights) : weights, ids);
}
