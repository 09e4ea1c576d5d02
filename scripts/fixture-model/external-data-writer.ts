export { ExternalDataWriter } from '../../src/onnx/model-build/external-data-writer.js';
