import { createRequire } from 'node:module';
import { OptionalDependencyMissingError } from '../contract/errors.js';
import { moduleUrl } from './worker-entry.js';

/** The native runtime `haggle/onnx` drives; an optional peer dependency, installed by the user. */
export const ONNX_RUNTIME_PACKAGE = 'onnxruntime-node';

/**
 * Throws `OptionalDependencyMissingError` when onnxruntime-node cannot be resolved from `from` (this
 * module's URL: where the worker thread will import it). Looked up before the worker starts, because a
 * worker that fails its own `import` reports only Node's "Cannot find package", with no hint of what
 * to install. Resolving does not load the native binding, so this costs a few file lookups.
 */
export function assertOnnxRuntimeInstalled(from: string = moduleUrl()): void {
  try {
    createRequire(from).resolve(ONNX_RUNTIME_PACKAGE);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new OptionalDependencyMissingError({
      packageName: ONNX_RUNTIME_PACKAGE,
      neededFor: 'haggle/onnx (OnnxBackend)',
      optionalPeer: true,
      cause: error,
    });
  }
}
