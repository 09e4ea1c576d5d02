import { toHalfBits } from './half-precision.js';
import {
  DATA_LOCATION_EXTERNAL,
  encodeOnnxModel,
  type OnnxAttribute,
  type OnnxNode,
  type OnnxTensor,
  type OnnxValueInfo,
} from './onnx-model-encoder.js';

const FLOAT = 1;
const UINT8 = 2;
const INT64 = 7;
const FLOAT16 = 10;

/** ONNX element type numbers of the initializers this builder writes. */
export const TENSOR_TYPE = { float: FLOAT, uint8: UINT8, int64: INT64, float16: FLOAT16 } as const;

/** Initializers smaller than this stay inside the graph, as the ONNX converters leave small ones. */
export const SMALL_INITIALIZER = 1024;

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
/** Element types the graph's inputs and outputs use. */
export type ElemType = 'float' | 'float16' | 'int64';

type Bytes = Uint8Array | Iterable<Uint8Array>;

/**
 * A tensor's bytes, now or (for a weight read or converted on demand) when the graph is written; a
 * function may answer with a promise (a merge computed by onnxruntime), which only `writeTensors` takes.
 */
export type TensorBytes = Bytes | (() => Bytes | Promise<Bytes>);

/** `f` of a value that may still be on its way. */
export function mapMaybeAsync<T, U>(value: T | Promise<T>, f: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** How far `writeTensors` has come, for progress output. */
export interface TensorProgress {
  name: string;
  index: number;
  total: number;
  /** Bytes of this tensor. */
  bytes: number;
}

/**
 * A minimal ONNX graph writer: nodes get unique output names, initializers carry raw little-endian
 * data. Enough for a decoder; not a general ONNX library. Weights may be given as functions: they are
 * then made one at a time, in the order they were declared, when the tensors are written
 * (`writeTensors`, which can be aborted between tensors) or at the latest by `encode`.
 */
export class GraphBuilder {
  private readonly nodes: OnnxNode[] = [];
  private readonly initializers: OnnxTensor[] = [];
  private readonly inputs: OnnxValueInfo[] = [];
  private readonly outputs: OnnxValueInfo[] = [];
  private readonly pending: { tensor: OnnxTensor; bytes: TensorBytes; size: number }[] = [];
  private counter = 0;
  /** Operator domains beyond the standard one (`com.microsoft` for onnxruntime's contrib ops). */
  private readonly domains = new Set<string>();
  /** Values renamed to a graph output's name by `output`: later nodes' inputs follow the rename. */
  private readonly renamed = new Map<string, string>();

  /** `sink`: where initializers of `SMALL_INITIALIZER` bytes or more go; none keeps them all inline. */
  constructor(private readonly sink?: InitializerSink) {}

  /**
   * An initializer from its raw little-endian bytes, in one piece or many, or a function that makes
   * them. Through the sink when it is large, so the graph of a multi-gigabyte model stays small.
   */
  tensor(name: string, dims: number[], dataType: number, bytes: TensorBytes): string {
    const size = dims.reduce((a, b) => a * b, 1) * (dataType === FLOAT ? 4 : dataType === FLOAT16 ? 2 : 1);
    const tensor: OnnxTensor = { name, dims, dataType };
    // The slot is taken now, so the initializers keep the order in which the graph declared them.
    this.initializers.push(tensor);
    this.pending.push({ tensor, bytes, size });
    return name;
  }

  /** A float16 initializer from its bits. */
  halves(
    name: string,
    dims: number[],
    data: Uint16Array | (() => Uint16Array | Promise<Uint16Array>),
  ): string {
    return this.tensor(name, dims, FLOAT16, () =>
      mapMaybeAsync(typeof data === 'function' ? data() : data, asBytes),
    );
  }

  floats(
    name: string,
    dims: number[],
    data: Float32Array | (() => Float32Array | Promise<Float32Array>),
  ): string {
    return this.tensor(name, dims, FLOAT, () =>
      mapMaybeAsync(typeof data === 'function' ? data() : data, asBytes),
    );
  }

  bytes(name: string, dims: number[], data: Uint8Array | (() => Uint8Array | Promise<Uint8Array>)): string {
    return this.tensor(name, dims, UINT8, data);
  }

  input(name: string, elemType: ElemType, dims: Dim[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /**
   * Declares a graph output. A value some node of this graph makes is renamed to the output's name
   * (with every use of it), rather than copied by an `Identity`: onnxruntime keeps such an Identity
   * and copies the tensor, which for the `present.*` outputs is the whole KV cache every step. A
   * graph input or initializer passed straight through still gets its Identity.
   */
  output(name: string, from: string, elemType: ElemType, dims: Dim[]): void {
    const producer = this.nodes.find((node) => node.output.includes(from));
    if (producer) {
      producer.output = producer.output.map((out) => (out === from ? name : out));
      for (const node of this.nodes) node.input = node.input.map((input) => (input === from ? name : input));
      // Nodes added later may still name the value by its old name.
      this.renamed.set(from, name);
    } else {
      this.op('Identity', [from], {}, name);
    }
    this.outputs.push(valueInfo(name, elemType, dims));
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
    const attribute: OnnxAttribute[] = Object.entries(attributes).map(([key, value]) =>
      Array.isArray(value)
        ? { name: key, type: 7, ints: value }
        : Number.isInteger(value)
          ? { name: key, type: 2, i: value }
          : { name: key, type: 1, f: value },
    );
    this.nodes.push({
      opType: type,
      input: inputs.map((input) => this.renamed.get(input) ?? input),
      output: [name],
      name: `node_${this.counter++}`,
      attribute,
      ...(domain !== '' ? { domain } : {}),
    });
    return name;
  }

  /** The node added last (to give a multi-output node its other output names). */
  lastNode(): OnnxNode {
    const node = this.nodes[this.nodes.length - 1];
    if (!node) throw new Error('no node yet');
    return node;
  }

  /** Initializers whose bytes are not written yet. */
  get pendingTensors(): number {
    return this.pending.length;
  }

  /**
   * Makes and writes the pending initializers one at a time, yielding to the event loop between
   * them so that an abort (Ctrl-C, SIGTERM) is seen within one tensor's time.
   */
  async writeTensors(
    options: { signal?: AbortSignal; onTensor?: (progress: TensorProgress) => void } = {},
  ): Promise<void> {
    const total = this.pending.length;
    for (let index = 0; this.pending.length > 0; index++) {
      options.signal?.throwIfAborted();
      const next = this.pending[0] as (typeof this.pending)[number];
      const made = typeof next.bytes === 'function' ? await next.bytes() : next.bytes;
      this.place(next, made);
      this.pending.shift();
      options.onTensor?.({ name: next.tensor.name, index, total, bytes: next.size });
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Serialises the model (opset 17: ReduceMean still takes `axes` as an attribute). */
  encode(graphName: string, producerName = 'haggle-fixture'): Uint8Array {
    for (const next of this.pending) this.writeOne(next);
    this.pending.length = 0;
    return encodeOnnxModel({
      irVersion: 8,
      producerName,
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
  }

  private writeOne(next: { tensor: OnnxTensor; bytes: TensorBytes; size: number }): void {
    const made = typeof next.bytes === 'function' ? next.bytes() : next.bytes;
    if (made instanceof Promise)
      throw new Error(`${next.tensor.name} is made asynchronously: call writeTensors() before encode()`);
    this.place(next, made);
  }

  private place(next: { tensor: OnnxTensor; size: number }, made: Bytes): void {
    const pieces = made instanceof Uint8Array ? [made] : made;
    if (this.sink && next.size >= SMALL_INITIALIZER) {
      const place = this.sink.write(pieces);
      next.tensor.dataLocation = DATA_LOCATION_EXTERNAL;
      next.tensor.externalData = [
        { key: 'location', value: place.location },
        { key: 'offset', value: String(place.offset) },
        { key: 'length', value: String(place.length) },
      ];
      return;
    }
    next.tensor.rawData = made instanceof Uint8Array ? made : concat([...pieces]);
  }
}

function asBytes(data: Float32Array | Uint16Array): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function concat(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

function valueInfo(name: string, elemType: ElemType, dims: Dim[]): OnnxValueInfo {
  return { name, elemType: elemType === 'float' ? FLOAT : elemType === 'float16' ? FLOAT16 : INT64, dims };
}
