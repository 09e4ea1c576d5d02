import { createRequire } from 'node:module';
import type { onnx } from 'onnx-proto';

// onnx-proto is a CommonJS protobufjs bundle whose exports Node's ESM loader cannot see by name.
const require = createRequire(import.meta.url);
const proto = (require('onnx-proto') as { onnx: typeof onnx }).onnx;

/** Initializers smaller than this stay inside the graph, as the ONNX converters leave small ones. */
const SMALL = 1024;

/**
 * Moves a model's large initializers into one external data file, as an export over the 2 GB protobuf
 * limit must (Qwen3-4B in fp32 is 16 GB): the graph keeps each tensor's name, shape and type with
 * `data_location: EXTERNAL` and the file's name, offset and length; the file holds the raw bytes,
 * each tensor starting on a 4 kB boundary as onnx's own converter aligns them.
 */
export function withExternalData(
  model: Uint8Array,
  dataName: string,
): { graph: Uint8Array; data: Uint8Array } {
  const decoded = proto.ModelProto.decode(model);
  const parts: { offset: number; bytes: Uint8Array }[] = [];
  let size = 0;
  for (const tensor of decoded.graph?.initializer ?? []) {
    const bytes = tensor.rawData;
    if (!bytes || bytes.length < SMALL) continue;
    const offset = Math.ceil(size / 4096) * 4096;
    parts.push({ offset, bytes });
    size = offset + bytes.length;
    tensor.rawData = new Uint8Array(0);
    tensor.dataLocation = proto.TensorProto.DataLocation.EXTERNAL;
    tensor.externalData = [
      { key: 'location', value: dataName },
      { key: 'offset', value: String(offset) },
      { key: 'length', value: String(bytes.length) },
    ];
  }
  const data = new Uint8Array(size);
  for (const part of parts) data.set(part.bytes, part.offset);
  return { graph: proto.ModelProto.encode(decoded).finish(), data };
}
