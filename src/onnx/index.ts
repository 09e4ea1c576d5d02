export { OptionalDependencyMissingError } from '../contract/errors.js';
export { cudaProviderInstalled } from './cuda-provider.js';
export { ContextLengthExceededError, OnnxDeviceUnavailableError } from './errors.js';
export {
  BUILD_RECORD_FILE,
  type BuildCheck,
  BuildCheckFailedError,
  type BuildModelOptions,
  type BuildModelResult,
  BuildOutputExistsError,
  type BuildProgress,
  type BuildRecord,
  buildModel,
  CHECK_TOLERANCE,
  CheckpointFormatError,
  DEFAULT_HUB_ENDPOINT,
  DEFAULT_IDLE_TIMEOUT_MS,
  HubDownloadError,
  MODEL_FILE,
  type ModelDtype,
  type PulledFile,
  type PullOptions,
  type PullProgress,
  pullRepository,
  resolveHubRevision,
  UnsupportedAdapterError,
} from './model-build/index.js';
export { OnnxBackend } from './onnx-backend.js';
export type { OnnxBackendDescription } from './onnx-description.js';
export type { OnnxDevice, OnnxDtype, OnnxLoadOptions, OnnxModelShape } from './onnx-options.js';
export type { OnnxWorkerEvent, OnnxWorkerHealth } from './worker-supervisor.js';
