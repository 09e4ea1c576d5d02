/**
 * The sizes of a Qwen3 decoder, as its `config.json` gives them: GQA with q/k norms, RoPE, SwiGLU,
 * tied embeddings. `headDim` is not hidden/heads in Qwen3, so nothing may assume it is.
 */
export interface Qwen3Shape {
  vocabSize: number;
  hiddenSize: number;
  intermediateSize: number;
  layers: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  rmsNormEps: number;
  ropeTheta: number;
}

/**
 * The largest size of each config.json field `haggle model build` accepts (haggle's choice). Each is
 * several times what any released Qwen3 checkpoint has (assumed from the published configs: under 100
 * layers, hidden sizes of a few thousand, a vocabulary of about 152,000), so every real Qwen3 passes,
 * while a config that claims a billion layers is refused in microseconds instead of after a minute
 * and gigabytes spent listing the tensors it implies.
 */
export const QWEN3_BOUNDS = {
  num_hidden_layers: 256,
  hidden_size: 65_536,
  intermediate_size: 262_144,
  num_attention_heads: 1_024,
  num_key_value_heads: 1_024,
  head_dim: 1_024,
  vocab_size: 4_194_304,
} as const;
