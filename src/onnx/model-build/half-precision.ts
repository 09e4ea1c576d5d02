import { halfToFloat32 } from '../float16.js';

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

/** Half-precision bits -> float32 (the one conversion, src/onnx/float16.ts). */
export function fromHalfArray(bits: Uint16Array): Float32Array {
  return halfToFloat32(bits);
}
