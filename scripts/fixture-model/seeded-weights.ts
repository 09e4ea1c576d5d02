import type { TinyQwen3Config } from './config.js';
import { fillSeeded, seededNorm, seededTensor } from './seeded-tensor.js';
import type { NormKind, ProjectionKind, WeightSource } from './weights.js';

/** Embedding rows made per piece: 2^20-value streams, so pieces stay reproducible on their own. */
const EMBED_CHUNK_VALUES = 1 << 22;

/**
 * Seeded weights for a real-size shape, each tensor made when the builder asks for it. The scales
 * are haggle's choice, so that a deep random model neither overflows half precision nor collapses
 * to one token:
 * - projections: std 1/sqrt(fan-in), so each keeps its input's scale;
 * - the two that write into the residual stream (o_proj, down_proj) a further 1/sqrt(2 x layers)
 *   (GPT-2's residual scaling): the stream stays near unit RMS over 36 layers instead of growing to
 *   about 7, where an fp16 RMSNorm's sum of squares would overflow;
 * - the embedding std 3/sqrt(hidden): the tied head then gives logits of std about 3 over a
 *   unit-RMS final state, peaked and context-dependent but not one-hot (std 1 gives sqrt(hidden)).
 */
export function seededWeights(config: TinyQwen3Config, seed: number): WeightSource {
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m, layers, vocabSize } = config;
  const residual = 1 / Math.sqrt(2 * layers);
  const shapes: Record<ProjectionKind, [number, number, number]> = {
    q: [d, heads * headDim, 1],
    k: [d, kvHeads * headDim, 1],
    v: [d, kvHeads * headDim, 1],
    o: [heads * headDim, d, residual],
    gate: [d, m, 1],
    up: [d, m, 1],
    down: [m, d, residual],
  };
  const normSize: Record<NormKind, number> = { inputNorm: d, postNorm: d, qNorm: headDim, kNorm: headDim };
  return {
    projection(l, kind) {
      const [k, n, scale] = shapes[kind];
      return seededTensor(seed, `layer.${l}.${kind}`, k * n, scale / Math.sqrt(k));
    },
    norm: (l, kind) => seededNorm(seed, `layer.${l}.${kind}`, normSize[kind]),
    finalNorm: () => seededNorm(seed, 'final_norm', d),
    *embedChunks() {
      const rows = Math.max(1, Math.floor(EMBED_CHUNK_VALUES / d));
      const std = 3 / Math.sqrt(d);
      // Whole rows per piece, and every piece starts on a stream boundary of the one tensor.
      for (let row = 0; row < vocabSize; row += rows) {
        const count = Math.min(rows, vocabSize - row) * d;
        const piece = new Float32Array(count);
        fillSeededAt(piece, seed, std, row * d);
        yield piece;
      }
    },
  };
}

/** Embedding values from `offset` on; each piece draws from its own named stream. */
function fillSeededAt(out: Float32Array, seed: number, std: number, offset: number): void {
  fillSeeded(out, seed, `embed@${offset}`, std);
}
