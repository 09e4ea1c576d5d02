import {
  attentionFeeds,
  groupQueryAttention,
  rotary,
  rotaryTables,
  simplifiedNorm,
  skipSimplifiedNorm,
} from './cpu-contrib-ops.js';
import { GraphBuilder, type InitializerSink, mapMaybeAsync, TENSOR_TYPE } from './graph-builder.js';
import { toHalfArray } from './half-precision.js';
import { Q4_BLOCK, type Quantized4, quantize4, quantizeRows4 } from './quantize-4bit.js';
import type { Qwen3Shape } from './qwen3-shape.js';
import type { WeightSource } from './weight-source.js';

/** Masked attention scores: large and finite, so a fully masked (padding) row stays NaN-free. */
export const MASKED_SCORE = -1e9;
/** The same in half precision: its most negative finite value, as transformers' `finfo(float16).min`. */
export const MASKED_SCORE_HALF = -65504;

/**
 * The ONNX graph of a Qwen3 decoder with the inputs and outputs of an Optimum
 * `text-generation-with-past` export: `input_ids`, `attention_mask`, `position_ids`,
 * `past_key_values.{i}.key|value` -> `logits`, `present.{i}.key|value`. The causal mask comes from
 * `attention_mask` (batch, past + new) and the query positions past..past+new, as in transformers.
 */
export interface GraphOptions {
  /**
   * Add the optional scalar input `num_logits_to_keep` (default true): logits of the last k positions
   * only, as transformers.js feeds it when a model has it (onnx-community exports do). Without it the
   * graph has exactly Optimum's names, and prefill returns logits for every prompt position.
   */
  logitsToKeep?: boolean;
  /**
   * `float16`: the interface of an fp16 export (`model_fp16.onnx`): the KV cache in and out and the
   * logits are float16 tensors, as the decode loop meets them on a GPU; the arithmetic inside stays
   * float32 (Cast at the edges), so the logits equal the fp32 graph's rounded to half precision.
   */
  interfaceType?: 'float' | 'float16';
  /**
   * `q4`: the layers' projections as onnxruntime's `MatMulNBits` (com.microsoft) with 4-bit block
   * weights, as a q4f16 export (`model_q4f16.onnx`) has them; with `interfaceType: 'float16'`, that
   * export's interface. The embedding and the tied head stay float32. `q8`: the same with 8-bit
   * weights (one byte each, zero point 128).
   */
  quantize?: 'q4' | 'q8';
  /**
   * `float16`: compute in half precision throughout, with float16 weights, as a real fp16 or q4f16
   * export does (the KV cache and logits are then float16 too, whatever `interfaceType` says); the
   * rotary angles alone are computed in float32 and cast, as exports do. Default `float`.
   */
  computeType?: 'float' | 'float16';
  /**
   * With `quantize: 'q4'`, the tied LM head as a 4-bit `MatMulNBits` of its own (the embedding's rows,
   * quantized) beside the embedding the `Gather` keeps reading: each token then reads an eighth of the
   * head's float32 bytes, the one matrix every token reads whole (151,936 x 1,024 in Qwen3-0.6B).
   */
  quantizeHead?: boolean;
  /**
   * `MatMulNBits`' `accuracy_level` (onnxruntime's: 0 unset, 1 float32, 4 int8 activations, which its
   * CPU kernels compute with int8 dot products); absent, the attribute is left out.
   */
  accuracyLevel?: number;
  /** Inputs per 4-bit block for `quantize: 'q4'` (default `Q4_BLOCK`; real q4f16 exports use 32). */
  blockSize?: number;
  /**
   * Build the attention and the norms from onnxruntime's CPU contrib operators (float32 compute only):
   * `GroupQueryAttention` (the KV cache grown and the KV heads shared inside one kernel, no `Expand`),
   * `RotaryEmbedding` with the rows' own `position_ids`, `SimplifiedLayerNormalization` for each
   * RMSNorm (q_norm and k_norm per head included) and `SkipSimplifiedLayerNormalization` for the
   * residual sums feeding a norm. The same inputs, outputs and KV layout as the plain graph, and the
   * same math (the padding mask goes in as `attention_bias`); onnxruntime runs it, other runtimes may not.
   */
  fuseCpuOps?: boolean;
  /**
   * With `fuseCpuOps`, `new`: the graph returns the run's own keys and values only,
   * `new_key_values.{i}.key|value` (batch, kv heads, sequence_length, head dim: after k_norm and the
   * rotation, exactly the columns `GroupQueryAttention` appends), in place of `present.*`; the present
   * stays inside the graph. onnxruntime-node returns every output as a fresh copy (even one bound to a
   * preallocated buffer), so whole-cache outputs made each step allocate and drop the KV cache again,
   * and V8's collector spent about a third of the process's CPU on it (docs/benchmarks.md, issue 44);
   * the decoder appends these columns to its own cache instead. Default `present`.
   */
  kvOutputs?: 'present' | 'new';
  /** Where large initializers go (external data, written as the graph is built); default inline. */
  sink?: InitializerSink;
}

