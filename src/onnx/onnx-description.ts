import type { BackendDescription } from '../backends/language-backend.js';
import type { OnnxDevice, OnnxDtype, OnnxModelShape } from './onnx-options.js';

/** What run records say about a local ONNX model. */
export interface OnnxBackendDescription extends BackendDescription {
  provider: 'onnx';
  modelId: string;
  /** Where it runs: the device asked for until the model is loaded, then the one it got. */
  device: OnnxDevice;
  dtype: OnnxDtype;
  /** The architecture config.json declares: enough to tell a 0.6B from a 4B export. */
  model: Pick<OnnxModelShape, 'modelType' | 'layers' | 'kvHeads' | 'headDim' | 'vocabSize'>;
  location: { folder: string };
}

export function describeOnnxBackend(args: {
  modelId: string;
  device: OnnxDevice;
  dtype: OnnxDtype;
  shape: OnnxModelShape;
  folder: string;
}): OnnxBackendDescription {
  const { modelType, layers, kvHeads, headDim, vocabSize } = args.shape;
  return {
    provider: 'onnx',
    modelId: args.modelId,
    device: args.device,
    dtype: args.dtype,
    model: { modelType, layers, kvHeads, headDim, vocabSize },
    location: { folder: args.folder },
  };
}
