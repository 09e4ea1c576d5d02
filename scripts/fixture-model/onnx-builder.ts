import { createRequire } from 'node:module';
import type { onnx } from 'onnx-proto';
import { toHalfBits } from './half.js';

// onnx-proto is a CommonJS protobufjs bundle whose exports Node's ESM loader cannot see by name.
const require = createRequire(import.meta.url);
const proto = (require('onnx-proto') as { onnx: typeof onnx }).onnx;

const FLOAT = 1;
const UINT8 = 2;
const INT64 = 7;
const FLOAT16 = 10;

/** ONNX element type numbers of the initializers this builder writes. */
export const TENSOR_TYPE = { float: FLOAT, uint8: UINT8, int64: INT64, float16: FLOAT16 } as const;

/**
 * Where large initializers go instead of the graph (see external-data-writer.ts): the graph keeps
 * each one's name, type and shape and where its bytes lie in the data file.
 */
export interface InitializerSink {
  /** Appends a tensor's bytes (given in pieces, so a 1.5 GB embedding never sits in memory whole). */
  write(chunks: Iterable<Uint8Array>): { location: string; offset: number; length: number };
}

/** One ONNX dimension: a number, or a symbolic name such as `batch_size`. */
export type Dim = number | string;
/** Element types the fixture's inputs and outputs use. */
export type ElemType = 'float' | 'float16' | 'int64';

/**
 * A minimal graph writer over onnx-proto: nodes get unique output names, initializers carry raw
 * little-endian data. Enough for a decoder; not a general ONNX library.
 */
export class GraphBuilder {
  private readonly nodes: onnx.INodeProto[] = [];
  private readonly initializers: onnx.ITensorProto[] = [];
  private readonly inputs: onnx.IValueInfoProto[] = [];
  private readonly outputs: onnx.IValueInfoProto[] = [];
  private counter = 0;
  /** Operator domains beyond the standard one (`com.microsoft` for onnxruntime's contrib ops). */
  private readonly domains = new Set<string>();

  /** `sink`: where initializers of `SMALL_INITIALIZER` bytes or more go; none keeps them all inline. */
  constructor(private readonly sink?: InitializerSink) {}

  /**
   * An initializer from its raw little-endian bytes, in one piece or many. Through the sink when it
   * is large, so that the graph of a multi-gigabyte model stays a few hundred kilobytes.
   */
  tensor(name: string, dims: number[], dataType: number, bytes: Uint8Array | Iterable<Uint8Array>): string {
    const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
    const size = dims.reduce((a, b) => a * b, 1) * (dataType === FLOAT ? 4 : dataType === FLOAT16 ? 2 : 1);
    if (this.sink && size >= SMALL_INITIALIZER) {
      const place = this.sink.write(pieces);
      this.initializers.push({
        name,
        dims,
        dataType,
        dataLocation: proto.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: 'location', value: place.location },
          { key: 'offset', value: String(place.offset) },
          { key: 'length', value: String(place.length) },
        ],
      });
      return name;
    }
    const all = bytes instanceof Uint8Array ? bytes : concat([...pieces]);
    this.initializers.push({ name, dims, dataType, rawData: all });
    return name;
  }

  /** A float16 initializer from its bits. */
  halves(name: string, dims: number[], data: Uint16Array): string {
    return this.tensor(name, dims, FLOAT16, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }

  input(name: string, elemType: ElemType, dims: Dim[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, from: string, elemType: ElemType, dims: Dim[]): void {
    this.op('Identity', [from], {}, name);
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  floats(name: string, dims: number[], data: Float32Array): string {
    return this.tensor(name, dims, FLOAT, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }

  bytes(name: string, dims: number[], data: Uint8Array): string {
    return this.tensor(name, dims, UINT8, data);
  }

  ints(values: number[], dims: number[] = [values.length]): string {
    const name = `const_${this.counter++}`;
    const data = new BigInt64Array(values.map((v) => BigInt(v)));
    this.initializers.push({ name, dims, dataType: INT64, rawData: new Uint8Array(data.buffer) });
    return name;
  }

  /** A scalar constant, float32 or (for a graph that computes in half precision) float16. */
  scalar(value: number, type: 'float' | 'float16' = 'float'): string {
    const name = `const_${this.counter++}`;
    this.initializers.push({
      name,
      dims: [],
      dataType: type === 'float' ? FLOAT : FLOAT16,
      rawData:
        type === 'float'
          ? new Uint8Array(new Float32Array([value]).buffer)
          : new Uint8Array(new Uint16Array([toHalfBits(value)]).buffer),
    });
    return name;
  }

  /** Adds a node; returns its (first) output name. */
  op(
    type: string,
    inputs: string[],
    attributes: Record<string, number | number[]> = {},
    output?: string,
    domain = '',
  ): string {
    if (domain !== '') this.domains.add(domain);
    const name = output ?? `${type.toLowerCase()}_${this.counter++}`;
    const attribute: onnx.IAttributeProto[] = Object.entries(attributes).map(([key, value]) =>
      Array.isArray(value)
        ? { name: key, type: proto.AttributeProto.AttributeType.INTS, ints: value }
        : Number.isInteger(value)
          ? { name: key, type: proto.AttributeProto.AttributeType.INT, i: value }
          : { name: key, type: proto.AttributeProto.AttributeType.FLOAT, f: value },
    );
    this.nodes.push({
      opType: type,
      input: inputs,
      output: [name],
      name: `node_${this.counter++}`,
      attribute,
      ...(domain !== '' ? { domain } : {}),
    });
    return name;
  }

  /** The node added last (to give a multi-output node its other output names). */
  lastNode(): onnx.INodeProto {
    const node = this.nodes[this.nodes.length - 1];
    if (!node) throw new Error('no node yet');
    return node;
  }

  /** Serialises the model (opset 17: ReduceMean still takes `axes` as an attribute). */
  encode(graphName: string): Uint8Array {
    const model = proto.ModelProto.create({
      irVersion: 8,
      producerName: 'haggle-fixture',
      opsetImport: [
        { domain: '', version: 17 },
        ...[...this.domains].map((domain) => ({ domain, version: 1 })),
      ],
      graph: {
        name: graphName,
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
    });
    return proto.ModelProto.encode(model).finish();
  }
}

/** Initializers smaller than this stay inside the graph, as the ONNX converters leave small ones. */
export const SMALL_INITIALIZER = 1024;

function concat(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

function valueInfo(name: string, elemType: ElemType, dims: Dim[]): onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: elemType === 'float' ? FLOAT : elemType === 'float16' ? FLOAT16 : INT64,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}
