import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { onnx } from 'onnx-proto';
import type { TinyQwen3Config } from './config.js';
import { fromHalfArray } from './half.js';
import { TENSOR_TYPE } from './onnx-builder.js';
import type { NormKind, ProjectionKind, WeightSource } from './weights.js';

const require = createRequire(import.meta.url);
const proto = (require('onnx-proto') as { onnx: typeof onnx }).onnx;

const PROJECTION_NAMES: Record<ProjectionKind, string> = {
  q: 'self_attn.q_proj.weight',
  k: 'self_attn.k_proj.weight',
  v: 'self_attn.v_proj.weight',
  o: 'self_attn.o_proj.weight',
  gate: 'mlp.gate_proj.weight',
  up: 'mlp.up_proj.weight',
  down: 'mlp.down_proj.weight',
};
const NORM_NAMES: Record<NormKind, string> = {
  inputNorm: 'input_layernorm.weight',
  postNorm: 'post_attention_layernorm.weight',
  qNorm: 'self_attn.q_norm.weight',
  kNorm: 'self_attn.k_norm.weight',
};

/**
 * The weights a written `.onnx` file holds, read back from it (and its external data file) one tensor
 * at a time, as float32: float16 widened, 4-bit `MatMulNBits` blocks dequantized. What the reference
 * forward pass runs on, so the check compares the graph with the weights it really carries, whatever
 * wrote them.
 */
export class OnnxWeightsReader implements WeightSource {
  private readonly tensors = new Map<string, onnx.ITensorProto>();
  private readonly folder: string;
  private readonly files = new Map<string, number>();

  constructor(
    modelPath: string,
    private readonly config: TinyQwen3Config,
  ) {
    this.folder = dirname(modelPath);
    const model = proto.ModelProto.decode(readFileSync(modelPath));
    for (const tensor of model.graph?.initializer ?? []) this.tensors.set(tensor.name ?? '', tensor);
  }

  projection(l: number, kind: ProjectionKind): Float32Array {
    const name = `model.layers.${l}.${PROJECTION_NAMES[kind]}`;
    const tensor = this.tensor(name);
    if (tensor.dataType !== TENSOR_TYPE.uint8) return this.floats(name, 0, this.count(tensor));
    // MatMulNBits: [N, blocks, block * bits / 8] bytes, 4 bits two weights a byte (low nibble first,
    // zero point 8) or 8 bits one (zero point 128), one scale per column and block; the bits follow
    // from K, which the shape gives; back to the [K, N] layout of a MatMul weight.
    const { hiddenSize: d, heads, headDim, intermediateSize: m } = this.config;
    const k = kind === 'o' ? heads * headDim : kind === 'down' ? m : d;
    const [n, blocks, blockBytes] = (tensor.dims ?? []).map(Number) as [number, number, number];
    const block = k / blocks;
    const bits = (8 * blockBytes) / block;
    const packed = this.bytes(tensor, 0, n * blocks * blockBytes);
    const scales = this.floats(`${name}.scales`, 0, n * blocks);
    const out = new Float32Array(k * n);
    for (let col = 0; col < n; col++)
      for (let b = 0; b < blocks; b++) {
        const scale = scales[col * blocks + b] as number;
        for (let i = 0; i < block; i++)
          out[(b * block + i) * n + col] = code(packed, (col * blocks + b) * block + i, bits) * scale;
      }
    return out;
  }

  norm(l: number, kind: NormKind): Float32Array {
    const name = `model.layers.${l}.${NORM_NAMES[kind]}`;
    return this.floats(name, 0, this.count(this.tensor(name)));
  }

  finalNorm(): Float32Array {
    return this.floats('model.norm.weight', 0, this.config.hiddenSize);
  }

  *embedChunks(): Iterable<Float32Array> {
    const d = this.config.hiddenSize;
    const rows = Math.max(1, Math.floor((1 << 22) / d));
    for (let row = 0; row < this.config.vocabSize; row += rows) {
      const count = Math.min(rows, this.config.vocabSize - row) * d;
      yield this.floats('model.embed_tokens.weight', row * d, count);
    }
  }

  /** The LM head: a q4 or q8 export's own head (`lm_head.weight_Q4` or `_Q8`, row n = column n), or the embedding. */
  *headChunks(): Iterable<Float32Array> {
    const tensor = this.tensors.get('lm_head.weight_Q4') ?? this.tensors.get('lm_head.weight_Q8');
    if (!tensor) {
      yield* this.embedChunks();
      return;
    }
    const bits = tensor.name === 'lm_head.weight_Q8' ? 8 : 4;
    const [n, blocks, blockBytes] = (tensor.dims ?? []).map(Number) as [number, number, number];
    const block = (8 * blockBytes) / bits;
    const d = blocks * block;
    const rows = Math.max(1, Math.floor((1 << 22) / d));
    for (let row = 0; row < n; row += rows) {
      const count = Math.min(rows, n - row);
      const packed = this.bytes(tensor, row * blocks * blockBytes, count * blocks * blockBytes);
      const scales = this.floats('lm_head.weight_scales', row * blocks, count * blocks);
      const out = new Float32Array(count * d);
      for (let i = 0; i < count * d; i++)
        out[i] = code(packed, i, bits) * (scales[Math.floor(i / block)] as number);
      yield out;
    }
  }

  close(): void {
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
  }

  private tensor(name: string): onnx.ITensorProto {
    const tensor = this.tensors.get(name);
    if (!tensor) throw new Error(`the model has no initializer ${name}`);
    return tensor;
  }

  private count(tensor: onnx.ITensorProto): number {
    return (tensor.dims ?? []).reduce<number>((a, b) => a * Number(b), 1);
  }

  /** `count` values from element `start` of a float32 or float16 initializer, as float32. */
  private floats(name: string, start: number, count: number): Float32Array {
    const tensor = this.tensor(name);
    if (tensor.dataType === TENSOR_TYPE.float) {
      const bytes = this.bytes(tensor, start * 4, count * 4);
      return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    }
    if (tensor.dataType === TENSOR_TYPE.float16) {
      const bytes = this.bytes(tensor, start * 2, count * 2);
      const bits = new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      return fromHalfArray(bits);
    }
    throw new Error(`${name} is of ONNX type ${tensor.dataType}, not float or float16`);
  }

  /** `length` bytes from byte `offset` of an initializer's data, inline or external. */
  private bytes(tensor: onnx.ITensorProto, offset: number, length: number): Uint8Array {
    if (tensor.dataLocation !== proto.TensorProto.DataLocation.EXTERNAL)
      return (tensor.rawData as Uint8Array).subarray(offset, offset + length);
    const entry = (key: string) => tensor.externalData?.find((e) => e.key === key)?.value ?? '';
    const location = entry('location');
    let fd = this.files.get(location);
    if (fd === undefined) {
      fd = openSync(join(this.folder, location), 'r');
      this.files.set(location, fd);
    }
    const out = new Uint8Array(length);
    let done = 0;
    const base = Number(entry('offset') || 0) + offset;
    while (done < length) {
      const read = readSync(fd, out, done, length - done, base + done);
      if (read === 0) throw new Error(`${location} ends before ${tensor.name}'s data`);
      done += read;
    }
    return out;
  }
}

/** Weight `index`'s code less its zero point: a nibble (low first, zero point 8) or a byte (128). */
function code(packed: Uint8Array, index: number, bits: number): number {
  if (bits === 8) return (packed[index] as number) - 128;
  const byte = packed[index >> 1] as number;
  return (index & 1 ? byte >> 4 : byte & 15) - 8;
}
