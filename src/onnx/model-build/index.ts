export { type BuildCheck, CHECK_TOLERANCE } from './build-check.js';
export {
  BUILD_RECORD_FILE,
  type BuildModelOptions,
  type BuildModelResult,
  type BuildProgress,
  type BuildRecord,
  buildModel,
  MODEL_FILE,
} from './build-model.js';
export {
  BuildCheckFailedError,
  BuildOutputExistsError,
  CheckpointFormatError,
  HubDownloadError,
  UnsupportedAdapterError,
} from './errors.js';
export {
  DEFAULT_HUB_ENDPOINT,
  type PulledFile,
  type PullOptions,
  type PullProgress,
  pullRepository,
  resolveHubRevision,
} from './hub-pull.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './idle-watch.js';
export type { ModelDtype } from './stored-weights.js';
