import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';
import { Random } from '../internal/random.js';

export interface TokenSamplerOptions {
  /**
   * Default 1. 0 means greedy (always the most likely allowed token): allowed, but degenerate for
   * simulation: the model card evaluates at 1.0, and greedy decoding makes negotiations loop.
   */
  temperature?: number;
  /** Keep only the k most likely allowed tokens. */
  topK?: number;
  /** Keep the smallest set of most likely allowed tokens whose probability reaches topP (0 < p <= 1). */
  topP?: number;
  /** Drop allowed tokens less likely than minP times the most likely one (0 <= p < 1). */
  minP?: number;
  /**
   * Repetition guard (>= 1, default 1 = off): a token among the last `repetitionWindow` tokens has its
   * logit divided by this when positive and multiplied when negative, as in CTRL and transformers.
   */
  repetitionPenalty?: number;
  /** How many recent tokens the repetition guard looks at (default 64). */
  repetitionWindow?: number;
  /** Seed of this sequence's generator: the same seed and logits give the same tokens. */
  seed?: number;
}

/**
 * Draws the next token from logits, after the grammar's mask: only allowed tokens are ever candidates,
 * so temperature, top-k, top-p and min-p reshape the distribution over valid continuations. One
 * sampler per sequence (it owns that sequence's seeded generator).
 */
export class TokenSampler {
  readonly temperature: number;
  readonly topK: number;
  readonly topP: number;
  readonly minP: number;
  readonly repetitionPenalty: number;
  readonly repetitionWindow: number;
  private readonly random: Random;
  private ids = new Int32Array(0);
  private values = new Float64Array(0);
  private binOf = new Uint8Array(0);
  private order = new Int32Array(0);

  constructor(options: TokenSamplerOptions = {}) {
    const issues: ValidationIssue[] = [];
    const check = (ok: boolean, path: string, message: string) => {
      if (!ok) issues.push({ path, message });
    };
    const {
      temperature = 1,
      topK = 0,
      topP = 1,
      minP = 0,
      repetitionPenalty = 1,
      repetitionWindow = 64,
    } = options;
    check(Number.isFinite(temperature) && temperature >= 0, 'temperature', 'a finite number >= 0');
    check(Number.isInteger(topK) && topK >= 0, 'topK', 'an integer >= 1 (0: off)');
    check(Number.isFinite(topP) && topP > 0 && topP <= 1, 'topP', 'a number in (0, 1]');
    check(Number.isFinite(minP) && minP >= 0 && minP < 1, 'minP', 'a number in [0, 1)');
    check(Number.isFinite(repetitionPenalty) && repetitionPenalty >= 1, 'repetitionPenalty', 'a number >= 1');
    check(Number.isInteger(repetitionWindow) && repetitionWindow >= 0, 'repetitionWindow', 'an integer >= 0');
    check(options.seed === undefined || Number.isFinite(options.seed), 'seed', 'a finite number');
    if (issues.length > 0) throw new InvalidInputError('TokenSamplerOptions', issues);
    this.temperature = temperature;
    this.topK = topK;
    this.topP = topP;
    this.minP = minP;
    this.repetitionPenalty = repetitionPenalty;
    this.repetitionWindow = repetitionWindow;
    this.random = new Random(options.seed ?? 0);
  }

  /**
   * The next token id. `mask` (bit set = allowed; null = all) comes from `GrammarMatcher.mask()`;
   * `recent` are the tokens generated so far (for the repetition guard). If every allowed token has a
   * logit of -Infinity or NaN, an allowed token is still returned (uniformly): the grammar's guarantee
   * outranks a model that refuses everything valid. Throws when the mask allows nothing.
   */
  sample(logits: ArrayLike<number>, mask: Uint32Array | null, recent: readonly number[] = []): number {
    const count = this.gather(logits, mask, recent);
    if (count === 0) {
      throw new InvalidInputError('sample', [{ path: 'mask', message: 'no token is allowed' }]);
    }
    const ids = this.ids;
    const values = this.values;
    let best = -1;
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      const v = values[i] as number;
      if (v > max) {
        max = v;
        best = i;
      }
    }
    if (best < 0) return ids[Math.floor(this.random.next() * count)] as number;
    if (this.temperature === 0) return ids[best] as number;

