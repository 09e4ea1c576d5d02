import { basename, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  BackendWarning,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../backends/language-backend.js';
import {
  BackendError,
  HaggleAbortError,
  HaggleError,
  InvalidInputError,
  throwIfAborted,
} from '../contract/errors.js';
import { UnsupportedSchemaError } from '../decoding/errors.js';
import { deriveSeed } from '../internal/random.js';
import { renderQwen3NoThink } from '../prompt/qwen3-chat-format.js';
import { describeOnnxBackend, type OnnxBackendDescription } from './onnx-description.js';
import {
  ContextLengthExceededError,
  OnnxDeviceUnavailableError,
  OnnxModelFolderError,
} from './onnx-errors.js';
import type { OnnxDevice, OnnxDtype, OnnxLoadOptions, OnnxModelShape } from './onnx-options.js';
import { assertOnnxRuntimeInstalled } from './runtime-package.js';
import { type WorkerEntry, workerEntry } from './worker-entry.js';
import type {
  FromWorker,
  GenerateRequest,
  LoadedMessage,
  SerializedError,
  ToWorker,
} from './worker-protocol.js';

/** See `OnnxLoadOptions.prefixCacheBytes`. */
const DEFAULT_PREFIX_CACHE_BYTES = 256 * 2 ** 20;

interface Pending {
  resolve: (message: FromWorker) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
}

/**
 * A local model in the caller's process: an ONNX export (Optimum `text-generation-with-past`) run by
 * onnxruntime-node in a worker thread, with haggle's own decode loop (KV cache, continuous batching,
 * the constrained decoder's mask and jump-forward every step, a seeded sampler per sequence).
 * Create with `OnnxBackend.load(folder, options)`; call `dispose()` when done.
 *
 * @example
 * ```ts
 * import { NegotiationAgent } from 'haggle';
 * import { OnnxBackend } from 'haggle/onnx';
 *
 * // CUDA when onnxruntime-node has its CUDA provider; otherwise the CPU, with a warning that says so.
 * const backend = await OnnxBackend.load('./qwen3-4b-negotiation-onnx', { device: 'cuda' });
 * try {
 *   const agent = new NegotiationAgent({ backend, sampling: { temperature: 1.0, seed: 7 } });
 *   const turn = await agent.predict({ context, history, role: 'buyer' }, { signal });
 *   console.log(turn);
 * } finally {
 *   await backend.dispose(); // ends the worker thread, frees the model's native memory
 * }
 * ```
 * @see The guide: [Local ONNX backend](../../docs/local-onnx.md).
 */
export class OnnxBackend implements LanguageBackend {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'onnx';
  readonly modelId: string;
  /** Where the model actually runs: `cpu` after a fallback even when `cuda` was asked for. */
  readonly device: OnnxDevice;
  readonly dtype: OnnxDtype;
  readonly shape: OnnxModelShape;
  /** Warnings from loading (a device fallback), repeated in every `doGenerate` result. */
  readonly loadWarnings: readonly BackendWarning[];
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  /** The worker thread ended (crashed or disposed): requests would never be answered. */
  private workerGone = false;
  private exited: Promise<void>;
  private readonly folder: string;

  private constructor(
    worker: Worker,
    loaded: LoadedMessage,
    modelId: string,
    folder: string,
    exited: Promise<void>,
  ) {
    this.worker = worker;
    this.folder = folder;
    this.device = loaded.device;
    this.dtype = loaded.dtype;
    this.shape = loaded.shape;
    this.loadWarnings = loaded.warnings;
    this.modelId = modelId;
    this.exited = exited;
    worker.on('message', (message: FromWorker) => this.onMessage(message));
  }

  /**
   * Loads `folder` (config.json, tokenizer files, onnx/model*.onnx). With `device: 'cuda'` or
   * `'webgpu'` and no such provider, runs on the CPU, says so in `device` and in the warnings of
   * every result; with `fallback: false`, throws `OnnxDeviceUnavailableError` instead. Without the
   * onnxruntime-node package installed, throws `OptionalDependencyMissingError` (with the install command).
   */
  static async load(folder: string, options: OnnxLoadOptions = {}): Promise<OnnxBackend> {
    const maxBatchSize = options.maxBatchSize ?? 8;
    const prefillTokensPerRun = options.prefillTokensPerRun ?? 256;
    const prefixCacheBytes = options.prefixCacheBytes ?? DEFAULT_PREFIX_CACHE_BYTES;
    const issues: { path: string; message: string }[] = [];
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1)
      issues.push({ path: 'maxBatchSize', message: `a positive integer, got ${maxBatchSize}` });
    if (!Number.isInteger(prefillTokensPerRun) || prefillTokensPerRun < 1)
      issues.push({ path: 'prefillTokensPerRun', message: `a positive integer, got ${prefillTokensPerRun}` });
    if (!Number.isInteger(prefixCacheBytes) || prefixCacheBytes < 0)
      issues.push({ path: 'prefixCacheBytes', message: `an integer >= 0 (0: off), got ${prefixCacheBytes}` });
    if (issues.length > 0) throw new InvalidInputError('OnnxLoadOptions', issues);
    // Said here, with the install command, rather than as the worker's bare "Cannot find package".
    assertOnnxRuntimeInstalled();
    const worker = startWorker(workerEntry());
    const exited = new Promise<void>((done) => worker.once('exit', () => done()));
    const message: ToWorker = {
      type: 'load',
      folder: resolve(folder),
      device: options.device ?? 'cpu',
      dtype: options.dtype,
      fallback: options.fallback ?? true,
      maxBatchSize,
      prefillTokensPerRun,
      prefixCacheBytes,
      intraOpNumThreads: options.intraOpNumThreads,
    };
    const listeners: {
      message?: (reply: FromWorker) => void;
      error?: (e: Error) => void;
      exit?: (code: number) => void;
    } = {};
    const loaded = await new Promise<LoadedMessage>((done, fail) => {
      listeners.message = (reply: FromWorker) => {
        if (reply.type === 'loaded') done(reply);
        else if (reply.type === 'error') fail(rebuildError(reply.error));
      };
      listeners.error = fail;
      listeners.exit = (code: number) =>
        fail(
          new BackendError({
            message: `the ONNX worker exited (code ${code}) while loading`,
            backend: 'onnx',
          }),
        );
      worker.on('message', listeners.message);
      worker.on('error', listeners.error);
      worker.on('exit', listeners.exit);
      worker.postMessage(message);
    })
      .catch(async (error: unknown) => {
        await worker.terminate();
        throw error;
      })
      .finally(() => {
        if (listeners.message) worker.off('message', listeners.message);
        if (listeners.error) worker.off('error', listeners.error);
        if (listeners.exit) worker.off('exit', listeners.exit);
      });
    const backend = new OnnxBackend(
      worker,
      loaded,
      options.modelId ?? basename(resolve(folder)),
      resolve(folder),
      exited,
    );
    worker.on('error', (error) => backend.failAll(error));
    worker.on('exit', () => {
      backend.workerGone = true;
      backend.failAll(new BackendError({ message: 'the ONNX worker exited', backend: 'onnx' }));
    });
    worker.unref(); // an idle backend does not keep the process alive; requests in flight ref it
    return backend;
  }

  /** For run records: the device the model actually runs on (after any fallback), its dtype and shape. */
  describe(): OnnxBackendDescription {
    return describeOnnxBackend({
      modelId: this.modelId,
      device: this.device,
      dtype: this.dtype,
      shape: this.shape,
      folder: this.folder,
    });
  }

  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    if (this.disposed) throw new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' });
    if (this.workerGone)
      throw new BackendError({ message: 'the ONNX worker thread has exited', backend: 'onnx' });
    throwIfAborted(options.abortSignal);
    const warnings: BackendWarning[] = [...this.loadWarnings];
    const n = options.n ?? 1;
    const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
    if (options.seed === undefined) {
      warnings.push({
        type: 'other',
        message: 'no seed given: a random one was drawn, the run will not repeat',
      });
    }
    for (const setting of Object.keys(options.providerOptions?.onnx ?? {})) {
      warnings.push({ type: 'unsupported-setting', setting: `providerOptions.onnx.${setting}` });
    }
    const schema = options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined;
    if (schema !== undefined && options.stop && options.stop.length > 0) {
      // Under a schema the grammar decides where the text ends (at the end of the document).
      warnings.push({ type: 'unsupported-setting', setting: 'stop', details: 'ignored under a JSON schema' });
    }
    const request: GenerateRequest = {
      promptText: options.prompt.text ?? renderQwen3NoThink(options.prompt.messages),
      schema,
      n,
      seeds: Array.from({ length: n }, (_, i) => (n === 1 ? seed : deriveSeed(seed, i))),
      temperature: options.temperature,
      topP: options.topP,
      topK: options.topK,
      maxTokens: options.maxTokens ?? 1024,
      stop: options.stop ?? [],
    };
    if (options.prompt.text === undefined) {
      warnings.push({
        type: 'other',
        message: 'no prompt text: the messages were rendered as qwen3_nothink',
      });
    }
    const id = this.nextId++;
    const abortFlag = new SharedArrayBuffer(4);
    const flag = new Int32Array(abortFlag);
    const signal = options.abortSignal;
    const onAbort = () => Atomics.store(flag, 0, 1);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.worker.ref();
    try {
      const reply = await new Promise<FromWorker>((done, fail) => {
        this.pending.set(id, { resolve: done, reject: fail, signal });
        try {
          this.worker.postMessage({ type: 'generate', id, request, abortFlag } satisfies ToWorker);
        } catch (error) {
          // Copying a schema nested thousands deep to the worker overflows the stack: refuse it.
          if (error instanceof RangeError && /call stack/i.test(error.message))
            fail(new UnsupportedSchemaError('(nesting)', '#', 'the schema is nested too deeply to compile'));
          else fail(error);
        }
      });
      if (reply.type !== 'result')
        throw new BackendError({ message: 'unexpected reply from the ONNX worker', backend: 'onnx' });
      return {
        choices: reply.choices.map((c) => ({ text: c.text, finishReason: c.finishReason })),
        usage: {
          promptTokens: reply.promptTokens,
          completionTokens: reply.choices.reduce((sum, c) => sum + c.tokens, 0),
          cachedPromptTokens: reply.cachedPromptTokens,
        },
        warnings,
        response: { modelId: this.modelId },
      };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.pending.delete(id);
      if (this.pending.size === 0) this.worker.unref();
    }
  }

  private onMessage(message: FromWorker): void {
    if (message.type === 'result' || (message.type === 'error' && message.id !== null)) {
      const pending = this.pending.get(message.id as number);
      if (!pending) return;
      if (message.type === 'result') pending.resolve(message);
      else if (message.error.code === 'aborted' && pending.signal?.aborted)
        pending.reject(new HaggleAbortError(pending.signal.reason));
      else pending.reject(rebuildError(message.error));
    }
  }

  private failAll(error: unknown): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  /** Stops the worker and releases the session (native memory). Requests in flight are rejected. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.worker.ref();
    // Let the worker release the session first, then end the thread (a loader kept alive by the
    // sources setting would otherwise keep it running); give up waiting after a few seconds.
    await new Promise<void>((done) => {
      const timeout = setTimeout(done, 5_000);
      const onMessage = (message: FromWorker) => {
        if (message.type !== 'disposed') return;
        clearTimeout(timeout);
        this.worker.off('message', onMessage);
        done();
      };
      this.worker.on('message', onMessage);
      this.exited.then(() => {
        clearTimeout(timeout);
        done();
      });
      this.worker.postMessage({ type: 'dispose' } satisfies ToWorker);
    });
    this.failAll(new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' }));
    await this.worker.terminate();
  }

  /** Disposes of the backend, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

/**
 * Starts the worker with the process's Node options, less those a worker refuses: process-wide V8
 * flags (`node --expose-gc app.js`, `--trace-gc`) and `--input-type` (`node --input-type=module -e`).
 * Node names the refused flags in its error; they are dropped and the start is tried once more.
 */
