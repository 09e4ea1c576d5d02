export {
  type Dim,
  type ElemType,
  GraphBuilder,
  type InitializerSink,
  SMALL_INITIALIZER,
  TENSOR_TYPE,
} from '../../src/onnx/model-build/graph-builder.js';
