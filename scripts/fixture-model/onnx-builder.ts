import { createRequire } from 'node:module';
import type { onnx } from 'onnx-proto';

// onnx-proto is a CommonJS protobufjs bundle whose exports Node's ESM loader cannot see by name.
const require = createRequire(import.meta.url);
const proto = (require('onnx-proto') as { onnx: typeof onnx }).onnx;

const FLOAT = 1;
const UINT8 = 2;
const INT64 = 7;
const FLOAT16 = 10;

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

  input(name: string, elemType: ElemType, dims: Dim[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, from: string, elemType: ElemType, dims: Dim[]): void {
    this.op('Identity', [from], {}, name);
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  floats(name: string, dims: number[], data: Float32Array): string {
    this.initializers.push({
      name,
      dims,
      dataType: FLOAT,
      rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    });
    return name;
  }

  bytes(name: string, dims: number[], data: Uint8Array): string {
    this.initializers.push({ name, dims, dataType: UINT8, rawData: data });
    return name;
  }

  ints(values: number[], dims: number[] = [values.length]): string {
    const name = `const_${this.counter++}`;
    const data = new BigInt64Array(values.map((v) => BigInt(v)));
    this.initializers.push({ name, dims, dataType: INT64, rawData: new Uint8Array(data.buffer) });
    return name;
  }

  scalar(value: number): string {
    const name = `const_${this.counter++}`;
    this.initializers.push({
      name,
      dims: [],
      dataType: FLOAT,
      rawData: new Uint8Array(new Float32Array([value]).buffer),
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
