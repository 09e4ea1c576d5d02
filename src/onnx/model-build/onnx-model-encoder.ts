import { ProtoWriter } from './protobuf-writer.js';

/**
 * The part of ONNX's `onnx.proto` a decoder graph uses, as plain data, and its encoding. Field numbers
 * are onnx.proto's; each message writes its fields in field-number order and leaves out the ones not
 * set, as protobufjs does (so the fixture model's bytes did not change when this replaced onnx-proto).
 */

/** `TensorProto.DataLocation.EXTERNAL`: the bytes lie in a file beside the graph. */
export const DATA_LOCATION_EXTERNAL = 1;

export interface OnnxTensor {
  name: string;
  dims: number[];
  /** ONNX element type (1 float, 2 uint8, 7 int64, 10 float16). */
  dataType: number;
  rawData?: Uint8Array;
  externalData?: { key: string; value: string }[];
  dataLocation?: number;
}

export interface OnnxAttribute {
  name: string;
  /** `AttributeType`: 1 FLOAT, 2 INT, 7 INTS. */
  type: number;
  f?: number;
  i?: number;
  ints?: number[];
}

export interface OnnxNode {
  opType: string;
  input: string[];
  output: string[];
  name: string;
  attribute: OnnxAttribute[];
  domain?: string;
}

export interface OnnxValueInfo {
  name: string;
  elemType: number;
  dims: (number | string)[];
}

export interface OnnxModel {
  irVersion: number;
  producerName: string;
  opsetImport: { domain: string; version: number }[];
  graph: {
    name: string;
    node: OnnxNode[];
    initializer: OnnxTensor[];
    input: OnnxValueInfo[];
    output: OnnxValueInfo[];
  };
}

export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const w = new ProtoWriter();
  w.int(1, model.irVersion);
  w.string(2, model.producerName);
  w.message(7, (g) => {
    for (const node of model.graph.node) g.message(1, (n) => writeNode(n, node));
    g.string(2, model.graph.name);
    for (const tensor of model.graph.initializer) g.message(5, (t) => writeTensor(t, tensor));
    for (const input of model.graph.input) g.message(11, (v) => writeValueInfo(v, input));
    for (const output of model.graph.output) g.message(12, (v) => writeValueInfo(v, output));
  });
  for (const opset of model.opsetImport)
    w.message(8, (o) => {
      o.string(1, opset.domain);
      o.int(2, opset.version);
    });
  return w.finish();
}

function writeTensor(w: ProtoWriter, tensor: OnnxTensor): void {
  w.packed(1, tensor.dims);
  w.int(2, tensor.dataType);
  w.string(8, tensor.name);
  if (tensor.rawData) w.bytes(9, tensor.rawData);
  for (const entry of tensor.externalData ?? [])
    w.message(13, (e) => {
      e.string(1, entry.key);
      e.string(2, entry.value);
    });
  if (tensor.dataLocation !== undefined) w.int(14, tensor.dataLocation);
}

function writeNode(w: ProtoWriter, node: OnnxNode): void {
  for (const input of node.input) w.string(1, input);
  for (const output of node.output) w.string(2, output);
  w.string(3, node.name);
  w.string(4, node.opType);
  for (const attribute of node.attribute)
    w.message(5, (a) => {
      a.string(1, attribute.name);
      if (attribute.f !== undefined) a.float(2, attribute.f);
      if (attribute.i !== undefined) a.int(3, attribute.i);
      if (attribute.ints) a.packed(8, attribute.ints);
      a.int(20, attribute.type);
    });
  if (node.domain !== undefined) w.string(7, node.domain);
}

function writeValueInfo(w: ProtoWriter, info: OnnxValueInfo): void {
  w.string(1, info.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, info.elemType);
      tensor.message(2, (shape) => {
        for (const dim of info.dims)
          shape.message(1, (d) => (typeof dim === 'number' ? d.int(1, dim) : d.string(2, dim)));
      });
    }),
  );
}
