// ggml's tensor encodings that bench/local-peers.ts writes into a GGUF file, written here from the
// format's description (ggml's `block_q4_0` / `block_q8_0`): blocks of 32 consecutive values along a
// row (the innermost dimension), each with one float16 scale.
import { halfToFloat32 } from '../../src/onnx/float16.js';
import { toHalfArray, toHalfBits } from '../../src/onnx/model-build/half-precision.js';

/** ggml's type ids, as a GGUF tensor info names them. */
export const GGML_TYPE = { F32: 0, F16: 1, Q4_0: 2, Q8_0: 8 } as const;
export type GgmlTypeName = keyof typeof GGML_TYPE;

/** Values per block of the quantized types. */
export const QK = 32;

/** Bytes that `count` values take in a type (count a multiple of 32 for the block types). */
export function ggmlBytes(type: GgmlTypeName, count: number): number {
  switch (type) {
    case 'F32':
      return count * 4;
    case 'F16':
      return count * 2;
    case 'Q4_0':
      return (count / QK) * 18; // 2-byte scale + 16 bytes of nibbles
    case 'Q8_0':
      return (count / QK) * 34; // 2-byte scale + 32 signed bytes
  }
}

/** `values` (whole rows of a multiple of 32 for the block types) in a type's bytes. */
export function encodeGgml(type: GgmlTypeName, values: Float32Array): Uint8Array {
  switch (type) {
    case 'F32':
      return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    case 'F16': {
      const half = toHalfArray(values);
      return new Uint8Array(half.buffer, half.byteOffset, half.byteLength);
    }
    case 'Q4_0':
      return quantizeQ4_0(values);
    case 'Q8_0':
      return quantizeQ8_0(values);
  }
}

/**
 * Q4_0: per block, the value of largest magnitude `m` (with its sign) sets d = m / -8, so that m itself
 * maps to code 0 (-8 d) and the opposite side reaches +7 d; code = clamp(trunc(x / d + 8.5), 0, 15).
 * The first 16 values of the block go into the low nibbles of the 16 bytes, the last 16 into the high
 * nibbles. Dequantized: (code - 8) * d, with d as stored (float16).
 */
export function quantizeQ4_0(values: Float32Array): Uint8Array {
  if (values.length % QK !== 0)
    throw new Error(`Q4_0 needs a multiple of ${QK} values, got ${values.length}`);
  const blocks = values.length / QK;
  const out = new Uint8Array(blocks * 18);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const start = b * QK;
    let max = 0;
    let amax = 0;
    for (let i = 0; i < QK; i++) {
      const v = values[start + i] as number;
      if (Math.abs(v) > amax) {
        amax = Math.abs(v);
        max = v;
      }
    }
    const d = max / -8;
    const inverse = d === 0 ? 0 : 1 / d;
    const at = b * 18;
    view.setUint16(at, toHalfBits(d), true);
    for (let j = 0; j < QK / 2; j++) {
      const low = Math.min(15, Math.trunc((values[start + j] as number) * inverse + 8.5));
      const high = Math.min(15, Math.trunc((values[start + j + QK / 2] as number) * inverse + 8.5));
      out[at + 2 + j] = low | (high << 4);
    }
  }
  return out;
}

/** Q8_0: per block d = max |x| / 127, code = round(x / d) as a signed byte. */
export function quantizeQ8_0(values: Float32Array): Uint8Array {
  if (values.length % QK !== 0)
    throw new Error(`Q8_0 needs a multiple of ${QK} values, got ${values.length}`);
  const blocks = values.length / QK;
  const out = new Uint8Array(blocks * 34);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const start = b * QK;
    let amax = 0;
    for (let i = 0; i < QK; i++) amax = Math.max(amax, Math.abs(values[start + i] as number));
    const d = amax / 127;
    const inverse = d === 0 ? 0 : 1 / d;
    const at = b * 34;
    view.setUint16(at, toHalfBits(d), true);
    for (let i = 0; i < QK; i++)
      view.setInt8(at + 2 + i, Math.round((values[start + i] as number) * inverse));
  }
  return out;
}

/** The values a type's bytes stand for (the tests' round trip; llama.cpp computes with these). */
export function decodeGgml(type: GgmlTypeName, bytes: Uint8Array, count: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(count);
  const scale = (at: number) => halfToFloat32(Uint16Array.of(view.getUint16(at, true)))[0] as number;
  switch (type) {
    case 'F32':
      for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
      return out;
    case 'F16':
      for (let i = 0; i < count; i++) out[i] = scale(i * 2);
      return out;
    case 'Q4_0':
      for (let b = 0; b < count / QK; b++) {
        const d = scale(b * 18);
        for (let j = 0; j < QK / 2; j++) {
          const byte = bytes[b * 18 + 2 + j] as number;
          out[b * QK + j] = ((byte & 15) - 8) * d;
          out[b * QK + j + QK / 2] = ((byte >> 4) - 8) * d;
        }
      }
      return out;
    case 'Q8_0':
      for (let b = 0; b < count / QK; b++) {
        const d = scale(b * 34);
        for (let i = 0; i < QK; i++) out[b * QK + i] = view.getInt8(b * 34 + 2 + i) * d;
      }
      return out;
  }
}
