import type { Qwen3Shape } from './qwen3-shape.js';
import type { WeightSource } from './weight-source.js';

/**
 * The same transformer as the ONNX graph, in plain TypeScript (float64 arithmetic) over one unpadded
 * sequence at positions 0..n-1: the independent statement of what the graph must compute. Returns
 * the logits of every position, [n][vocab]. Slow on purpose (no tricks); keep sequences short.
 * Weights are asked for one layer at a time (a `WeightSource` may read them from a model's files),
 * so a real-size model needs one layer's worth of memory, not the model's.
 */
export function referenceLogits(
  config: Qwen3Shape,
  source: WeightSource,
  ids: number[],
): Float64Array<ArrayBufferLike>[] {
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m, vocabSize: vocab } = config;
  const group = heads / kvHeads;
  let hidden: Float64Array<ArrayBufferLike>[] = ids.map(() => new Float64Array(d));
  let row = 0;
  for (const piece of source.embedChunks()) {
    const rows = piece.length / d;
    ids.forEach((id, t) => {
      if (id >= row && id < row + rows)
        hidden[t] = Float64Array.from(piece.subarray((id - row) * d, (id - row + 1) * d));
    });
    row += rows;
  }
  for (let l = 0; l < config.layers; l++) {
    const w = {
      inputNorm: source.norm(l, 'inputNorm'),
      postNorm: source.norm(l, 'postNorm'),
      qNorm: source.norm(l, 'qNorm'),
      kNorm: source.norm(l, 'kNorm'),
      q: source.projection(l, 'q'),
      k: source.projection(l, 'k'),
      v: source.projection(l, 'v'),
      o: source.projection(l, 'o'),
      gate: source.projection(l, 'gate'),
      up: source.projection(l, 'up'),
      down: source.projection(l, 'down'),
    };
    const normed = hidden.map((x) => rmsNorm(x, w.inputNorm, config.rmsNormEps));
    const q = normed.map((x, t) =>
      headsOf(matVec(x, w.q, d, heads * headDim), heads, headDim, w.qNorm, t, config),
    );
    const k = normed.map((x, t) =>
      headsOf(matVec(x, w.k, d, kvHeads * headDim), kvHeads, headDim, w.kNorm, t, config),
    );
    const v = normed.map((x) =>
      headsOf(matVec(x, w.v, d, kvHeads * headDim), kvHeads, headDim, null, -1, config),
    );
    hidden = hidden.map((x, t) => {
      const merged = new Float64Array(heads * headDim);
      for (let h = 0; h < heads; h++) {
        const kvh = Math.floor(h / group);
        const qh = (q[t] as Float64Array<ArrayBufferLike>[])[h] as Float64Array;
        const scores = new Float64Array(t + 1);
        let max = Number.NEGATIVE_INFINITY;
        for (let j = 0; j <= t; j++) {
          const kj = (k[j] as Float64Array<ArrayBufferLike>[])[kvh] as Float64Array;
          let s = 0;
          for (let i = 0; i < headDim; i++) s += (qh[i] as number) * (kj[i] as number);
          s /= Math.sqrt(headDim);
          scores[j] = s;
          max = Math.max(max, s);
        }
        let total = 0;
        for (let j = 0; j <= t; j++) {
          scores[j] = Math.exp((scores[j] as number) - max);
          total += scores[j] as number;
        }
        for (let j = 0; j <= t; j++) {
          const vj = (v[j] as Float64Array<ArrayBufferLike>[])[kvh] as Float64Array;
          const p = (scores[j] as number) / total;
          for (let i = 0; i < headDim; i++)
            merged[h * headDim + i] = (merged[h * headDim + i] as number) + p * (vj[i] as number);
        }
      }
      return add(x, matVec(merged, w.o, heads * headDim, d));
    });
    hidden = hidden.map((x) => {
      const y = rmsNorm(x, w.postNorm, config.rmsNormEps);
      const gate = matVec(y, w.gate, d, m);
      const up = matVec(y, w.up, d, m);
      const act = gate.map((g, i) => (g / (1 + Math.exp(-g))) * (up[i] as number));
      return add(x, matVec(act, w.down, m, d));
    });
  }
  const finalNorm = source.finalNorm();
  const normed = hidden.map((x) => rmsNorm(x, finalNorm, config.rmsNormEps));
  const out = normed.map(() => new Float64Array(vocab));
  let first = 0;
  for (const piece of source.headChunks?.() ?? source.embedChunks()) {
    const rows = piece.length / d;
    normed.forEach((y, p) => {
      const logits = out[p] as Float64Array;
      for (let r = 0; r < rows; r++) {
        let s = 0;
        for (let i = 0; i < d; i++) s += (y[i] as number) * (piece[r * d + i] as number);
        logits[first + r] = s;
      }
    });
    first += rows;
  }
  return out;
}

function rmsNorm(x: Float64Array, weight: Float32Array, eps: number): Float64Array {
  let mean = 0;
  for (const value of x) mean += value * value;
  mean /= x.length;
  const scale = 1 / Math.sqrt(mean + eps);
  return x.map((value, i) => value * scale * (weight[i] as number));
}

/** x (in) times W stored [in, out]. */
function matVec(x: Float64Array, w: Float32Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(cols);
  for (let r = 0; r < rows; r++) {
    const xr = x[r] as number;
    for (let c = 0; c < cols; c++) out[c] = (out[c] as number) + xr * (w[r * cols + c] as number);
  }
  return out;
}

function add(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((value, i) => value + (b[i] as number));
}

/** Splits a projection into heads, applies the per-head RMSNorm and the rotary embedding at `position`. */
function headsOf(
  flat: Float64Array,
  count: number,
  headDim: number,
  norm: Float32Array | null,
  position: number,
  config: Qwen3Shape,
): Float64Array<ArrayBufferLike>[] {
  const out: Float64Array<ArrayBufferLike>[] = [];
  for (let h = 0; h < count; h++) {
    let x: Float64Array<ArrayBufferLike> = flat.slice(h * headDim, (h + 1) * headDim);
    if (norm) x = rmsNorm(x, norm, config.rmsNormEps);
    if (position >= 0) {
      const half = headDim / 2;
      const rotated = new Float64Array(headDim);
      for (let i = 0; i < headDim; i++) {
        const angle = position * config.ropeTheta ** ((-2 * (i % half)) / headDim);
        const partner = i < half ? -(x[i + half] as number) : (x[i - half] as number);
        rotated[i] = (x[i] as number) * Math.cos(angle) + partner * Math.sin(angle);
      }
      x = rotated;
    }
    out.push(x);
  }
  return out;
}
