/** Weights in 4 bits per block of this many inputs, with one scale per block (transformers.js q4f16: 32). */
export const Q4_BLOCK = 16;

/** Bits per weight `MatMulNBits` is built with: 4 (q4, q4f16) or 8 (one byte per weight). */
export type WeightBits = 4 | 8;

/** A [K, N] weight in the layout of onnxruntime's `MatMulNBits` (com.microsoft), 4 or 8 bits, no zero points. */
export interface Quantized4 {
  /** [N, K / block, block * bits / 8]: 4 bits: two weights a byte, the first in the low nibble; 8: one. */
  packed: Uint8Array;
  /** [N * K / block]: one scale per output column and block. */
  scales: Float32Array;
  /** The [K, N] weight the packed one stands for: what a reference forward pass should use. */
  dequantized: Float32Array;
}

/**
 * Symmetric 4-bit block quantization, as the q4f16 exports of transformers.js models do it with
 * `MatMulNBits`: per output column and block of `Q4_BLOCK` inputs, scale = max |w| / 7, q = round(w /
 * scale) + 8 in 0..15 (the operator's default zero point is 8), w ~ (q - 8) * scale. With `bits` 8 the
 * same with max |w| / 127 and zero point 128 (the operator's default, 2^(bits - 1)), one byte a weight.
 */
export function quantize4(
  weight: Float32Array,
  k: number,
  n: number,
  blockSize = Q4_BLOCK,
  bits: WeightBits = 4,
): Quantized4 {
  const B = blockSize;
  const { top, zero, perByte } = levels(bits);
  if (k % B !== 0) throw new Error(`K = ${k} is not a multiple of the block size ${B}`);
  const blocks = k / B;
  const packed = new Uint8Array(n * blocks * (B / perByte));
  const scales = new Float32Array(n * blocks);
  const dequantized = new Float32Array(k * n);
  // Column by column over the [K, N] weight: copy the column out first, a strided pass the cache
  // handles once, rather than a strided read per block (the 4B model has 250 such matrices).
  const column = new Float32Array(k);
  for (let col = 0; col < n; col++) {
    for (let row = 0; row < k; row++) column[row] = weight[row * n + col] as number;
    for (let block = 0; block < blocks; block++) {
      let max = 0;
      for (let i = 0; i < B; i++) max = Math.max(max, Math.abs(column[block * B + i] as number));
      const scale = Math.fround(max > 0 ? max / (zero - 1) : 1);
      scales[col * blocks + block] = scale;
      for (let i = 0; i < B; i++) {
        const row = block * B + i;
        const q = Math.min(top, Math.max(0, Math.round((column[row] as number) / scale) + zero));
        dequantized[row * n + col] = (q - zero) * scale;
        pack(packed, (col * blocks + block) * B + i, q, perByte);
      }
    }
  }
  return { packed, scales, dequantized };
}

/**
 * The same quantization for weights stored row by row as [N, K] (the embedding, read as the tied LM
 * head: row n is output column n): `packed` and `scales` come out in `MatMulNBits`' layout at once,
 * `dequantized` in the rows' own [N, K] layout. Chunks of whole rows quantize independently, so an
 * embedding streamed in pieces gives the same bytes as one pass over all of it.
 */
export function quantizeRows4(
  rows: Float32Array,
  k: number,
  blockSize = Q4_BLOCK,
  bits: WeightBits = 4,
): Quantized4 {
  const B = blockSize;
  const { top, zero, perByte } = levels(bits);
  if (k % B !== 0) throw new Error(`K = ${k} is not a multiple of the block size ${B}`);
  const blocks = k / B;
  const n = rows.length / k;
  const packed = new Uint8Array(n * blocks * (B / perByte));
  const scales = new Float32Array(n * blocks);
  const dequantized = new Float32Array(n * k);
  for (let row = 0; row < n; row++)
    for (let block = 0; block < blocks; block++) {
      const start = row * k + block * B;
      let max = 0;
      for (let i = 0; i < B; i++) max = Math.max(max, Math.abs(rows[start + i] as number));
      const scale = Math.fround(max > 0 ? max / (zero - 1) : 1);
      scales[row * blocks + block] = scale;
      for (let i = 0; i < B; i++) {
        const q = Math.min(top, Math.max(0, Math.round((rows[start + i] as number) / scale) + zero));
        dequantized[start + i] = (q - zero) * scale;
        pack(packed, (row * blocks + block) * B + i, q, perByte);
      }
    }
  return { packed, scales, dequantized };
}

/** The largest code, the zero point (`MatMulNBits`' default, 2^(bits - 1)) and weights per byte. */
function levels(bits: WeightBits): { top: number; zero: number; perByte: number } {
  return { top: 2 ** bits - 1, zero: 2 ** (bits - 1), perByte: 8 / bits };
}

/** Writes code `q` of weight `index` (in `MatMulNBits`' order): a byte of its own, or a nibble, low first. */
function pack(packed: Uint8Array, index: number, q: number, perByte: number): void {
  if (perByte === 1) {
    packed[index] = q;
    return;
  }
  const at = index >> 1;
  packed[at] = (packed[at] as number) | (index & 1 ? q << 4 : q);
}
