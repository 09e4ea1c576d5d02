import { BackendError, HaggleAbortError, HaggleError } from '../contract/errors.js';
import { ModelFolderError } from '../prompt/errors.js';
import { ContextLengthExceededError, OnnxDeviceUnavailableError } from './errors.js';
import type { SerializedError } from './worker-protocol.js';

/** Errors cross the thread boundary as data; rebuild the typed ones a caller acts on. */
export function rebuildError(error: SerializedError): Error {
  if (error.code === 'onnx-device-unavailable') {
    return new OnnxDeviceUnavailableError({
      device: error.fields.device ?? 'cuda',
      reason: error.fields.reason ?? error.message,
    });
  }
  if (error.code === 'model-folder') {
    return new ModelFolderError({
      path: error.fields.path ?? '',
      problem: error.fields.problem ?? error.message,
      message: error.message,
    });
  }
  if (error.code === 'aborted') return new HaggleAbortError(error.message);
  if (error.code === 'context-length-exceeded') {
    return new ContextLengthExceededError({
      promptTokens: Number(error.fields.promptTokens),
      contextLength: Number(error.fields.contextLength),
      counted: error.fields.counted === 'all' ? 'all' : 'at-least',
    });
  }
  if (error.code !== undefined) {
    const rebuilt = new HaggleError({ code: error.code, message: error.message });
    rebuilt.name = error.name;
    return rebuilt;
  }
  return new BackendError({ message: `the ONNX backend failed: ${error.message}`, backend: 'onnx' });
}
