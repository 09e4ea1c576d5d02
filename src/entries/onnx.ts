/**
 * `OnnxBackend`: a local Qwen3-shaped ONNX model through onnxruntime-node (an optional peer
 * dependency), decoding in a worker thread under the turn's JSON Schema. Node only.
 * @packageDocumentation
 * @module haggle/onnx
 */
export * from '../onnx/index.js';
