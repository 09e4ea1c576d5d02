import type { GraphOptions } from './qwen3-graph.js';
import { type ModelDtype, Q4F16_BLOCK } from './stored-weights.js';

/**
 * q4's `MatMulNBits` `accuracy_level`: 4, activations quantized to int8 per block inside the operator,
 * which onnxruntime's CPU kernels multiply with int8 dot products (haggle's choice: twice the tokens a
 * second of the float32 path on the qwen3-0.6b preset, docs/benchmarks.md; onnxruntime-genai builds its
 * CPU int4 models the same way). It costs exactness: --check's q4 tolerance is set for it.
 */
export const Q4_ACCURACY_LEVEL = 4;

/**
 * How each dtype's graph is built, one place for `haggle model build` and the fixture presets:
 * fp16 and q4f16 compute in half precision throughout, as real exports of those dtypes do; q4 keeps
 * float32 activations and KV cache around 4-bit `MatMulNBits` projections (onnxruntime's CPU provider
 * computes float16 slowly), and quantizes the tied LM head too (haggle's choice, measured in
 * docs/benchmarks.md: the head is the one matrix every token reads whole). q8 is q4 with 8-bit weights,
 * the same accuracy level (int8 activations are what make MatMulNBits fast on a CPU, whatever the bits).
 */
export function dtypeGraphOptions(dtype: ModelDtype): Omit<GraphOptions, 'sink'> {
  switch (dtype) {
    case 'fp32':
      return {};
    case 'fp16':
      return { computeType: 'float16', interfaceType: 'float16' };
    case 'q4f16':
      return { computeType: 'float16', interfaceType: 'float16', quantize: 'q4', blockSize: Q4F16_BLOCK };
    case 'q4':
      return {
        quantize: 'q4',
        blockSize: Q4F16_BLOCK,
        quantizeHead: true,
        accuracyLevel: Q4_ACCURACY_LEVEL,
        fuseCpuOps: true,
        kvOutputs: 'new',
      };
    case 'q8':
      return {
        quantize: 'q8',
        blockSize: Q4F16_BLOCK,
        quantizeHead: true,
        accuracyLevel: Q4_ACCURACY_LEVEL,
        fuseCpuOps: true,
        kvOutputs: 'new',
      };
  }
}

/** `config.json`'s `transformers.js_config.kv_cache_dtype`: the KV cache's element type per dtype. */
export const KV_CACHE_DTYPE: Record<ModelDtype, 'float32' | 'float16'> = {
  fp32: 'float32',
  fp16: 'float16',
  q4f16: 'float16',
  q4: 'float32',
  q8: 'float32',
};
