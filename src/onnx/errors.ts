import { HaggleError } from '../contract/errors.js';
import { ModelFolderError } from '../prompt/errors.js';

/**
 * The command that fetches onnxruntime-node's CUDA provider, whatever npm does with install scripts
 * (npm 11 runs a dependency's only when allowed): its own install script, run by hand.
 */
export const CUDA_INSTALL_COMMAND =
  'npm explore onnxruntime-node -- node script/install --onnxruntime-node-install=cuda12';

/**
 * The device asked for (`cuda`, `webgpu`) cannot be used and `fallback: false` forbade running on
 * the CPU instead. The message says how to install the missing execution provider.
 */
export class OnnxDeviceUnavailableError extends HaggleError {
  static override readonly marker: string = 'haggle.error.OnnxDeviceUnavailableError';
  readonly device: string;
  /** What onnxruntime said when the session was created. */
  readonly reason: string;

  constructor({ device, reason, cause }: { device: string; reason: string; cause?: unknown }) {
    super({
      code: 'onnx-device-unavailable',
      message:
        `The ${device} execution provider of onnxruntime-node is not available (${reason}). ` +
        (device === 'cuda'
          ? 'onnxruntime-node fetches its CUDA provider with its install script (which npm 11 runs only ' +
            `when allowed): run \`${CUDA_INSTALL_COMMAND}\` on a machine with CUDA 12 and cuDNN 9, `
          : 'It needs a GPU and drivers that onnxruntime-node can reach; ') +
        "or pass `fallback: true` (the default) to run on the CPU, or `device: 'cpu'`.",
      cause,
    });
    this.name = 'OnnxDeviceUnavailableError';
    this.device = device;
    this.reason = reason;
  }
}

/**
 * The ONNX backend's model folder lacks a file it needs, or holds a config it cannot read: a
 * `ModelFolderError` (the one class for every model folder) whose message says what was being loaded.
 */
export function onnxModelFolderError(folder: string, problem: string, cause?: unknown): ModelFolderError {
  return new ModelFolderError({
    path: folder,
    problem,
    message: `Cannot load the ONNX model folder ${folder}: ${problem}`,
    cause,
  });
}

/**
 * A prompt that does not fit the model's context (`max_position_embeddings` in config.json) with room
 * for one generated token. Counting stops once the prompt is over, so `promptTokens` is exact when
 * `counted` is `'all'` and a lower bound when it is `'at-least'` (a 4 MiB prompt is not tokenized
 * to the end only to be refused).
 */
export class ContextLengthExceededError extends HaggleError {
  static override readonly marker: string = 'haggle.error.ContextLengthExceededError';
  readonly promptTokens: number;
  readonly contextLength: number;
  readonly counted: 'all' | 'at-least';

  constructor({
    promptTokens,
    contextLength,
    counted,
  }: {
    promptTokens: number;
    contextLength: number;
    counted: 'all' | 'at-least';
  }) {
    super({
      code: 'context-length-exceeded',
      message:
        `The prompt has ${counted === 'all' ? '' : 'at least '}${promptTokens} tokens; this model's context ` +
        `is ${contextLength} tokens and must leave room for at least one generated token: shorten the prompt ` +
        `to at most ${contextLength - 1} tokens.`,
    });
    this.name = 'ContextLengthExceededError';
    this.promptTokens = promptTokens;
    this.contextLength = contextLength;
    this.counted = counted;
  }
}
