import { closeSync, openSync, writeSync } from 'node:fs';
import { toHalfArray } from '../../src/onnx/model-build/half-precision.js';

/** A tensor to write: its values made when its turn comes (a 4B checkpoint is written one at a time). */
export interface TensorToWrite {
  name: string;
  shape: number[];
  dtype: 'BF16' | 'F16' | 'F32';
  values: () => Float32Array;
}

const BYTES = { BF16: 2, F16: 2, F32: 4 } as const;

/**
 * Writes a `.safetensors` file as Hugging Face's library does (u64 header length, JSON header with
 * `dtype`, `shape`, `data_offsets`, padded with spaces to 8 bytes, then the data in header order), one
 * tensor in memory at a time. For tests and benchmarks: the checkpoints `haggle model build` reads.
 */
export function writeSafetensors(
  path: string,
  tensors: TensorToWrite[],
  metadata = { format: 'pt' },
): number {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const tensor of tensors) {
    const size = tensor.shape.reduce((a, b) => a * b, 1) * BYTES[tensor.dtype];
    header[tensor.name] = { dtype: tensor.dtype, shape: tensor.shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const fd = openSync(path, 'w');
  try {
    const prefix = new Uint8Array(8);
    new DataView(prefix.buffer).setBigUint64(0, BigInt(json.length), true);
    let at = 0;
    const write = (bytes: Uint8Array) => {
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
      at += bytes.length;
    };
    write(prefix);
    write(new TextEncoder().encode(json));
    for (const tensor of tensors) {
      const values = tensor.values();
      if (values.length !== tensor.shape.reduce((a, b) => a * b, 1))
        throw new Error(`${tensor.name}: ${values.length} values for shape [${tensor.shape}]`);
      write(encodeValues(values, tensor.dtype));
    }
  } finally {
    closeSync(fd);
  }
  return 8 + json.length + offset;
}

function encodeValues(values: Float32Array, dtype: TensorToWrite['dtype']): Uint8Array {
  if (dtype === 'F32') return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (dtype === 'BF16') {
    const out = toBfloat16(values);
    return new Uint8Array(out.buffer);
  }
  const out = toHalfArray(values);
  return new Uint8Array(out.buffer);
}

/** float32 -> bfloat16 bits, rounding to nearest even (as PyTorch's `.to(torch.bfloat16)`). */
export function toBfloat16(values: Float32Array): Uint16Array {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const w = words[i] as number;
    out[i] = ((w + 0x7fff + ((w >>> 16) & 1)) >>> 16) & 0xffff;
  }
  return out;
}

/** The float32 values a bf16 tensor holds after `toBfloat16` (what a reader of the file gets back). */
export function roundToBfloat16(values: Float32Array): Float32Array {
  const halves = toBfloat16(values);
  const out = new Float32Array(values.length);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < values.length; i++) words[i] = (halves[i] as number) << 16;
  return out;
}
