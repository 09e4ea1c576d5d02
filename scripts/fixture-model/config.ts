import type { Qwen3Shape } from '../../src/onnx/model-build/qwen3-shape.js';

/**
 * The tiny Qwen3 the project builds for its tests: the architecture of Qwen3-4B (GQA with q/k norms,
 * RoPE, SwiGLU, tied embeddings) at toy sizes, and the real vocabulary so the real tokenizer applies.
 * `head_dim` is not hidden/heads, as in Qwen3, so the graph cannot silently assume it is.
 */
export type TinyQwen3Config = Qwen3Shape;

export const TINY_QWEN3: TinyQwen3Config = {
  vocabSize: 151936,
  hiddenSize: 32,
  intermediateSize: 64,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  headDim: 16,
  rmsNormEps: 1e-6,
  ropeTheta: 1_000_000,
};

/** `config.json` as transformers writes it for Qwen3, with the tiny sizes. */
export function configJson(config: TinyQwen3Config): Record<string, unknown> {
  return {
    architectures: ['Qwen3ForCausalLM'],
    model_type: 'qwen3',
    vocab_size: config.vocabSize,
    hidden_size: config.hiddenSize,
    intermediate_size: config.intermediateSize,
    num_hidden_layers: config.layers,
    num_attention_heads: config.heads,
    num_key_value_heads: config.kvHeads,
    head_dim: config.headDim,
    hidden_act: 'silu',
    rms_norm_eps: config.rmsNormEps,
    rope_theta: config.ropeTheta,
    max_position_embeddings: 40960,
    tie_word_embeddings: true,
    attention_bias: false,
    bos_token_id: 151643,
    eos_token_id: 151645,
    torch_dtype: 'float32',
    transformers_version: '4.51.0',
    'transformers.js_config': { use_external_data_format: false, kv_cache_dtype: { fp32: 'float32' } },
  };
}

export const GENERATION_CONFIG = {
  bos_token_id: 151643,
  eos_token_id: [151645, 151643],
  pad_token_id: 151643,
  do_sample: true,
  temperature: 1.0,
  top_p: 1.0,
};
