export { fromHalfArray, toHalfArray, toHalfBits } from '../../src/onnx/model-build/half-precision.js';