export function buildQwen3Graph(
  config: Qwen3Shape,
  source: WeightSource,
  options: GraphOptions = {},
): Uint8Array {
  return qwen3GraphBuilder(config, source, options).encode('tiny-qwen3');
}

/**
 * The graph with its weights not yet read: `builder.writeTensors()` then reads, converts and writes
 * them one at a time (abortably), and `builder.encode(name)` gives the graph's bytes.
 */
export function qwen3GraphBuilder(
  config: Qwen3Shape,
  source: WeightSource,
  options: GraphOptions = {},
): GraphBuilder {
  const g = new GraphBuilder(options.sink);
  const ct = options.computeType ?? 'float';
  const fused = options.fuseCpuOps === true;
  if (fused && ct !== 'float')
    throw new Error('fuseCpuOps needs float32 compute (onnxruntime has no CPU float16 kernels for it)');
  const newKvOnly = options.kvOutputs === 'new';
  if (newKvOnly && !fused) throw new Error("kvOutputs: 'new' needs fuseCpuOps");
  // A weight in the compute type: float32 as is, or rounded to half precision. Made when written.
  type Weight = () => Float32Array | Promise<Float32Array>;
  const weight = (name: string, dims: number[], data: Weight) =>
    ct === 'float'
      ? g.floats(name, dims, data)
      : g.halves(name, dims, () => mapMaybeAsync(data(), (values) => toHalfArray(values)));
  const block = options.blockSize ?? Q4_BLOCK;
  const accuracy: Record<string, number> =
    options.accuracyLevel === undefined ? {} : { accuracy_level: options.accuracyLevel };
  const bits = options.quantize === 'q8' ? 8 : 4;
  // x @ W for a [K, N] weight: MatMul, or MatMulNBits over its 4- or 8-bit form.
  const linear = (x: string, name: string, k: number, n: number, data: Weight) => {
    if (options.quantize === undefined) return g.op('MatMul', [x, weight(name, [k, n], data)]);
    // The packed blocks are written first and the scales right after, from one quantization.
    let q: Quantized4 | undefined;
    const packed = () =>
      mapMaybeAsync(data(), (values) => {
        q = quantize4(values, k, n, block, bits);
        return q.packed;
      });
    const scales = () => {
      const made = (q as Quantized4).scales;
      q = undefined;
      return made;
    };
    const blocks = k / block;
    return g.op(
      'MatMulNBits',
      [
        x,
        g.bytes(name, [n, blocks, (block * bits) / 8], packed),
        weight(`${name}.scales`, [n * blocks], scales),
      ],
      { K: k, N: n, bits, block_size: block, ...accuracy },
      undefined,
      'com.microsoft',
    );
  };
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m, vocabSize: vocab } = config;
  const group = heads / kvHeads;
  const inputIds = g.input('input_ids', 'int64', ['batch_size', 'sequence_length']);
  const attentionMask = g.input('attention_mask', 'int64', ['batch_size', 'total_sequence_length']);
  const positionIds = g.input('position_ids', 'int64', ['batch_size', 'sequence_length']);
  const io = ct === 'float16' ? 'float16' : (options.interfaceType ?? 'float');
  // To and from the interface type: nothing when it is the compute type, else a Cast (ONNX 1 and 10).
  const inward = (x: string) => (io === ct ? x : g.op('Cast', [x], { to: 1 }));
  const outward = (x: string) => (io === ct ? x : g.op('Cast', [x], { to: 10 }));
  const past: { key: string; value: string }[] = [];
  for (let l = 0; l < config.layers; l++) {
    const dims = ['batch_size', kvHeads, 'past_sequence_length', headDim];
    past.push({
      key: inward(g.input(`past_key_values.${l}.key`, io, dims)),
      value: inward(g.input(`past_key_values.${l}.value`, io, dims)),
    });
  }

  const embed = g.tensor(
    'model.embed_tokens.weight',
    [vocab, d],
    TENSOR_TYPE[ct],
    (function* () {
      for (const piece of source.embedChunks()) {
        const typed = ct === 'float' ? piece : toHalfArray(piece);
        yield new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
      }
    })(),
  );
  let hidden = g.op('Gather', [embed, inputIds], { axis: 0 }); // (B, T, D)

  // Initializers only the plain graph reads (an unused one makes onnxruntime log a warning).
  const eps = fused ? '' : g.scalar(config.rmsNormEps, ct);
  const rmsNorm = (x: string, weight: string) => {
    if (fused) return simplifiedNorm(g, x, weight, config.rmsNormEps);
    const squared = g.op('Mul', [x, x]);
    const mean = g.op('ReduceMean', [squared], { axes: [-1], keepdims: 1 });
    const root = g.op('Sqrt', [g.op('Add', [mean, eps])]);
    return g.op('Mul', [g.op('Div', [x, root]), weight]);
  };
  // A sublayer's output not yet added to the residual stream: the next norm adds it (in one kernel
  // with the norm when fused), so each residual sum is made once, where it is next read.
  let pending: string | null = null;
  const normNext = (weight: string) => {
    if (pending === null) return rmsNorm(hidden, weight);
    const x = pending;
    pending = null;
    if (fused) {
      const { sum, normed } = skipSimplifiedNorm(g, x, hidden, weight, config.rmsNormEps);
      hidden = sum;
      return normed;
    }
    hidden = g.op('Add', [hidden, x]);
    return rmsNorm(hidden, weight);
  };

  // Rotary embedding: angle[b, t, i] = position * theta^(-2i/headDim), duplicated over both halves.
  const invFreq = new Float32Array(headDim / 2);
  for (let i = 0; i < headDim / 2; i++) invFreq[i] = config.ropeTheta ** ((-2 * i) / headDim);
  const invFreqTensor = g.floats('rope.inv_freq', [headDim / 2], invFreq);
  // The plain graph's (B, 1, T, hd) cos and sin, made on first use (the fused graph has tables instead).
  let cosSin: { cos: string; sin: string } | undefined;
  const angleTables = () => {
    if (cosSin) return cosSin;
    const positions = g.op('Unsqueeze', [g.op('Cast', [positionIds], { to: 1 }), g.ints([-1])]); // (B,T,1)
    const freqs = g.op('Mul', [positions, invFreqTensor]);
    const angles = g.op('Concat', [freqs, freqs], { axis: -1 }); // (B, T, hd)
    const toCompute = (x: string) => (ct === 'float' ? x : g.op('Cast', [x], { to: 10 }));
    cosSin = {
      cos: g.op('Unsqueeze', [toCompute(g.op('Cos', [angles])), g.ints([1])]), // (B, 1, T, hd)
      sin: g.op('Unsqueeze', [toCompute(g.op('Sin', [angles])), g.ints([1])]),
    };
    return cosSin;
  };
  const half = fused ? '' : g.ints([headDim / 2, headDim / 2]);
  const rope = (x: string) => {
    const { cos, sin } = angleTables();
    const first = g.op('Split', [x, half], { axis: -1 });
    const second = `${first}_1`;
    // Split has two outputs; the builder names the first, so name the second by hand.
    const node = g.lastNode();
    node.output = [first, second];
    const rotated = g.op('Concat', [g.op('Neg', [second]), first], { axis: -1 });
    return g.op('Add', [g.op('Mul', [x, cos]), g.op('Mul', [rotated, sin])]);
  };

  // Mask (B, 1, T, L): key j visible to query i when attention_mask[b, j] and j <= past + i.
  const zero = g.ints([0], []);
  const one = g.ints([1], []);
  const totalLength = g.op('Gather', [g.op('Shape', [attentionMask]), one], { axis: 0 });
  const newLength = g.op('Gather', [g.op('Shape', [inputIds]), one], { axis: 0 });
  const pastLength = g.op('Sub', [totalLength, newLength]);
  const keyIndex = g.op('Unsqueeze', [g.op('Range', [zero, totalLength, one]), g.ints([0])]); // (1, L)
  const queryIndex = g.op('Unsqueeze', [g.op('Range', [pastLength, totalLength, one]), g.ints([1])]); // (T, 1)
  const causal = g.op('LessOrEqual', [keyIndex, queryIndex]); // (T, L)
  const padding = g.op('Unsqueeze', [g.op('Cast', [attentionMask], { to: 9 }), g.ints([1, 2])]); // (B,1,1,L)
  const visible = g.op('And', [causal, padding]); // (B, 1, T, L)
  const masked = g.scalar(ct === 'float' ? MASKED_SCORE : MASKED_SCORE_HALF, ct);
  const scale = fused ? '' : g.scalar(1 / Math.sqrt(headDim), ct);

  const batchTime = g.op('Slice', [g.op('Shape', [inputIds]), g.ints([0]), g.ints([2])]); // [B, T]
  const shape = (...tail: number[]) => g.op('Concat', [batchTime, g.ints(tail)], { axis: 0 });
  const contrib = fused
    ? {
        feeds: attentionFeeds(g, inputIds, totalLength, visible, masked),
        tables: rotaryTables(g, positionIds, invFreqTensor),
      }
    : undefined;

  for (let l = 0; l < config.layers; l++) {
    const p = past[l];
    if (!p) throw new Error('layer missing');
    const w = {
      // A source that merges with onnxruntime answers asynchronously; `writeTensors` awaits it.
      projection: (kind: Parameters<WeightSource['projection']>[1]) =>
        source.projectionAsync ? source.projectionAsync(l, kind) : source.projection(l, kind),
      norm: (kind: Parameters<WeightSource['norm']>[1]) => source.norm(l, kind),
    };
    const name = (s: string) => `model.layers.${l}.${s}`;
    const normed = normNext(weight(name('input_layernorm.weight'), [d], () => w.norm('inputNorm')));
    const kvDims = ['batch_size', kvHeads, 'total_sequence_length', headDim];
    let attended: string;
    if (contrib) {
      // (B, T, n * hd), q_norm / k_norm per head on a (B, T, n, hd) view, then rotated at position_ids.
      const projectFlat = (label: 'q' | 'k' | 'v', n: number, norm: 'qNorm' | 'kNorm' | null) => {
        const flat = linear(normed, name(`self_attn.${label}_proj.weight`), d, n * headDim, () =>
          w.projection(label),
        );
        if (!norm) return flat;
        const perHead = g.op('Reshape', [flat, shape(n, headDim)]);
        const normedHeads = rmsNorm(
          perHead,
          weight(name(`self_attn.${label}_norm.weight`), [headDim], () => w.norm(norm)),
        );
        return rotary(g, g.op('Reshape', [normedHeads, shape(n * headDim)]), positionIds, contrib.tables);
      };
      const q = projectFlat('q', heads, 'qNorm');
      const k = projectFlat('k', kvHeads, 'kNorm');
      const v = projectFlat('v', kvHeads, null);
      const gqa = groupQueryAttention(g, { q, k, v }, p, contrib.feeds, { heads, kvHeads });
      if (newKvOnly) {
        // (B, T, kv * hd) -> (B, kv, T, hd): the cache's layout, for the decoder to append.
        const newDims = ['batch_size', kvHeads, 'sequence_length', headDim];
        const columns = (x: string) =>
          g.op('Transpose', [g.op('Reshape', [x, shape(kvHeads, headDim)])], { perm: [0, 2, 1, 3] });
        g.output(`new_key_values.${l}.key`, columns(k), io, newDims);
        g.output(`new_key_values.${l}.value`, columns(v), io, newDims);
      } else {
        g.output(`present.${l}.key`, gqa.presentKey, io, kvDims);
        g.output(`present.${l}.value`, gqa.presentValue, io, kvDims);
      }
      attended = linear(gqa.output, name('self_attn.o_proj.weight'), heads * headDim, d, () =>
        w.projection('o'),
      );
    } else {
      const project = (x: string, label: 'q' | 'k' | 'v', n: number, norm: 'qNorm' | 'kNorm' | null) => {
        const flat = linear(x, name(`self_attn.${label}_proj.weight`), d, n * headDim, () =>
          w.projection(label),
        );
        let split = g.op('Reshape', [flat, shape(n, headDim)]); // (B, T, n, hd)
        if (norm)
          split = rmsNorm(
            split,
            weight(name(`self_attn.${label}_norm.weight`), [headDim], () => w.norm(norm)),
          );
        return g.op('Transpose', [split], { perm: [0, 2, 1, 3] }); // (B, n, T, hd)
      };
      const q = rope(project(normed, 'q', heads, 'qNorm'));
      const k = rope(project(normed, 'k', kvHeads, 'kNorm'));
      const v = project(normed, 'v', kvHeads, null);
      const presentKey = g.op('Concat', [p.key, k], { axis: 2 }); // (B, kv, L, hd)
      const presentValue = g.op('Concat', [p.value, v], { axis: 2 });
      g.output(`present.${l}.key`, outward(presentKey), io, kvDims);
      g.output(`present.${l}.value`, outward(presentValue), io, kvDims);
      // Grouped-query attention: each KV head serves `group` query heads (repeat_kv in transformers).
      const repeat = (x: string) => {
        const shape5 = g.op('Shape', [x]);
        const b = g.op('Slice', [shape5, g.ints([0]), g.ints([1])]);
        const len = g.op('Slice', [shape5, g.ints([2]), g.ints([3])]);
        const expanded = g.op('Expand', [
          g.op('Unsqueeze', [x, g.ints([2])]),
          g.op('Concat', [b, g.ints([kvHeads, group]), len, g.ints([headDim])], { axis: 0 }),
        ]);
        return g.op('Reshape', [
          expanded,
          g.op('Concat', [b, g.ints([heads]), len, g.ints([headDim])], { axis: 0 }),
        ]);
      };
      const keys = repeat(presentKey);
      const values = repeat(presentValue);
      const scores = g.op('Mul', [
        g.op('MatMul', [q, g.op('Transpose', [keys], { perm: [0, 1, 3, 2] })]),
        scale,
      ]);
      const probs = g.op('Softmax', [g.op('Where', [visible, scores, masked])], { axis: -1 });
      const context = g.op('Transpose', [g.op('MatMul', [probs, values])], { perm: [0, 2, 1, 3] });
      const merged = g.op('Reshape', [context, shape(heads * headDim)]);
      attended = linear(merged, name('self_attn.o_proj.weight'), heads * headDim, d, () => w.projection('o'));
    }
    pending = attended;

    const normed2 = normNext(weight(name('post_attention_layernorm.weight'), [d], () => w.norm('postNorm')));
    const gate = linear(normed2, name('mlp.gate_proj.weight'), d, m, () => w.projection('gate'));
    const up = linear(normed2, name('mlp.up_proj.weight'), d, m, () => w.projection('up'));
    const act = g.op('Mul', [g.op('Mul', [gate, g.op('Sigmoid', [gate])]), up]);
    pending = linear(act, name('mlp.down_proj.weight'), m, d, () => w.projection('down'));
  }
  // The head's 4-bit blocks, streamed from the embedding's rows; the scales, gathered on the way, are
  // written right after (tensors are made in the order they are declared).
  const quantizedHead = (x: string) => {
    const scales: Float32Array[] = [];
    const packed = g.tensor(
      `lm_head.weight_Q${bits}`,
      [vocab, d / block, (block * bits) / 8],
      TENSOR_TYPE.uint8,
      (function* () {
        for (const piece of source.embedChunks()) {
          const q = quantizeRows4(piece, d, block, bits);
          scales.push(q.scales);
          yield q.packed;
        }
      })(),
    );
    const joined = weight('lm_head.weight_scales', [vocab * (d / block)], () => {
      const all = new Float32Array(vocab * (d / block));
      let at = 0;
      for (const piece of scales.splice(0)) {
        all.set(piece, at);
        at += piece.length;
      }
      return all;
    });
    return g.op(
      'MatMulNBits',
      [x, packed, joined],
      { K: d, N: vocab, bits, block_size: block, ...accuracy },
      undefined,
      'com.microsoft',
    );
  };
  let final = normNext(weight('model.norm.weight', [d], () => source.finalNorm()));
  let kept = g.op('Unsqueeze', [newLength, g.ints([0])]);
  if (options.logitsToKeep !== false) {
    const keep = g.input('num_logits_to_keep', 'int64', []);
    kept = g.op('Unsqueeze', [keep, g.ints([0])]);
    final = g.op('Slice', [final, g.op('Neg', [kept]), g.ints([2 ** 62]), g.ints([1])]);
  }
  // Tied head: Gemm with transB reads the embedding as is; flattening to 2-D makes one GEMM of the
  // whole batch rather than one matrix-vector product per row.
  const flat = g.op('Reshape', [final, g.ints([-1, d])]);
  const head =
    options.quantize !== undefined && options.quantizeHead
      ? quantizedHead(flat)
      : g.op('Gemm', [flat, embed], { transB: 1 });
  const logits = g.op('Reshape', [
    head,
    g.op(
      'Concat',
      [g.op('Slice', [g.op('Shape', [inputIds]), g.ints([0]), g.ints([1])]), kept, g.ints([vocab])],
      { axis: 0 },
    ),
  ]);
  g.output('logits', outward(logits), io, [
    'batch_size',
    options.logitsToKeep !== false ? 'num_logits' : 'sequence_length',
    vocab,
  ]);
  return g;
}
