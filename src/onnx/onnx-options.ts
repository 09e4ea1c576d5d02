/** See `OnnxLoadOptions.workerHeapMb`. */
export const DEFAULT_WORKER_HEAP_MB = 4096;
/**
 * See `OnnxLoadOptions.schemaHeapMb`. haggle's choice: the compiler's own bounds (200,000 nodes,
 * sizes of 65,536) keep an accepted schema's compile in tens of MB; four times the headroom of that.
 */
export const DEFAULT_SCHEMA_HEAP_MB = 512;
/** See `OnnxLoadOptions.abortGraceMs`. */
export const DEFAULT_ABORT_GRACE_MS = 5_000;

/** Where the model runs. `cuda` and `webgpu` fall back to `cpu` unless `fallback: false`. */
export type OnnxDevice = 'cpu' | 'cuda' | 'webgpu';

/**
 * Which export in `onnx/` to load: `model.onnx`, `model_fp16.onnx`, `model_q4f16.onnx` or
 * `model_q4.onnx` (4-bit weights, float32 activations and KV cache: the CPU's fastest) or
 * `model_q8.onnx` (the same with 8-bit weights: slower than q4, much closer to fp32).
 */
export type OnnxDtype = 'fp32' | 'fp16' | 'q4f16' | 'q4' | 'q8';

/** Options of `OnnxBackend.load`: device, precision, fallback, batching, prefix cache and threads. */
export interface OnnxLoadOptions {
  /** Default `cpu`. */
  device?: OnnxDevice;
  /**
   * Default: the fastest export the folder has for the device: on cpu `q4`, then `q8`, `fp32`, `q4f16`,
   * then `fp16`; on cuda and webgpu `fp16`, then `fp32`. The backend's `describe().dtype` says which.
   */
  dtype?: OnnxDtype;
  /** Run on the CPU when the device cannot be had, with a warning (default true). */
  fallback?: boolean;
  /** Most sequences decoded together in one `session.run` (default 8); more requests wait their turn. */
  maxBatchSize?: number;
  /**
   * Prompt tokens fed per `session.run`, across the batch (default 256). An Optimum export returns
   * logits for every input position, so prefilling a long prompt at once costs tokens x vocabulary floats.
   */
  prefillTokensPerRun?: number;
  /**
   * Bytes of recent prompts' KV caches kept so that a prompt starting with one of them prefills only
   * the rest (default 256 MiB; 0 turns it off). A negotiation's next turn starts with most of its last
   * prompt. A token costs layers x 2 x KV heads x head size x 2 bytes (fp16) or 4 (fp32): about 144 KiB
   * for Qwen3-4B in fp16, so the default holds about 1,800 tokens.
   */
  prefixCacheBytes?: number;
  /** onnxruntime threads per operator (default: onnxruntime's choice). */
  intraOpNumThreads?: number;
  /** A name for `modelId` (default: the folder's name). */
  modelId?: string;
  /**
   * Heap limit of the worker thread in MB (default 4,096): a request whose masks or compilation
   * exhaust it ends the worker, which is restarted, instead of the process. Model weights and the KV
   * cache live outside this heap. haggle's choice: the decoder's caches stay under a gigabyte on
   * MaskBench's schemas, and a laptop has room for four.
   */
  workerHeapMb?: number;
  /**
   * Milliseconds an aborted request may keep the worker busy in JavaScript before the worker is ended
   * and restarted (default 5,000): decoding stops between steps, a compile between its checks, so only
   * a runaway outlasts this. A worker inside native runs, or that finished one within the last grace,
   * is waited for longer (up to 120 s in all): it sees the abort at the end of the run, and a prefill
   * chunk of a real-size model on a small CPU can take longer than 5 s. haggle's choice.
   */
  abortGraceMs?: number;
  /** Milliseconds one response schema may take to compile (default 10,000); beyond: `SchemaLimitError`. */
  compileBudgetMs?: number;
  /**
   * Schemas come from callers you do not trust (default false; `haggle serve` sets it): each new schema
   * is compiled first in a worker of its own, under a heap limit of `schemaHeapMb` and ended at
   * `compileBudgetMs` (plus a second), and reaches the model's worker only if it compiled there. A
   * schema that would run away is refused with `SchemaLimitError` (`time` or `memory`) while the model
   * goes on serving. Costs one extra compile per new schema (verdicts are remembered by the schema's hash).
   */
  untrustedSchemas?: boolean;
  /**
   * Heap limit in MB of each worker that compiles untrusted schemas (default 512; two such workers,
   * fair between clients: see schema-vetter.ts).
   */
  schemaHeapMb?: number;
  /**
   * Print where each decoder's CPU goes (prefill runs, decoding steps, padding positions, cache copies)
   * to stderr, one JSON line whenever it goes idle (default false). haggle's choice: a profiling aid
   * for benches (`bench/onnx.ts --profile`), not for production.
   */
  profile?: boolean;
  /** Told when the worker ends unexpectedly and when its replacement has loaded the model (for a log). */
  onWorkerEvent?: (event: OnnxWorkerEvent) => void;
}

/** What the supervisor tells its owner (and, through `OnnxLoadOptions.onWorkerEvent`, an operator). */
export type OnnxWorkerEvent =
  /** The worker thread ended unexpectedly; `cause` says why (heap limit, a crash, a stuck request). */
  | { type: 'worker-exit'; cause: string; restarts: number }
  /** A new worker has loaded the model after an exit, after `ms` milliseconds. */
  | { type: 'worker-ready'; restarts: number; ms: number }
  /** Loading the model into the new worker failed; it is tried again after `retryInMs`. */
  | { type: 'worker-restart-failed'; cause: string; retryInMs: number };

/** What a loaded model folder declares, read from `config.json`. */
export interface OnnxModelShape {
  modelType: string;
  layers: number;
  kvHeads: number;
  headDim: number;
  vocabSize: number;
  maxPositions: number | undefined;
  /** Element type of the KV cache inputs. */
  kvDtype: 'float32' | 'float16';
}
