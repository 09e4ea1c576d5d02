/** Weights in 4 bits per block of this many inputs, with one scale per block (transformers.js q4f16: 32). */
export const Q4_BLOCK = 16;

/** A [K, N] weight in the layout of onnxruntime's `MatMulNBits` (com.microsoft), 4 bits, no zero points. */
export interface Quantized4 {
  /** [N, K / block, block / 2]: two weights a byte, the first in the low nibble. */
  packed: Uint8Array;
  /** [N * K / block]: one scale per output column and block. */
  scales: Float32Array;
  /** The [K, N] weight the packed one stands for: what a reference forward pass should use. */
  dequantized: Float32Array;
}

/**
 * Symmetric 4-bit block quantization, as the q4f16 exports of transformers.js models do it with
 * `MatMulNBits`: per output column and block of `Q4_BLOCK` inputs, scale = max |w| / 7, q = round(w /
 * scale) + 8 in 0..15 (the operator's default zero point is 8), w ~ (q - 8) * scale.
 */
export function quantize4(weight: Float32Array, k: number, n: number, blockSize = Q4_BLOCK): Quantized4 {
  const B = blockSize;
  if (k % B !== 0) throw new Error(`K = ${k} is not a multiple of the block size ${B}`);
  const blocks = k / B;
  const packed = new Uint8Array(n * blocks * (B / 2));
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
      const scale = Math.fround(max > 0 ? max / 7 : 1);
      scales[col * blocks + block] = scale;
      for (let i = 0; i < B; i++) {
        const row = block * B + i;
        const q = Math.min(15, Math.max(0, Math.round((column[row] as number) / scale) + 8));
        dequantized[row * n + col] = (q - 8) * scale;
        const at = (col * blocks + block) * (B / 2) + (i >> 1);
        packed[at] = (packed[at] as number) | (i & 1 ? q << 4 : q);
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
export function quantizeRows4(rows: Float32Array, k: number, blockSize = Q4_BLOCK): Quantized4 {
  const B = blockSize;
  if (k % B !== 0) throw new Error(`K = ${k} is not a multiple of the block size ${B}`);
  const blocks = k / B;
  const n = rows.length / k;
  const packed = new Uint8Array(n * blocks * (B / 2));
  const scales = new Float32Array(n * blocks);
  const dequantized = new Float32Array(n * k);
  for (let row = 0; row < n; row++)
    for (let block = 0; block < blocks; block++) {
      const start = row * k + block * B;
      let max = 0;
      for (let i = 0; i < B; i++) max = Math.max(max, Math.abs(rows[start + i] as number));
      const scale = Math.fround(max > 0 ? max / 7 : 1);
      scales[row * blocks + block] = scale;
      for (let i = 0; i < B; i++) {
        const q = Math.min(15, Math.max(0, Math.round((rows[start + i] as number) / scale) + 8));
        dequantized[start + i] = (q - 8) * scale;
        const at = (row * blocks + block) * (B / 2) + (i >> 1);
        packed[at] = (packed[at] as number) | (i & 1 ? q << 4 : q);
      }
    }
  return { packed, scales, dequantized };
}
