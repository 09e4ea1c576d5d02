import type { GraphBuilder } from './graph-builder.js';

/**
 * onnxruntime's CPU contrib operators for a decoder layer (`GraphOptions.fuseCpuOps`): each replaces a
 * run of small standard operators whose kernels, launches and intermediate copies cost about a third
 * of a q4 decode step on a CPU (docs/benchmarks.md, issue 44). Float32 only: onnxruntime registers
 * these CPU kernels for float.
 */
const MS = 'com.microsoft';

/** RMSNorm over the last axis: x / sqrt(mean(x^2) + eps) * weight, in one kernel. */
export function simplifiedNorm(g: GraphBuilder, x: string, weight: string, epsilon: number): string {
  return g.op('SimplifiedLayerNormalization', [x, weight], { axis: -1, epsilon });
}

/**
 * The residual sum `residual + x` and its RMSNorm in one kernel (the sum is the operator's fourth
 * output, `input_skip_bias_sum`): the next residual and the next sublayer's input.
 */
export function skipSimplifiedNorm(
  g: GraphBuilder,
  x: string,
  residual: string,
  weight: string,
  epsilon: number,
): { sum: string; normed: string } {
  const normed = g.op('SkipSimplifiedLayerNormalization', [x, residual, weight], { epsilon }, undefined, MS);
  const sum = `${normed}_sum`;
  g.lastNode().output = [normed, '', '', sum];
  return { sum, normed };
}

/**
 * Rotary tables for `RotaryEmbedding`, one row per position 0..max(position_ids): cos and sin of
 * position * inv_freq, (positions, headDim / 2). Computed per run from the rows' own `position_ids`
 * (the same float32 products as the plain graph's angles), so no table of the model's whole context
 * is stored and a row's position is whatever the decoder says, not its column in the batch.
 */
export function rotaryTables(
  g: GraphBuilder,
  positionIds: string,
  invFreq: string,
): { cos: string; sin: string } {
  const count = g.op('Add', [g.op('ReduceMax', [positionIds], { keepdims: 0 }), g.ints([1], [])]);
  const positions = g.op('Cast', [g.op('Range', [g.ints([0], []), count, g.ints([1], [])])], { to: 1 });
  const angles = g.op('Mul', [g.op('Unsqueeze', [positions, g.ints([1])]), invFreq]); // (P, hd/2)
  return { cos: g.op('Cos', [angles]), sin: g.op('Sin', [angles]) };
}

/** Rotary embedding (rotate-half, not interleaved) of x (B, T, heads * headDim) at `position_ids`. */
export function rotary(
  g: GraphBuilder,
  x: string,
  positionIds: string,
  tables: { cos: string; sin: string },
): string {
  return g.op('RotaryEmbedding', [x, positionIds, tables.cos, tables.sin], { interleaved: 0 }, undefined, MS);
}

/** What every layer's `GroupQueryAttention` shares: per-row lengths and the padding mask as a bias. */
export interface AttentionFeeds {
  /** (B) int32: total length - 1 for every row (the batch's rows share one cache length). */
  seqlensK: string;
  /** int32 scalar: the cache length after this run. */
  totalLength: string;
  /** (B, 1, T, L) float: 0 where a key is visible, `masked` where `attention_mask` hides it. */
  bias: string;
}

/**
 * The inputs `GroupQueryAttention` needs beside q, k, v and the past: every row is `totalLength`
 * columns long (left padding and rolled-back columns are hidden by the bias, not by the lengths, so
 * the KV cache keeps the plain graph's layout); `visible` is the plain graph's (B, 1, T, L) mask.
 */
export function attentionFeeds(
  g: GraphBuilder,
  inputIds: string,
  totalLength: string,
  visible: string,
  masked: string,
): AttentionFeeds {
  const batch = g.op('Slice', [g.op('Shape', [inputIds]), g.ints([0]), g.ints([1])]); // [B]
  const last = g.op('Sub', [totalLength, g.ints([1], [])]);
  return {
    seqlensK: g.op('Cast', [g.op('Expand', [last, batch])], { to: 6 }),
    totalLength: g.op('Cast', [totalLength], { to: 6 }),
    bias: g.op('Where', [visible, g.scalar(0), masked]),
  };
}

/**
 * Grouped-query attention with the KV cache grown inside (past (B, kv, P, hd) -> present (B, kv, P+T,
 * hd), the plain graph's layout) and each KV head serving its group of query heads without a copy.
 * q (B, T, heads * hd), k and v (B, T, kvHeads * hd), already normed and rotated. Returns the
 * attention output (B, T, heads * hd) and the present key and value.
 */
export function groupQueryAttention(
  g: GraphBuilder,
  qkv: { q: string; k: string; v: string },
  past: { key: string; value: string },
  feeds: AttentionFeeds,
  heads: { heads: number; kvHeads: number },
): { output: string; presentKey: string; presentValue: string } {
  const output = g.op(
    'GroupQueryAttention',
    [qkv.q, qkv.k, qkv.v, past.key, past.value, feeds.seqlensK, feeds.totalLength, '', '', '', feeds.bias],
    { num_heads: heads.heads, kv_num_heads: heads.kvHeads },
    undefined,
    MS,
  );
  const presentKey = `${output}_present_key`;
  const presentValue = `${output}_present_value`;
  g.lastNode().output = [output, presentKey, presentValue];
  return { output, presentKey, presentValue };
}