function startWorker(entry: WorkerEntry): Worker {
  const start = (execArgv: string[]) =>
    entry.kind === 'file'
      ? new Worker(entry.url, { execArgv })
      : new Worker(entry.code, { eval: true, execArgv });
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
  try {
    return start(execArgv);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    const refused = new Set(
      (error as Error).message
        .split(':')
        .slice(1)
        .join(':')
        .split(/[\s,]+/)
        .filter(Boolean),
    );
    return start(execArgv.filter((arg) => !refused.has(arg) && !refused.has(arg.split('=')[0] as string)));
  }
}

/** Errors cross the thread boundary as data; rebuild the typed ones a caller acts on. */
function rebuildError(error: SerializedError): Error {
  if (error.code === 'onnx-device-unavailable') {
    return new OnnxDeviceUnavailableError(
      error.fields.device ?? 'cuda',
      error.fields.reason ?? error.message,
    );
  }
  if (error.code === 'onnx-model-folder')
    return new OnnxModelFolderError(error.fields.folder ?? '', error.fields.problem ?? error.message);
  if (error.code === 'aborted') return new HaggleAbortError(error.message);
  if (error.code === 'context-length-exceeded') {
    return new ContextLengthExceededError(
      Number(error.fields.promptTokens),
      Number(error.fields.contextLength),
      error.fields.counted === 'all' ? 'all' : 'at-least',
    );
  }
  if (error.code !== undefined) {
    const rebuilt = new HaggleError(error.code, error.message);
    rebuilt.name = error.name;
    return rebuilt;
  }
  return new BackendError({ message: `the ONNX backend failed: ${error.message}`, backend: 'onnx' });
}
