// A GGUF v3 writer (and the reader its test checks it with), written here from the format's description
// in ggml's docs: "GGUF" magic, version 3, tensor count and metadata count (uint64), the metadata
// key/values, the tensor infos (name, dimensions innermost first, ggml type, offset into the data), then
// the tensor data, each tensor at an offset aligned to `general.alignment` (32 unless the file says).
// Tensors are streamed one at a time, so a 2 GB float32 model never sits in memory whole.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { GGML_TYPE, type GgmlTypeName, ggmlBytes } from './ggml-blocks.js';

const MAGIC = 0x46554747; // "GGUF" read as a little-endian uint32
const VERSION = 3;
export const GGUF_ALIGNMENT = 32;

/** GGUF's metadata value types. */
const VALUE_TYPE = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

/** A metadata value with the GGUF type it is written as. */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'i32[]'; value: ArrayLike<number> };

export interface GgufTensor {
  name: string;
  /** ggml's order: the innermost (contiguous) dimension first; a [out, in] matrix is [in, out]. */
  dims: readonly number[];
  type: GgmlTypeName;
  /** The tensor's bytes in order, in as many pieces as the source likes. */
  data(): Iterable<Uint8Array>;
}

/** Little-endian bytes, grown as needed. */
class ByteWriter {
  private buffer = new Uint8Array(1 << 16);
  private view = new DataView(this.buffer.buffer);
  length = 0;
  private room(bytes: number): number {
    if (this.length + bytes > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
      this.view = new DataView(grown.buffer);
    }
    const at = this.length;
    this.length += bytes;
    return at;
  }
  u32(v: number) {
    const at = this.room(4);
    this.view.setUint32(at, v, true);
  }
  i32(v: number) {
    const at = this.room(4);
    this.view.setInt32(at, v, true);
  }
  u64(v: number) {
    const at = this.room(8);
    this.view.setBigUint64(at, BigInt(v), true);
  }
  f32(v: number) {
    const at = this.room(4);
    this.view.setFloat32(at, v, true);
  }
  u8(v: number) {
    const at = this.room(1);
    this.view.setUint8(at, v);
  }
  string(s: string) {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    // room() may replace the buffer: ask for it before reading `this.buffer`.
    const at = this.room(bytes.length);
    this.buffer.set(bytes, at);
  }
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case 'u32':
      out.u32(VALUE_TYPE.UINT32);
      out.u32(value.value);
      return;
    case 'i32':
      out.u32(VALUE_TYPE.INT32);
      out.i32(value.value);
      return;
    case 'f32':
      out.u32(VALUE_TYPE.FLOAT32);
      out.f32(value.value);
      return;
    case 'bool':
      out.u32(VALUE_TYPE.BOOL);
      out.u8(value.value ? 1 : 0);
      return;
    case 'string':
      out.u32(VALUE_TYPE.STRING);
      out.string(value.value);
      return;
    case 'string[]':
      out.u32(VALUE_TYPE.ARRAY);
      out.u32(VALUE_TYPE.STRING);
      out.u64(value.value.length);
      for (const s of value.value) out.string(s);
      return;
    case 'i32[]':
      out.u32(VALUE_TYPE.ARRAY);
      out.u32(VALUE_TYPE.INT32);
      out.u64(value.value.length);
      for (let i = 0; i < value.value.length; i++) out.i32(value.value[i] as number);
      return;
  }
}

const align = (n: number) => Math.ceil(n / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;

/** Writes a GGUF v3 file; returns the bytes of tensor data written. */
export function writeGguf(
  path: string,
  metadata: Readonly<Record<string, GgufValue>>,
  tensors: readonly GgufTensor[],
): number {
  const header = new ByteWriter();
  header.u32(MAGIC);
  header.u32(VERSION);
  header.u64(tensors.length);
  header.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    header.string(key);
    writeValue(header, value);
  }
  let offset = 0;
  const sizes = tensors.map((t) =>
    ggmlBytes(
      t.type,
      t.dims.reduce((a, b) => a * b, 1),
    ),
  );
  tensors.forEach((tensor, i) => {
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(GGML_TYPE[tensor.type]);
    header.u64(offset);
    offset = align(offset + (sizes[i] as number));
  });
  const fd = openSync(path, 'w');
  try {
    const head = header.bytes();
    writeSync(fd, head);
    writeSync(fd, new Uint8Array(align(head.length) - head.length));
    let total = 0;
    tensors.forEach((tensor, i) => {
      let written = 0;
      for (const piece of tensor.data()) {
        writeSync(fd, piece);
        written += piece.length;
      }
      if (written !== sizes[i])
        throw new Error(`${tensor.name}: wrote ${written} bytes, expected ${sizes[i]}`);
      writeSync(fd, new Uint8Array(align(written) - written));
      total += align(written);
    });
    return total;
  } finally {
    closeSync(fd);
  }
}

/** What a GGUF file's header says: version, metadata and tensor table (data offsets absolute). */
export interface GgufHeader {
  version: number;
  metadata: Map<string, unknown>;
  tensors: { name: string; dims: number[]; type: number; offset: number }[];
}

/** Reads a GGUF file's header back (strings, numbers, arrays of them), for checks and tests. */
export function readGgufHeader(path: string, maxBytes = 64 * 2 ** 20): GgufHeader {
  const fd = openSync(path, 'r');
  const buffer = Buffer.alloc(maxBytes);
  const length = readSync(fd, buffer, 0, maxBytes, 0);
  closeSync(fd);
  const view = new DataView(buffer.buffer, buffer.byteOffset, length);
  let at = 0;
  const u32 = () => {
    const v = view.getUint32(at, true);
    at += 4;
    return v;
  };
  const u64 = () => {
    const v = Number(view.getBigUint64(at, true));
    at += 8;
    return v;
  };
  const string = () => {
    const n = u64();
    const s = buffer.toString('utf8', at, at + n);
    at += n;
    return s;
  };
  const scalar = (type: number): unknown => {
    switch (type) {
      case VALUE_TYPE.UINT8:
        return view.getUint8(at++);
      case VALUE_TYPE.BOOL:
        return view.getUint8(at++) !== 0;
      case VALUE_TYPE.INT32: {
        const v = view.getInt32(at, true);
        at += 4;
        return v;
      }
      case VALUE_TYPE.UINT32:
        return u32();
      case VALUE_TYPE.FLOAT32: {
        const v = view.getFloat32(at, true);
        at += 4;
        return v;
      }
      case VALUE_TYPE.UINT64:
        return u64();
      case VALUE_TYPE.STRING:
        return string();
      default:
        throw new Error(`GGUF value type ${type} is not read by this reader`);
    }
  };
  if (u32() !== MAGIC) throw new Error(`${path} is not a GGUF file`);
  const version = u32();
  const tensorCount = u64();
  const kvCount = u64();
  const metadata = new Map<string, unknown>();
  for (let i = 0; i < kvCount; i++) {
    const key = string();
    const type = u32();
    if (type === VALUE_TYPE.ARRAY) {
      const itemType = u32();
      const n = u64();
      metadata.set(
        key,
        Array.from({ length: n }, () => scalar(itemType)),
      );
    } else metadata.set(key, scalar(type));
  }
  const tensors: GgufHeader['tensors'] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = string();
    const dims = Array.from({ length: u32() }, u64);
    const type = u32();
    tensors.push({ name, dims, type, offset: u64() });
  }
  const dataStart = align(at);
  for (const tensor of tensors) tensor.offset += dataStart;
  return { version, metadata, tensors };
}
