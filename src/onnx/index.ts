export { cudaProviderInstalled } from './cuda-provider.js';
export { OnnxBackend } from './onnx-backend.js';
export type { OnnxBackendDescription } from './onnx-description.js';
export {
  ContextLengthExceededError,
  OnnxDeviceUnavailableError,
  OnnxModelFolderError,
  OptionalDependencyMissingError,
} from './onnx-errors.js';
export type { OnnxDevice, OnnxDtype, OnnxLoadOptions, OnnxModelShape } from './onnx-options.js';
export type { OnnxWorkerEvent, OnnxWorkerHealth } from './worker-supervisor.js';
