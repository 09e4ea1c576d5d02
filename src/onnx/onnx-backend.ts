import { basename, resolve } from 'node:path';
import type {
  BackendHealth,
  BackendStreamPart,
  BackendWarning,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../backends/language-backend.js';
import { BackendError, HaggleAbortError, InvalidInputError, throwIfAborted } from '../contract/errors.js';
import { COMPILE_LIMITS } from '../decoding/compiler/schema-compiler.js';
import { UnsupportedSchemaError } from '../decoding/errors.js';
import { deriveSeed } from '../internal/random.js';
import { renderQwen3NoThink } from '../prompt/qwen3-chat-format.js';
import { waitLonger } from './abort-wait.js';
import { describeOnnxBackend, type OnnxBackendDescription } from './onnx-description.js';
import {
  DEFAULT_ABORT_GRACE_MS,
  DEFAULT_SCHEMA_HEAP_MB,
  DEFAULT_WORKER_HEAP_MB,
  type OnnxDevice,
  type OnnxDtype,
  type OnnxLoadOptions,
  type OnnxModelShape,
} from './onnx-options.js';
import { rebuildError } from './rebuild-error.js';
import { assertOnnxRuntimeInstalled } from './runtime-package.js';
import { SchemaVetter } from './schema-vetter.js';
import { workerEntry } from './worker-entry.js';
import type {
  FromWorker,
  GenerateMessage,
  GenerateRequest,
  LoadedMessage,
  LoadMessage,
} from './worker-protocol.js';
import { type OnnxWorkerEvent, type OnnxWorkerHealth, WorkerSupervisor } from './worker-supervisor.js';

/** See `OnnxLoadOptions.prefixCacheBytes`. */
const DEFAULT_PREFIX_CACHE_BYTES = 256 * 2 ** 20;

interface Pending {
  resolve: (message: FromWorker) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  /** A streamed request's text as the worker samples it. */
  onDelta?: (deltas: { index: number; text: string }[]) => void;
  /** What is posted to the worker: posted again to a new one when the worker is replaced. */
  message: GenerateMessage;
  /** Whether the current worker was given it (false while it waits for a worker being restarted). */
  posted: boolean;
  /** Whether text was streamed to the caller already (such a request cannot start over unseen). */
  streamed: boolean;
  /** Whether it was re-queued once after a worker ended (a second end fails it: it may be the cause). */
  requeued: boolean;
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
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  private readonly folder: string;
  /** Set once the worker is started (the supervisor's callbacks reach the backend through it). */
  private supervisor!: WorkerSupervisor;
  /** Requests aborted but not yet let go of by the worker: the worker is ended if one outstays the grace. */
  private readonly abandoned = new Map<number, ReturnType<typeof setTimeout>>();
  private readonly abortGraceMs: number;
  /** With `untrustedSchemas`: compiles each new schema in its own worker before the model's worker does. */
  private vetter: SchemaVetter | undefined;

  private constructor(loaded: LoadedMessage, modelId: string, folder: string, abortGraceMs: number) {
    this.folder = folder;
    this.device = loaded.device;
    this.dtype = loaded.dtype;
    this.shape = loaded.shape;
    this.loadWarnings = loaded.warnings;
    this.modelId = modelId;
    this.abortGraceMs = abortGraceMs;
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
    const workerHeapMb = options.workerHeapMb ?? DEFAULT_WORKER_HEAP_MB;
    const abortGraceMs = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
    const compileBudgetMs = options.compileBudgetMs ?? COMPILE_LIMITS.timeBudgetMs;
    const schemaHeapMb = options.schemaHeapMb ?? DEFAULT_SCHEMA_HEAP_MB;
    const issues: { path: string; message: string }[] = [];
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1)
      issues.push({ path: 'maxBatchSize', message: `a positive integer, got ${maxBatchSize}` });
    if (!Number.isInteger(prefillTokensPerRun) || prefillTokensPerRun < 1)
      issues.push({ path: 'prefillTokensPerRun', message: `a positive integer, got ${prefillTokensPerRun}` });
    if (!Number.isInteger(prefixCacheBytes) || prefixCacheBytes < 0)
      issues.push({ path: 'prefixCacheBytes', message: `an integer >= 0 (0: off), got ${prefixCacheBytes}` });
    if (!Number.isInteger(workerHeapMb) || workerHeapMb < 64)
      issues.push({ path: 'workerHeapMb', message: `an integer >= 64 (MB), got ${workerHeapMb}` });
    if (!(abortGraceMs >= 0))
      issues.push({ path: 'abortGraceMs', message: `milliseconds >= 0, got ${abortGraceMs}` });
    if (!Number.isInteger(schemaHeapMb) || schemaHeapMb < 16)
      issues.push({ path: 'schemaHeapMb', message: `an integer >= 16 (MB), got ${schemaHeapMb}` });
    if (!(compileBudgetMs > 0))
      issues.push({ path: 'compileBudgetMs', message: `milliseconds > 0, got ${compileBudgetMs}` });
    if (issues.length > 0) throw new InvalidInputError({ subject: 'OnnxLoadOptions', issues });
    // Said here, with the install command, rather than as the worker's bare "Cannot find package".
    assertOnnxRuntimeInstalled();
    const message: LoadMessage = {
      type: 'load',
      folder: resolve(folder),
      device: options.device ?? 'cpu',
      dtype: options.dtype,
      fallback: options.fallback ?? true,
      maxBatchSize,
      prefillTokensPerRun,
      prefixCacheBytes,
      intraOpNumThreads: options.intraOpNumThreads,
      compileBudgetMs,
      profile: options.profile ?? false,
    };
    let backend: OnnxBackend | undefined;
    const { supervisor, loaded } = await WorkerSupervisor.start(
      workerEntry(),
      message,
      workerHeapMb,
      (reply) => backend?.onMessage(reply),
      (event) => backend?.onWorkerEvent(event, options.onWorkerEvent),
    );
    backend = new OnnxBackend(
      loaded,
      options.modelId ?? basename(resolve(folder)),
      resolve(folder),
      abortGraceMs,
    );
    backend.supervisor = supervisor;
    if (options.untrustedSchemas) {
      backend.vetter = new SchemaVetter(workerEntry(undefined, 'schema-vetting-worker'), {
        budgetMs: compileBudgetMs,
        heapMb: schemaHeapMb,
      });
    }
    return backend;
  }

  /** Whether the model can take requests now: `loading` while a new worker reloads it after an exit. */
  health(): BackendHealth & OnnxWorkerHealth {
    const worker = this.supervisor.health();
    if (this.disposed || worker.state === 'disposed')
      return { status: 'unavailable', detail: 'the backend was disposed', ...worker };
    if (worker.state === 'restarting') {
      return {
        status: 'loading',
        detail: `the model worker is being restarted after it ended (${worker.lastExit ?? 'unknown cause'})`,
        ...worker,
      };
    }
    return { status: 'ok', ...worker };
  }

  /**
   * Ends the worker and loads the model in a new one, as after a crash: requests in flight are given to
   * the new worker (see `onWorkerEvent`), and `health()` says `loading` until the model is back. For an
   * operator who sees the model misbehave, and for tests of what a crash does.
   */
  restartWorker(reason = 'restartWorker() was called'): void {
    this.supervisor.kill(reason);
  }

  /**
   * A worker that ended (a crash, its heap limit, or ended for a request that outstayed its abort) does
   * not fail the requests it merely held (issue 40): each is re-queued once and given to the new worker
   * when it is ready; requests that come meanwhile wait for it too. The request that got the worker
   * ended was answered at its abort and is not among them. A request that already streamed text, or
   * was re-queued before (it may be what ends workers), gets a retryable 503, as do all waiting ones
   * when the restart fails. The event reaches the operator.
   */
  private onWorkerEvent(
    event: OnnxWorkerEvent,
    listener: ((event: OnnxWorkerEvent) => void) | undefined,
  ): void {
    if (event.type === 'worker-exit') {
      for (const timer of this.abandoned.values()) clearTimeout(timer);
      this.abandoned.clear();
      const ended = new BackendError({
        message: `the ONNX worker ended while serving this request (${event.cause}); it is being restarted, retry shortly`,
        backend: 'onnx',
        status: 503,
        retryable: true,
      });
      for (const [id, pending] of this.pending) {
        if (!pending.posted) continue;
        if (pending.streamed || pending.requeued) {
          this.pending.delete(id);
          pending.reject(ended);
        } else {
          pending.requeued = true;
          pending.posted = false;
        }
      }
      // Nothing runs until the new worker is ready: it must not keep the process alive while idle.
      if (this.pending.size === 0) this.supervisor.hold(false);
    } else if (event.type === 'worker-ready') {
      if (this.pending.size > 0) this.supervisor.hold(true);
      for (const pending of this.pending.values()) if (!pending.posted) this.post(pending);
    } else if (event.type === 'worker-restart-failed') {
      this.failAll(
        new BackendError({
          message: `the ONNX worker could not be restarted (${event.cause}); retry later`,
          backend: 'onnx',
          status: 503,
          retryable: true,
        }),
      );
    }
    try {
      listener?.(event);
    } catch {
      // An operator's listener does not break the backend.
    }
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
    return this.run(options, undefined);
  }

  /**
   * The same generation as `doGenerate` (the same tokens for the same seed), its text handed out as
   * the worker samples it: the rows of the batch send their new text once per step. Abandoning the
   * iterable aborts the request, which frees its row in the batch.
   */
  async *doStream(options: GenerateOptions): AsyncGenerator<BackendStreamPart> {
    const abandoned = new AbortController();
    const outer = options.abortSignal;
    const signal = outer ? AbortSignal.any([outer, abandoned.signal]) : abandoned.signal;
    const queue: { index: number; text: string }[] = [];
    let wake: (() => void) | undefined;
    let settled: { result: GenerateResult } | { error: unknown } | undefined;
    const run = this.run({ ...options, abortSignal: signal }, (deltas) => {
      queue.push(...deltas);
      wake?.();
    }).then(
      (result) => {
        settled = { result };
        wake?.();
      },
      (error: unknown) => {
        settled = { error };
        wake?.();
      },
    );
    const shown = new Map<number, string>();
    try {
      for (;;) {
        while (queue.length > 0) {
          const delta = queue.shift() as { index: number; text: string };
          shown.set(delta.index, (shown.get(delta.index) ?? '') + delta.text);
          yield { type: 'text-delta', index: delta.index, delta: delta.text };
        }
        if (settled) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      if ('error' in settled) {
        if (outer?.aborted) throw new HaggleAbortError(outer.reason);
        throw settled.error;
      }
      const { result } = settled;
      // The worker's deltas end at the last token it was asked logits for; the rest of each text (the
      // tokens the decoder took at its end) comes now. A text that does not extend what was shown
      // (a roll-back the deltas could not follow) is sent again whole after a reset.
      const consistent = result.choices.every((choice, index) =>
        choice.text.startsWith(shown.get(index) ?? ''),
      );
      if (!consistent) yield { type: 'reset' };
      for (const [index, choice] of result.choices.entries()) {
        const tail = consistent ? choice.text.slice((shown.get(index) ?? '').length) : choice.text;
        if (tail !== '') yield { type: 'text-delta', index, delta: tail };
      }
      yield { type: 'finish', result };
    } finally {
      if (!settled) abandoned.abort(new HaggleAbortError('the stream was abandoned'));
      await run;
    }
  }

  private async run(options: GenerateOptions, onDelta: Pending['onDelta']): Promise<GenerateResult> {
    if (this.disposed) throw new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' });
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
    // A client's schema compiles first where a runaway costs neither the model nor this thread.
    if (schema !== undefined && this.vetter)
      await this.vetter.vet(schema, options.abortSignal, options.client);
    const id = this.nextId++;
    const abortFlag = new SharedArrayBuffer(4);
    const flag = new Int32Array(abortFlag);
    const signal = options.abortSignal;
    let onAbort: (() => void) | undefined;
    this.supervisor.hold(true);
    try {
      const reply = await new Promise<FromWorker>((done, fail) => {
        const message: GenerateMessage = {
          type: 'generate',
          id,
          request,
          abortFlag,
          ...(onDelta ? { stream: true } : {}),
        };
        const pending: Pending = {
          resolve: done,
          reject: fail,
          signal,
          ...(onDelta ? { onDelta } : {}),
          message,
          posted: false,
          streamed: false,
          requeued: false,
        };
        this.pending.set(id, pending);
        // The caller is answered at its abort, whatever the worker is doing; the worker is told through
        // shared memory, and ended (then restarted) if it has not let the request go within the grace:
        // a mask or a compile that ran away must not hold the model for the requests behind it.
        onAbort = () => {
          Atomics.store(flag, 0, 1);
          if (!this.pending.has(id)) return;
          this.pending.delete(id);
          fail(new HaggleAbortError(signal?.reason));
          // One waiting for a restarted worker holds none: nothing to let go of.
          if (pending.posted) this.abandon(id);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        // While a worker is being restarted the request waits for it (onWorkerEvent), not a 503.
        if (this.supervisor.health().state !== 'restarting') this.post(pending);
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
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      this.pending.delete(id);
      if (this.pending.size === 0 && this.abandoned.size === 0) this.supervisor.hold(false);
    }
  }

  /** Gives a pending request to the current worker; a failure to copy it fails the request. */
  private post(pending: Pending): void {
    const id = pending.message.id;
    try {
      this.supervisor.post(pending.message);
      pending.posted = true;
    } catch (error) {
      this.pending.delete(id);
      // Copying a schema nested thousands deep to the worker overflows the stack: refuse it.
      if (error instanceof RangeError && /call stack/i.test(error.message))
        pending.reject(
          new UnsupportedSchemaError({
            keyword: '(nesting)',
            schemaPath: '#',
            detail: 'the schema is nested too deeply to compile',
          }),
        );
      else pending.reject(error);
    }
  }

  /**
   * Waits `abortGraceMs` for the worker to let an aborted request go, then ends the worker, unless it
   * is still busy in native runs (abort-wait.ts): it will see the abort at the end of the run.
   */
  private abandon(id: number): void {
    const started = performance.now();
    let seen = this.supervisor.progress();
    const look = () => {
      const now = this.supervisor.progress();
      const waited = performance.now() - started;
      if (waitLonger(seen, now, waited)) {
        seen = now;
        // At least 10 ms between looks: a grace of 0 would otherwise look again at once, in a loop of timers.
        this.abandoned.set(id, setTimeout(look, Math.max(this.abortGraceMs, 10)));
        return;
      }
      this.abandoned.delete(id);
      this.supervisor.kill(
        `a request was still running ${Math.round(waited)} ms after it was aborted (its deadline or its ` +
          'client), so the worker was ended to free the model',
      );
    };
    this.abandoned.set(id, setTimeout(look, this.abortGraceMs));
  }

  private onMessage(message: FromWorker): void {
    if (message.type === 'delta') {
      const pending = this.pending.get(message.id);
      if (pending) pending.streamed = true;
      pending?.onDelta?.(message.deltas);
      return;
    }
    if (message.type === 'result' || (message.type === 'error' && message.id !== null)) {
      const timer = this.abandoned.get(message.id as number);
      if (timer !== undefined) {
        clearTimeout(timer);
        this.abandoned.delete(message.id as number);
        if (this.pending.size === 0 && this.abandoned.size === 0) this.supervisor.hold(false);
      }
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
    for (const timer of this.abandoned.values()) clearTimeout(timer);
    this.abandoned.clear();
    await Promise.all([this.supervisor.dispose(), this.vetter?.dispose()]);
    this.failAll(new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' }));
  }

  /** Disposes of the backend, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}
