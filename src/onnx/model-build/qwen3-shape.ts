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
