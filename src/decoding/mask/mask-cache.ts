import { BoundedCache } from '../../internal/bounded-cache.js';

/**
 * A compiled grammar's masks by position key: the ones kept after use (bounded, the oldest go first)
 * and the ones computed at compile time (`precompute`), stored compactly (token ids ascending, as an
 * Int32Array, where fewer than a bitset's words, else the bitset) and never evicted: they are what a
 * sequence that stays on the schema's beaten track reads.
 */
export class MaskCache {
  private readonly recent: BoundedCache<string, Uint32Array>;
  private readonly precomputed = new Map<string, Int32Array | Uint32Array>();

  constructor(
    /** Most masks kept after use. */
    size: number,
    /** Words of a mask. */
    private readonly words: number,
  ) {
    this.recent = new BoundedCache(size);
  }

  /** The mask kept after use at `key`, if any (shared: read it, do not write to it). */
  recentMask(key: string): Uint32Array | undefined {
    return this.recent.get(key);
  }

  /** The precomputed mask at `key` as a fresh bitset, if any. */
  precomputedMask(key: string): Uint32Array | undefined {
    const stored = this.precomputed.get(key);
    return stored === undefined ? undefined : expand(stored, this.words);
  }

  /** Keeps a mask after use. */
  keep(key: string, mask: Uint32Array): void {
    this.recent.set(key, mask);
  }

  /**
   * Stores a mask computed at compile time, compactly; returns the form stored (see `clearStored`).
   * `ids`: the token ids set in `mask` when the walk listed them (repeats allowed), so that the mask
   * need not be scanned for them.
   */
  storePrecomputed(key: string, mask: Uint32Array, ids?: readonly number[]): Int32Array | Uint32Array {
    const stored = ids === undefined ? compact(mask) : fromIds(ids, mask);
    this.precomputed.set(key, stored);
    return stored;
  }

  /**
   * Writes the known mask at `key` (kept or precomputed) into `out`, all words; false when neither is
   * known. A precomputed one is written straight from its token ids, without a bitset to keep.
   */
  fill(key: string, out: Uint32Array): boolean {
    const cached = this.recent.get(key) ?? this.precomputed.get(key);
    if (cached === undefined) return false;
    if (cached instanceof Uint32Array) out.set(cached);
    else {
      out.fill(0);
      for (let i = 0; i < cached.length; i++) {
        const id = cached[i] as number;
        out[id >>> 5] = (out[id >>> 5] as number) | (1 << (id & 31));
      }
    }
    return true;
  }

  /** Bytes of both kinds of masks, with their keys. */
  bytes(): number {
    let bytes = 0;
    for (const [key, mask] of this.recent) bytes += mask.byteLength + 2 * key.length;
    for (const [key, mask] of this.precomputed) bytes += mask.byteLength + 2 * key.length;
    return bytes;
  }
}

/**
 * A mask as stored by `precompute`: its token ids when they take less room than the bitset. Read eight
 * words at a time, skipped when all are zero: a precomputed position (a number's digits, a key) holds a
 * few dozen tokens of Qwen3's 151,669, and word by word the scan was most of an offer schema's compile
 * (issue 45: 5.8 µs a mask, 1.8 µs so).
 */
function compact(mask: Uint32Array): Int32Array | Uint32Array {
  const ids: number[] = [];
  const words = mask.length;
  let w = 0;
  for (; w + 8 <= words; w += 8) {
    const any =
      (mask[w] as number) |
      (mask[w + 1] as number) |
      (mask[w + 2] as number) |
      (mask[w + 3] as number) |
      (mask[w + 4] as number) |
      (mask[w + 5] as number) |
      (mask[w + 6] as number) |
      (mask[w + 7] as number);
    if (any === 0) continue;
    for (let k = w; k < w + 8; k++) pushIds(ids, k, mask[k] as number);
    if (ids.length > words) return mask.slice(); // denser than a bitset: keep the bitset
  }
  for (; w < words; w++) pushIds(ids, w, mask[w] as number);
  return ids.length > words ? mask.slice() : Int32Array.from(ids);
}

/** `compact` of `mask` from the ids set in it (repeats allowed), without reading its words. */
function fromIds(ids: readonly number[], mask: Uint32Array): Int32Array | Uint32Array {
  const sorted = Int32Array.from(ids).sort();
  let unique = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[unique++] = sorted[i] as number;
  }
  return unique > mask.length ? mask.slice() : sorted.slice(0, unique);
}

/** Appends the ids of the bits of `bits`, word `w` of a mask, ascending. */
function pushIds(ids: number[], w: number, bits: number): void {
  let x = bits;
  while (x !== 0) {
    ids.push((w << 5) + (31 - Math.clz32(x & -x)));
    x &= x - 1;
  }
}

/** A stored mask as a bitset (a fresh array: the stored form is kept). */
function expand(stored: Int32Array | Uint32Array, words: number): Uint32Array {
  if (stored instanceof Uint32Array) return stored.slice();
  const mask = new Uint32Array(words);
  for (let i = 0; i < stored.length; i++) {
    const id = stored[i] as number;
    mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
  }
  return mask;
}

/**
 * Zeroes `mask`, whose set bits are `stored` (what `storePrecomputed` returned for it): only the words
 * its ids are in, where a mask of a few tokens (a number's digits) would otherwise pay for clearing
 * every word of a scratch mask before the next one (precompute's positions, issue 45).
 */
export function clearStored(mask: Uint32Array, stored: Int32Array | Uint32Array): void {
  if (stored instanceof Uint32Array) {
    mask.fill(0);
    return;
  }
  for (let i = 0; i < stored.length; i++) mask[(stored[i] as number) >>> 5] = 0;
}
