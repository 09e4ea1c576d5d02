/** A layer's projection, by its transformers name (`q` is `self_attn.q_proj`). */
export type ProjectionKind = 'q' | 'k' | 'v' | 'o' | 'gate' | 'up' | 'down';
/** A layer's RMSNorm weight. */
export type NormKind = 'inputNorm' | 'postNorm' | 'qNorm' | 'kNorm';

export const PROJECTION_KINDS: readonly ProjectionKind[] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];
export const NORM_KINDS: readonly NormKind[] = ['inputNorm', 'postNorm', 'qNorm', 'kNorm'];

/** The transformers (Hugging Face) name of each projection inside `model.layers.{i}.`. */
export const PROJECTION_NAMES: Record<ProjectionKind, string> = {
  q: 'self_attn.q_proj',
  k: 'self_attn.k_proj',
  v: 'self_attn.v_proj',
  o: 'self_attn.o_proj',
  gate: 'mlp.gate_proj',
  up: 'mlp.up_proj',
  down: 'mlp.down_proj',
};

/** The transformers name of each RMSNorm weight inside `model.layers.{i}.`. */
export const NORM_NAMES: Record<NormKind, string> = {
  inputNorm: 'input_layernorm.weight',
  postNorm: 'post_attention_layernorm.weight',
  qNorm: 'self_attn.q_norm.weight',
  kNorm: 'self_attn.k_norm.weight',
};

/**
 * Weights as the graph builder asks for them, one tensor at a time, so a source may make each on
 * demand (a 4B checkpoint's 16 GB of float32 never exist at once) or hand out arrays it holds.
 */
export interface WeightSource {
  /** [in, out], float32 (transformers stores [out, in]; ONNX MatMul wants [in, out]). */
  projection(layer: number, kind: ProjectionKind): Float32Array;
  /** The same, computed off the main thread (the builder prefers it when a source has it). */
  projectionAsync?(layer: number, kind: ProjectionKind): Promise<Float32Array>;
  norm(layer: number, kind: NormKind): Float32Array;
  finalNorm(): Float32Array;
  /** The embedding [vocab, hidden] (also the tied head), in pieces of whole rows, in order. */
  embedChunks(): Iterable<Float32Array>;
  /**
   * The LM head [vocab, hidden] in the same pieces, where it differs from the embedding as a graph
   * stores it (q4: a 4-bit head beside the float32 embedding); absent, the head is the embedding.
   */
  headChunks?(): Iterable<Float32Array>;
}
