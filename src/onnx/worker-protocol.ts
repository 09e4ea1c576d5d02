import type { BackendWarning } from '../backends/language-backend.js';
import type { JsonSchema } from '../contract/json-schema.js';
import type { OnnxDevice, OnnxDtype, OnnxModelShape } from './onnx-options.js';

/** Messages between `OnnxBackend` (main thread) and its worker. Plain data only: they are cloned. */
export interface LoadMessage {
  type: 'load';
  folder: string;
  device: OnnxDevice;
  dtype: OnnxDtype | undefined;
  fallback: boolean;
  maxBatchSize: number;
  prefillTokensPerRun: number;
  prefixCacheBytes: number;
  intraOpNumThreads: number | undefined;
  /** Milliseconds one schema may take to compile (`OnnxLoadOptions.compileBudgetMs`). */
  compileBudgetMs: number;
  /** `OnnxLoadOptions.profile`. */
  profile: boolean;
  /** See native-gate.ts: set by the supervisor for each worker it starts. */
  nativeGate?: SharedArrayBuffer;
}

export interface GenerateRequest {
  promptText: string;
  schema: JsonSchema | undefined;
  n: number;
  /** One seed per sample. */
  seeds: number[];
  temperature: number | undefined;
  topP: number | undefined;
  topK: number | undefined;
  maxTokens: number;
  stop: string[];
}

export interface GenerateMessage {
  type: 'generate';
  id: number;
  request: GenerateRequest;
  /** Shared memory: the main thread stores 1 at index 0 to abort. */
  abortFlag: SharedArrayBuffer;
  /** Hand the text out as it is sampled (`delta` messages) before the `result`. */
  stream?: boolean;
}

export type ToWorker = LoadMessage | GenerateMessage | { type: 'dispose' };

export interface LoadedMessage {
  type: 'loaded';
  device: OnnxDevice;
  dtype: OnnxDtype;
  modelPath: string;
  shape: OnnxModelShape;
  warnings: BackendWarning[];
}

export interface SerializedError {
  name: string;
  message: string;
  code: string | undefined;
  /** Extra fields of the error (e.g. `device`, `folder`), to rebuild typed errors. */
  fields: Record<string, string>;
}

export interface ResultMessage {
  type: 'result';
  id: number;
  choices: { text: string; tokens: number; finishReason: 'stop' | 'length' }[];
  promptTokens: number;
  cachedPromptTokens: number;
  steps: number;
}

/** Text sampled since the last delta message of a streamed request, per choice, in order. */
export interface DeltaMessage {
  type: 'delta';
  id: number;
  deltas: { index: number; text: string }[];
}

export type FromWorker =
  | LoadedMessage
  | ResultMessage
  | DeltaMessage
  | { type: 'error'; id: number | null; error: SerializedError }
  | { type: 'disposed' };

export function serializeError(error: unknown): SerializedError {
  const e = error instanceof Error ? error : new Error(String(error));
  const fields: Record<string, string> = {};
  for (const key of [
    'device',
    'reason',
    'path',
    'problem',
    'promptTokens',
    'contextLength',
    'counted',
  ] as const) {
    const value = (e as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = String(value);
  }
  const code = (e as { code?: unknown }).code;
  return { name: e.name, message: e.message, code: typeof code === 'string' ? code : undefined, fields };
}