    // Work in scaled logits (logit / T); weights are exp(scaled - max), so the largest weight is 1.
    const t = this.temperature;
    const top = max / t;
    const floor = this.minP > 0 ? top + Math.log(this.minP) : Number.NEGATIVE_INFINITY;
    if (this.topP === 1) return this.sampleByBins(count, top, floor);
    let n = 0;
    for (let i = 0; i < count; i++) {
      const scaled = (values[i] as number) / t;
      if (scaled >= floor && scaled > Number.NEGATIVE_INFINITY) {
        ids[n] = ids[i] as number;
        values[n] = Math.exp(scaled - top);
        n++;
      }
    }
    if (this.topK > 0 && this.topK < n) n = this.keepTopK(n);
    if (this.topP < 1) n = this.keepTopP(n);
    let total = 0;
    for (let i = 0; i < n; i++) total += values[i] as number;
    let r = this.random.next() * total;
    for (let i = 0; i < n; i++) {
      r -= values[i] as number;
      if (r < 0) return ids[i] as number;
    }
    return ids[n - 1] as number;
  }

  /**
   * Exact sampling without an exp per candidate (the message of a turn allows ~147k tokens): bin the
   * candidates by how far their scaled logit is below the top (bin j holds weights in (e^-(j+1), e^-j]),
   * draw a bin in proportion to count × e^-j, a member uniformly, and accept it with probability
   * weight / e^-j (rejection sampling; at most e proposals expected). Top-k keeps the k best first.
   */
  private sampleByBins(count: number, top: number, floor: number): number {
    const ids = this.ids;
    const values = this.values;
    const t = this.temperature;
    const bins = this.binOf.length;
    if (this.binOf.length < ids.length) this.binOf = new Uint8Array(ids.length);
    const binOf = this.binOf;
    const counts = new Float64Array(BINS + 1);
    let n = 0;
    for (let i = 0; i < count; i++) {
      const scaled = (values[i] as number) / t;
      if (!(scaled >= floor) || scaled === Number.NEGATIVE_INFINITY) continue;
      const distance = top - scaled;
      const bin = distance >= BINS ? BINS : Math.floor(distance);
      ids[n] = ids[i] as number;
      values[n] = scaled;
      binOf[n] = bin;
      counts[bin] = (counts[bin] as number) + 1;
      n++;
    }
    void bins;
    if (this.topK > 0 && this.topK < n) return this.sampleExact(this.keepTopKScaled(n, counts), top);
    // Members of each bin, contiguous, by counting sort.
    const starts = new Float64Array(BINS + 2);
    for (let b = 0; b <= BINS; b++) starts[b + 1] = (starts[b] as number) + (counts[b] as number);
    if (this.order.length < n) this.order = new Int32Array(ids.length);
    const order = this.order;
    const fill = starts.slice();
    for (let i = 0; i < n; i++) {
      const b = binOf[i] as number;
      order[fill[b] as number] = i;
      fill[b] = (fill[b] as number) + 1;
    }
    let envelope = 0;
    const bounds = new Float64Array(BINS + 1);
    for (let b = 0; b <= BINS; b++) {
      bounds[b] = Math.exp(-b);
      envelope += (counts[b] as number) * (bounds[b] as number);
    }
    for (let attempt = 0; attempt < 10_000; attempt++) {
      let r = this.random.next() * envelope;
      let bin = 0;
      for (; bin < BINS; bin++) {
        r -= (counts[bin] as number) * (bounds[bin] as number);
        if (r < 0) break;
      }
      const size = counts[bin] as number;
      if (size === 0) continue;
      const member = order[(starts[bin] as number) + Math.floor(this.random.next() * size)] as number;
      const weight = Math.exp((values[member] as number) - top);
      if (this.random.next() * (bounds[bin] as number) < weight) return ids[member] as number;
    }
    return this.sampleExact(n, top); // unreachable in practice: each proposal is accepted with p >= 1/e
  }

  /** Keeps the k candidates with the largest scaled logits (ties at the threshold kept); returns how many. */
  private keepTopKScaled(n: number, counts: Float64Array): number {
    let cumulative = 0;
    let bin = 0;
    for (; bin <= BINS; bin++) {
      cumulative += counts[bin] as number;
      if (cumulative >= this.topK) break;
    }
    const boundary: number[] = [];
    for (let i = 0; i < n; i++) if (this.binOf[i] === bin) boundary.push(this.values[i] as number);
    boundary.sort((a, b) => b - a);
    const needed = this.topK - (cumulative - (counts[bin] as number));
    const threshold = boundary[needed - 1] as number;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const b = this.binOf[i] as number;
      if (b < bin || (b === bin && (this.values[i] as number) >= threshold)) {
        this.ids[kept] = this.ids[i] as number;
        this.values[kept++] = this.values[i] as number;
      }
    }
    return kept;
  }

  /** Sampling with exact weights over candidates whose scaled logits are in `values[0..n)`. */
  private sampleExact(n: number, top: number): number {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const w = Math.exp((this.values[i] as number) - top);
      this.values[i] = w;
      total += w;
    }
    let r = this.random.next() * total;
    for (let i = 0; i < n; i++) {
      r -= this.values[i] as number;
      if (r < 0) return this.ids[i] as number;
    }
    return this.ids[n - 1] as number;
  }

  /** Fills ids/values with the allowed tokens and their (penalised) logits; returns how many. */
  private gather(logits: ArrayLike<number>, mask: Uint32Array | null, recent: readonly number[]): number {
    const size = logits.length;
    if (this.ids.length < size) {
      this.ids = new Int32Array(size);
      this.values = new Float64Array(size);
    }
    const ids = this.ids;
    const values = this.values;
    let count = 0;
    if (mask === null) {
      for (let id = 0; id < size; id++) {
        ids[count] = id;
        values[count++] = finite(logits[id] as number);
      }
    } else {
      const words = Math.min(mask.length, (size + 31) >>> 5);
      for (let w = 0; w < words; w++) {
        let word = mask[w] as number;
        while (word !== 0) {
          const bit = 31 - Math.clz32(word & -word);
          word &= word - 1;
          const id = (w << 5) + bit;
          if (id >= size) break;
          ids[count] = id;
          values[count++] = finite(logits[id] as number);
        }
      }
    }
    if (this.repetitionPenalty > 1 && recent.length > 0) {
      const penalised = new Set(recent.slice(-this.repetitionWindow));
      const p = this.repetitionPenalty;
      for (let i = 0; i < count; i++) {
        if (penalised.has(ids[i] as number)) {
          const v = values[i] as number;
          values[i] = v > 0 ? v / p : v * p;
        }
      }
    }
    return count;
  }

  /** Keeps the k largest weights (ties at the threshold are kept too). */
  private keepTopK(n: number): number {
    const sorted = this.values.slice(0, n).sort();
    const threshold = sorted[n - this.topK] as number;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      if ((this.values[i] as number) >= threshold) {
        this.ids[kept] = this.ids[i] as number;
        this.values[kept++] = this.values[i] as number;
      }
    }
    return kept;
  }

  /** Keeps the most likely tokens until their share of the total reaches topP. */
  private keepTopP(n: number): number {
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) =>
        (this.values[b] as number) - (this.values[a] as number) ||
        (this.ids[a] as number) - (this.ids[b] as number),
    );
    let total = 0;
    for (let i = 0; i < n; i++) total += this.values[i] as number;
    const keepIds: number[] = [];
    const keepValues: number[] = [];
    let sum = 0;
    for (const i of order) {
      keepIds.push(this.ids[i] as number);
      keepValues.push(this.values[i] as number);
      sum += this.values[i] as number;
      if (sum >= this.topP * total) break;
    }
    this.ids.set(keepIds);
    this.values.set(keepValues);
    return keepIds.length;
  }
}

/** Bins of the rejection sampler: weights below e^-64 share the last bin (with e^-64 as its bound). */
const BINS = 64;

/** NaN counts as "never": only -Infinity and finite values compare sensibly. */
function finite(value: number): number {
  return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
}
