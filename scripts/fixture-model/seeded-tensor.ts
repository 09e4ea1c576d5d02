import { deriveSeed, hashString } from '../../src/internal/random.js';

/**
 * A tensor of `count` seeded random values, uniform with standard deviation `std` and mean 0, from
 * the model's seed and the tensor's name, so any one tensor can be made (again) without the others:
 * the builder writes a 4B model tensor by tensor, and a check can regenerate one to compare.
 * Uniform rather than normal (haggle's choice): the same moments for the kernels, and cheap enough
 * (mulberry32 inline) that 4 billion values take seconds, not minutes.
 */
export function seededTensor(
  seed: number,
  name: string,
  count: number,
  std: number,
  offset = 0,
): Float32Array {
  const out = new Float32Array(count);
  fillSeeded(out, seed, name, std, offset);
  return out;
}

/** Fills `out` with the values `offset .. offset + out.length` of the tensor's stream. */
export function fillSeeded(out: Float32Array, seed: number, name: string, std: number, offset = 0): void {
  // Streams of 2^20 values each get their own state, so a chunk starting anywhere on a stream
  // boundary is reproducible without generating what comes before it.
  const half = std * Math.sqrt(3);
  const STREAM = 1 << 20;
  if (offset % STREAM !== 0) throw new Error(`offset ${offset} is not a multiple of ${STREAM}`);
  const base = deriveSeed(seed, hashString(name));
  for (let start = 0; start < out.length; start += STREAM) {
    let state = deriveSeed(base, (offset + start) / STREAM);
    const end = Math.min(out.length, start + STREAM);
    for (let i = start; i < end; i++) {
      state = (state + 0x6d2b79f5) | 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      out[i] = (2 * unit - 1) * half;
    }
  }
}

/** Seeded values near 1 (RMSNorm weights), as the tiny model's: 1 +- 0.05. */
export function seededNorm(seed: number, name: string, count: number): Float32Array {
  const out = seededTensor(seed, name, count, 0.05 / Math.sqrt(3));
  for (let i = 0; i < count; i++) out[i] = 1 + (out[i] as number);
  return out;
}
