/**
 * float32 -> IEEE half precision bits, rounding to nearest even, as numpy's `astype(float16)` does
 * (what an fp16 export's weights went through). Node 20 has no Float16Array.
 */
const view = new Float32Array(1);
const bits = new Uint32Array(view.buffer);

export function toHalfBits(value: number): number {
  view[0] = value;
  return halfOfFloatBits(bits[0] as number);
}

/** Converts a whole array; `out` may be given to reuse a buffer. */
export function toHalfArray(values: Float32Array, out = new Uint16Array(values.length)): Uint16Array {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < values.length; i++) out[i] = halfOfFloatBits(words[i] as number);
  return out;
}

function halfOfFloatBits(x: number): number {
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  const mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0); // inf, NaN
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow: infinity
  if (e <= 0) {
    // Subnormal half (or zero): shift the full mantissa in, rounding to nearest even.
    if (e < -10) return sign;
    const m = mantissa | 0x800000;
    const shift = 14 - e;
    const half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const midpoint = 1 << (shift - 1);
    return sign | (half + (rest > midpoint || (rest === midpoint && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // Rounding up may carry into the exponent, which is the right answer (up to infinity).
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

let table: Float32Array | undefined;

/** Half-precision bits -> float32 through a 65,536-entry table (the reference reads 600M of them). */
export function fromHalfArray(bits: Uint16Array): Float32Array {
  if (!table) {
    table = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) {
      const exponent = (h >> 10) & 0x1f;
      const fraction = h & 0x3ff;
      const sign = h & 0x8000 ? -1 : 1;
      table[h] =
        exponent === 0
          ? sign * 2 ** -24 * fraction
          : exponent === 31
            ? fraction
              ? Number.NaN
              : sign * Number.POSITIVE_INFINITY
            : sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
    }
  }
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = table[bits[i] as number] as number;
  return out;
}
