/**
 * Seeded randomness. Every random choice in haggle takes a seed so a run repeats exactly; seeds for
 * sub-tasks (a session, a turn) are derived by hashing, never by drawing from a shared stream, so
 * concurrency and completion order cannot change what any one session sees.
 */

const UINT32 = 0x1_0000_0000;

/** Mixes any number of integers into one 32-bit seed (a 32-bit variant of splitmix's finaliser). */
export function deriveSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    // Fold the value (which may exceed 32 bits) in two halves so large seeds stay distinct.
    const low = part >>> 0;
    const high = Math.floor(part / UINT32) >>> 0;
    h = mix32(h ^ low);
    h = mix32(h ^ high);
  }
  return h >>> 0;
}

function mix32(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** Hashes a string to a 32-bit integer (FNV-1a), for seeding from names. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A small, fast, seeded generator (mulberry32). Not for cryptography. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = deriveSeed(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / UINT32;
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks an item with probability proportional to its weight. */
  weighted<T>(items: readonly { value: T; weight: number }[]): T {
    const total = items.reduce((sum, item) => sum + item.weight, 0);
    let r = this.next() * total;
    for (const item of items) {
      r -= item.weight;
      if (r < 0) return item.value;
    }
    const last = items[items.length - 1];
    if (!last) throw new RangeError('cannot pick from an empty list');
    return last.value;
  }

  /** Standard normal, by Box-Muller. */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and log-scale spread. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(this.normal(0, sigma));
  }
}

/** Rounds a price to cents, as marketplaces store them. */
export function roundToCents(value: number): number {
  return Math.round(value * 100) / 100;
}
