// IEEE half precision read as numbers, in one place (Node 20 has no Float16Array): the logits of fp16
// exports, fp16 checkpoints' tensors, and the build's reference forward pass all read through it.

/** One half-precision value's bits as a number (subnormals, infinities and NaN included). */
export function halfBitsToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

let table: Float32Array | undefined;

/**
 * Every half's float32 value, built once (256 KiB): a table lookup is several times faster than the
 * arithmetic per value, and the build's reference forward pass reads 600M of them.
 */
function halfTable(): Float32Array {
  if (!table) {
    table = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) table[h] = halfBitsToNumber(h);
  }
  return table;
}

/** `bits[start..end)` as float32 values. */
export function halfToFloat32(bits: Uint16Array, start = 0, end = bits.length): Float32Array {
  const values = halfTable();
  const out = new Float32Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = values[bits[i] as number] as number;
  return out;
}
