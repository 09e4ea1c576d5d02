/** Converts IEEE half-precision bits to numbers (logits of fp16 exports; Node 20 has no Float16Array). */
export function halfToFloat32(bits: Uint16Array, start: number, end: number): Float32Array {
  const out = new Float32Array(end - start);
  for (let i = start; i < end; i++) {
    const h = bits[i] as number;
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    out[i - start] =
      exponent === 0
        ? sign * 2 ** -14 * (fraction / 1024)
        : exponent === 31
          ? fraction
            ? Number.NaN
            : sign * Number.POSITIVE_INFINITY
          : sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return out;
}
