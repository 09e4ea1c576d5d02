import { InvalidInputError, type ValidationIssue } from '../../contract/errors.js';
import { Random } from '../../internal/random.js';
import { scanBlocks } from '../mask/block-max-kernel.js';

/** Sampling of `TokenSampler`: temperature, top-k, top-p, min-p, repetition penalty and seed. */
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
 *
 * Speed matters: a draw reads a whole row of logits (151,936 for Qwen3), and with a small model or a
 * batch of rows the draw costs as much as the forward pass. So a draw makes ONE pass over the allowed
 * logits (finding the top and sorting each candidate into a unit-wide bin of scaled logit), then draws
 * by rejection from the bins without an `exp` per candidate; top-k and top-p look only at the bins
 * they need.
 */
export class TokenSampler {
  readonly temperature: number;
  readonly topK: number;
  readonly topP: number;
  readonly minP: number;
  readonly repetitionPenalty: number;
  readonly repetitionWindow: number;
  private readonly random: Random;
  /** Allowed ids of the current draw, in id order. */
  private ids = new Int32Array(0);
  /** Per allowed id (same index): its absolute bin `floor(logit / T) + BIN_OFFSET`, or EXCLUDED. */
  private binOf = new Uint16Array(0);
  private penalised = new Float32Array(0);

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
    if (issues.length > 0) throw new InvalidInputError({ subject: 'TokenSamplerOptions', issues });
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
    const source = this.withPenalty(logits, recent);
    const size = source.length;
    const allowed = this.scanTop(source, mask);
    if (allowed === 0) {
      throw new InvalidInputError({
        subject: 'sample',
        issues: [{ path: 'mask', message: 'no token is allowed' }],
      });
    }
    if (this.topLogit === Number.NEGATIVE_INFINITY) {
      const count = this.collectAllowed(size, mask);
      return this.ids[Math.floor(this.random.next() * count)] as number;
    }
    if (this.temperature === 0) return this.topId;
    const top = this.topLogit / this.temperature;
    // min-p keeps scaled logits within -log(minP) of the top.
    const floor = this.minP > 0 ? top + Math.log(this.minP) : Number.NEGATIVE_INFINITY;
    const plain = this.topK === 0 && this.topP === 1 && top < Number.POSITIVE_INFINITY;
    if (plain) {
      const dense = allowed * 2 >= size;
      const ids = dense ? null : this.ids.subarray(0, this.collectAllowed(size, mask));
      const quick = ids
        ? this.proposeUniformly(source, null, ids.length, top, floor, ids)
        : this.proposeUniformly(source, mask, size, top, floor);
      if (quick >= 0) return quick;
      const drawn = this.drawHeadAndTail(source, dense ? mask : null, ids, allowed, top, floor);
      if (drawn >= 0) return drawn;
    }
    const count = this.collectAllowed(size, mask);
    // The plain draws above gave up (a tail the uniform proposals keep missing): exact weights.
    if (plain) return this.drawExact(source, count, top, floor);
    const inRange = this.binScaled(source, count);
    if (top === Number.POSITIVE_INFINITY || !inRange) return this.drawExact(source, count, top, floor);
    return this.drawFiltered(source, count, top, floor);
  }

  /**
   * Exact rejection sampling for peaked distributions (a trained model): the head, the tokens within
   * HEAD of the top scaled logit, is gathered with exact weights in one compare-only pass; the tail is
   * covered by the weight of its best token, per token. A draw picks the head in proportion to its
   * exact mass, or a uniform tail token accepted with probability weight / that bound. Returns -1 if the tail keeps
   * refusing (then exact weights take over).
   */
  private drawHeadAndTail(
    source: ArrayLike<number>,
    mask: Uint32Array | null,
    ids: Int32Array | null,
    allowed: number,
    top: number,
    floor: number,
  ): number {
    const inverse = 1 / this.temperature;
    const edge = Math.max(floor, top - HEAD);
    const headCut = Math.max(edge, this.blockCut(source.length, edge));
    const { head, weights, headMass, tailTop } = this.gatherHead(source, mask, ids, headCut, top);
    const tailCount = allowed - head.length;
    // Below the min-p floor nothing counts: with the floor above the head's edge there is no tail.
    const tailWeight = floor >= top - HEAD ? 0 : Math.exp(tailTop - top);
    const tailBound = tailCount * tailWeight;
    const size = ids ? ids.length : source.length;
    for (let attempt = 0; attempt < 1000; attempt++) {
      let r = this.random.next() * (headMass + tailBound);
      if (r < headMass) {
        for (let j = 0; j < head.length; j++) {
          r -= weights[j] as number;
          if (r < 0) return head[j] as number;
        }
        return head[head.length - 1] as number;
      }
      // A uniform tail token: propose allowed tokens until one is outside the head.
      let id = -1;
      for (let tries = 0; tries < 64 && id < 0; tries++) {
        const pick = Math.floor(this.random.next() * size);
        const candidate = ids ? (ids[pick] as number) : pick;
        if (mask !== null && ((mask[candidate >>> 5] as number) & (1 << (candidate & 31))) === 0) continue;
        // The same test as gatherHead's, in logit units, so no token is both head and tail.
        if ((source[candidate] as number) >= headCut * this.temperature) continue;
        id = candidate;
      }
      if (id < 0) return -1;
      const scaled = (source[id] as number) * inverse;
      if (!(scaled >= floor)) continue;
      if (this.random.next() * tailWeight < Math.exp(scaled - top)) return id;
    }
    return -1;
  }

  /**
   * A flat distribution puts most blocks within HEAD of the top, and gathering them all costs more than
   * it saves: raise the head's edge (in scaled logit) so that at most HEAD_BLOCKS blocks can reach it.
   * Any edge is exact: the tail's bound is its own best token, whatever the edge.
   */
  private blockCut(size: number, headCut: number): number {
    const words = (size + 31) >>> 5;
    if (words <= HEAD_BLOCKS) return Number.NEGATIVE_INFINITY;
    // Count first: a peaked distribution has few blocks near the top, and needs no sort.
    const rawCut = headCut * this.temperature;
    const blockTop = this.blockTop;
    let reaching = 0;
    for (let w = 0; w < words; w++) if ((blockTop[w] as number) >= rawCut) reaching++;
    if (reaching <= HEAD_BLOCKS) return Number.NEGATIVE_INFINITY;
    const sorted = blockTop.slice(0, words).sort();
    return (sorted[words - HEAD_BLOCKS] as number) / this.temperature;
  }

  /**
   * The head (allowed ids with scaled logit >= headCut) with exact weights, and the largest scaled
   * logit outside it, which bounds every tail weight. A compare-only pass: pushes are rare.
   */
  private gatherHead(
    source: ArrayLike<number>,
    mask: Uint32Array | null,
    ids: Int32Array | null,
    headCut: number,
    top: number,
  ): { head: number[]; weights: number[]; headMass: number; tailTop: number } {
    const inverse = 1 / this.temperature;
    const head: number[] = [];
    // Compare raw logits against the cut in logit units (T > 0): no multiply in the loop.
    const rawCut = headCut * this.temperature;
    let tailRaw = Number.NEGATIVE_INFINITY;
    const size = source.length;
    if (ids) {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as number;
        const v = source[id] as number;
        if (v >= rawCut) head.push(id);
        else if (v > tailRaw) tailRaw = v;
      }
    } else {
      // Only blocks whose best logit reaches the cut hold head tokens; the others add their best to
      // the tail bound without being read again.
      const blockTop = this.blockTop;
      const words = (size + 31) >>> 5;
      for (let w = 0; w < words; w++) {
        const best = blockTop[w] as number;
        if (!(best >= rawCut)) {
          if (best > tailRaw) tailRaw = best;
          continue;
        }
        const base = w << 5;
        const word = mask === null ? FULL_WORD : (mask[w] as number);
        for (let id = base; id < Math.min(base + 32, size); id++) {
          if ((word & (1 << (id & 31))) === 0) continue;
          const v = source[id] as number;
          if (v >= rawCut) head.push(id);
          else if (v > tailRaw) tailRaw = v;
        }
      }
    }
    const weights = head.map((id) => Math.exp((source[id] as number) * inverse - top));
    let headMass = 0;
    for (const w of weights) headMass += w;
    return { head, weights, headMass, tailTop: tailRaw * inverse };
  }

  /** Top logit and its first id (set by scanTop). */
  private topLogit = Number.NEGATIVE_INFINITY;
  private topId = -1;

  /**
   * One pass over the allowed logits: the largest (and the first id holding it), and the largest of
   * each block of 32 ids (so later passes skip blocks that cannot matter); returns how many tokens
   * are allowed. NaN never wins a comparison, so it ranks like -Infinity.
   */
  private scanTop(source: ArrayLike<number>, mask: Uint32Array | null): number {
    const size = source.length;
    const words = (size + 31) >>> 5;
    if (this.blockTop.length < words) this.blockTop = new Float64Array(words);
    const blockTop = this.blockTop;
    let top = Number.NEGATIVE_INFINITY;
    let topId = -1;
    let allowed = 0;
    let w = 0;
    // Whole blocks in WebAssembly where it can (a tenth of the time); the rest, if any, below.
    if (source instanceof Float32Array && size >= KERNEL_MIN_SIZE) {
      const whole = Math.min(size >>> 5, mask === null ? words : mask.length);
      const counted = scanBlocks(source, mask, whole, blockTop);
      if (counted >= 0) {
        allowed = counted;
        for (; w < whole; w++) {
          const best = blockTop[w] as number;
          if (best > top) {
            top = best;
            topId = w;
          }
        }
      }
    }
    for (; w < words; w++) {
      const base = w << 5;
      let word = mask === null ? FULL_WORD : w < mask.length ? (mask[w] as number) : 0;
      let blockBest = Number.NEGATIVE_INFINITY;
      if (word === FULL_WORD && base + 32 <= size) {
        for (let id = base; id < base + 32; id++) {
          const v = source[id] as number;
          if (v > blockBest) blockBest = v;
        }
        allowed += 32;
      } else {
        while (word !== 0) {
          const bit = 31 - Math.clz32(word & -word);
          word &= word - 1;
          const id = base + bit;
          if (id >= size) break;
          allowed++;
          const v = source[id] as number;
          if (v > blockBest) blockBest = v;
        }
      }
      blockTop[w] = blockBest;
      if (blockBest > top) {
        top = blockBest;
        topId = w;
      }
    }
    // The first id holding the top, inside the first block that holds it.
    if (topId >= 0) {
      const base = topId << 5;
      const word = mask === null ? FULL_WORD : (mask[topId] as number);
      for (let id = base; id < Math.min(base + 32, size); id++) {
        if ((word & (1 << (id & 31))) !== 0 && source[id] === top) {
          topId = id;
          break;
        }
      }
    }
    this.topLogit = top;
    this.topId = topId;
    return allowed;
  }

  private blockTop = new Float64Array(0);

  /**
   * Rejection sampling with a uniform proposal: pick an allowed token at random and keep it with
   * probability weight / top weight. Exact, and nearly free when the distribution is flat (a small or
   * early model, a high temperature); when it is peaked, proposals keep failing, and after
   * QUICK_PROPOSALS the head-and-tail draw takes over (stopping early does not bias the result: each
   * accepted proposal is already a draw from the target). Returns -1 when it gave up.
   */
  private proposeUniformly(
    source: ArrayLike<number>,
    mask: Uint32Array | null,
    range: number,
    top: number,
    floor: number,
    ids?: Int32Array,
  ): number {
    const inverse = 1 / this.temperature;
    for (let attempt = 0; attempt < QUICK_PROPOSALS; attempt++) {
      const pick = Math.floor(this.random.next() * range);
      const id = ids ? (ids[pick] as number) : pick;
      if (mask !== null && ((mask[id >>> 5] as number) & (1 << (id & 31))) === 0) continue;
      const scaled = (source[id] as number) * inverse;
      if (!(scaled >= floor)) continue;
      if (this.random.next() < Math.exp(scaled - top)) return id;
    }
    return -1;
  }

  /** The logits, or a copy with the repetition guard applied to the recent tokens. */
  private withPenalty(logits: ArrayLike<number>, recent: readonly number[]): ArrayLike<number> {
    if (this.repetitionPenalty <= 1 || recent.length === 0) return logits;
    if (this.penalised.length !== logits.length) this.penalised = new Float32Array(logits.length);
    const copy = this.penalised;
    for (let i = 0; i < logits.length; i++) copy[i] = logits[i] as number;
    const p = this.repetitionPenalty;
    for (const id of new Set(recent.slice(-this.repetitionWindow))) {
      if (id < 0 || id >= copy.length) continue;
      const v = copy[id] as number;
      copy[id] = v > 0 ? v / p : v * p;
    }
    return copy;
  }

  /** Fills `ids` with the allowed ids below `size`, in order; returns how many. */
  private collectAllowed(size: number, mask: Uint32Array | null): number {
    if (this.ids.length < size) {
      this.ids = new Int32Array(size);
      this.binOf = new Uint16Array(size);
    }
    const ids = this.ids;
    if (mask === null) {
      for (let id = 0; id < size; id++) ids[id] = id;
      return size;
    }
    let count = 0;
    const words = Math.min(mask.length, (size + 31) >>> 5);
    for (let w = 0; w < words; w++) {
      let word = mask[w] as number;
      const base = w << 5;
      if (word === 0xffffffff && base + 32 <= size) {
        // Inside a string most words are full: no bit arithmetic.
        for (let id = base; id < base + 32; id++) ids[count++] = id;
        continue;
      }
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        word &= word - 1;
        const id = base + bit;
        if (id >= size) break;
        ids[count++] = id;
      }
    }
    return count;
  }

  /**
   * For top-k / top-p: each allowed logit scaled by 1/T goes to bin `floor(scaled) + BIN_OFFSET` (one
   * out of range sends the draw to the exact path); -Infinity and NaN are excluded. Returns whether
   * every candidate fell within the bins.
   */
  private binScaled(source: ArrayLike<number>, count: number): boolean {
    const ids = this.ids;
    const binOf = this.binOf;
    const inverse = 1 / this.temperature;
    let inRange = true;
    for (let i = 0; i < count; i++) {
      const scaled = (source[ids[i] as number] as number) * inverse;
      // NaN fails both comparisons: excluded like -Infinity.
      if (!(scaled > Number.NEGATIVE_INFINITY)) {
        binOf[i] = EXCLUDED;
        continue;
      }
      const bin = Math.floor(scaled) + BIN_OFFSET;
      if (bin >= 0 && bin < BIN_COUNT) {
        binOf[i] = bin;
      } else {
        binOf[i] = EXCLUDED;
        inRange = false;
      }
    }
    return inRange;
  }

  /**
   * top-k and top-p need the best candidates in order, but only near the top: candidates more than
   * TAIL below the top scaled logit (weight < e^-40 of the top's, together < 1e-12 of the mass) are
   * left out. Candidates go into fine bins by distance below the top (1/FINE of a unit each); a cut
   * is found by walking bins from the best, and only the one bin where it falls is sorted, so a
   * draw sorts a few hundred values, never the vocabulary.
   */
  private drawFiltered(source: ArrayLike<number>, count: number, top: number, floor: number): number {
    const inverse = 1 / this.temperature;
    const cutoff = Math.max(floor, top - TAIL);
    const lowBin = Math.floor(top) + BIN_OFFSET - TAIL - 1;
    // Candidates: index into ids, scaled logit, weight, fine bin (0 = nearest the top).
    const index = new Int32Array(count);
    const scaled = new Float64Array(count);
    const fine = new Uint16Array(count);
    const fineCounts = new Float64Array(TAIL * FINE + 1);
    const ids = this.ids;
    const binOf = this.binOf;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const bin = binOf[i] as number;
      if (bin === EXCLUDED || bin < lowBin) continue;
      const value = (source[ids[i] as number] as number) * inverse;
      if (!(value >= cutoff)) continue;
      const f = Math.min(TAIL * FINE, Math.floor((top - value) * FINE));
      index[n] = i;
      scaled[n] = value;
      fine[n] = f;
      fineCounts[f] = (fineCounts[f] as number) + 1;
      n++;
    }
    const inBin = (f: number) => {
      const members: number[] = [];
      for (let j = 0; j < n; j++) if (fine[j] === f) members.push(j);
      // Best first; ties by token id (candidates are in id order).
      return members.sort((a, b) => (scaled[b] as number) - (scaled[a] as number) || a - b);
    };
    // kept(j): fine bin above `edge`, or in `edge` and among `edgeKept`.
    let edge = TAIL * FINE + 1;
    let edgeKept: Set<number> | null = null;
    const kept = (j: number) =>
      (fine[j] as number) < edge || (fine[j] === edge && (edgeKept === null || edgeKept.has(j)));
    if (this.topK > 0 && this.topK < n) {
      let cumulative = 0;
      let f = 0;
      while (cumulative + (fineCounts[f] as number) < this.topK) cumulative += fineCounts[f++] as number;
      const members = inBin(f);
      const threshold = scaled[members[this.topK - cumulative - 1] as number] as number;
      edge = f;
      edgeKept = new Set(members.filter((j) => (scaled[j] as number) >= threshold));
    }
    const weights = new Float64Array(n);
    let mass = 0;
    for (let j = 0; j < n; j++) {
      if (!kept(j)) continue;
      const w = Math.exp((scaled[j] as number) - top);
      weights[j] = w;
      mass += w;
    }
    if (this.topP < 1) {
      const massByBin = new Float64Array(TAIL * FINE + 1);
      for (let j = 0; j < n; j++) {
        const f = fine[j] as number;
        massByBin[f] = (massByBin[f] as number) + (weights[j] as number);
      }
      const target = this.topP * mass;
      let sum = 0;
      let f = 0;
      while (f < TAIL * FINE && sum + (massByBin[f] as number) < target) sum += massByBin[f++] as number;
      const members = inBin(f).filter(kept);
      const chosen = new Set<number>();
      for (const j of members) {
        chosen.add(j);
        sum += weights[j] as number;
        if (sum >= target) break;
      }
      edge = f;
      edgeKept = chosen;
      mass = 0;
      for (let j = 0; j < n; j++) {
        if (kept(j)) mass += weights[j] as number;
        else weights[j] = 0;
      }
    }
    let r = this.random.next() * mass;
    let last = -1;
    for (let j = 0; j < n; j++) {
      const w = weights[j] as number;
      if (w === 0) continue;
      last = j;
      r -= w;
      if (r < 0) break;
    }
    return this.ids[index[last] as number] as number;
  }

  /** Plain weights, for logits beyond the bins' range (|logit / T| > 1024) or +Infinity. */
  private drawExact(source: ArrayLike<number>, count: number, top: number, floor: number): number {
    const inverse = 1 / this.temperature;
    const chosen: number[] = [];
    const weights: number[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const scaled = (source[this.ids[i] as number] as number) * inverse;
      if (!(scaled >= floor) || scaled === Number.NEGATIVE_INFINITY) continue;
      // With a +Infinity logit, only the +Infinity tokens remain (uniformly).
      const w = top === Number.POSITIVE_INFINITY ? (scaled === top ? 1 : 0) : Math.exp(scaled - top);
      if (w === 0) continue;
      chosen.push(this.ids[i] as number);
      weights.push(w);
      total += w;
    }
    if (this.topK > 0 || this.topP < 1) {
      // Rare (extreme logits): apply the cuts on the exact weights.
      const order = chosen.map((_, i) => i);
      order.sort((a, b) => (weights[b] as number) - (weights[a] as number) || a - b);
      let kept = this.topK > 0 ? Math.min(this.topK, order.length) : order.length;
      const threshold = weights[order[kept - 1] as number] as number;
      while (kept < order.length && weights[order[kept] as number] === threshold) kept++;
      let sum = 0;
      for (let j = 0; j < kept; j++) {
        sum += weights[order[j] as number] as number;
        if (this.topP < 1 && sum >= this.topP * total) {
          kept = j + 1;
          break;
        }
      }
      let r = this.random.next() * order.slice(0, kept).reduce((s, i) => s + (weights[i] as number), 0);
      for (let j = 0; j < kept; j++) {
        r -= weights[order[j] as number] as number;
        if (r < 0) return chosen[order[j] as number] as number;
      }
      return chosen[order[kept - 1] as number] as number;
    }
    let r = this.random.next() * total;
    for (let j = 0; j < chosen.length; j++) {
      r -= weights[j] as number;
      if (r < 0) return chosen[j] as number;
    }
    return chosen[chosen.length - 1] as number;
  }
}

/** Unit-wide bins of scaled logit from -1024 to 1023; beyond that the exact path takes over. */
const BIN_OFFSET = 1024;
const BIN_COUNT = 2048;
const EXCLUDED = 0xffff;
/** How far below the top (in scaled logit) top-k and top-p still look. */
const TAIL = 40;
const FULL_WORD = 0xffffffff;
/** The head of drawHeadAndTail: scaled logits within this of the top (weights above e^-8). */
const HEAD = 8;
/** Most blocks of 32 ids the head may span (see blockCut). */
const HEAD_BLOCKS = 256;
/** Uniform proposals tried before the head-and-tail draw (see proposeUniformly). */
const QUICK_PROPOSALS = 64;
/** Below this many logits the JavaScript pass is as quick as a call into WebAssembly. */
const KERNEL_MIN_SIZE = 4096;

/** Fine bins per unit of scaled logit in the top-k / top-p search. */
const FINE = 64;
