import { createHash } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { BackendError, HaggleAbortError, throwIfAborted } from '../contract/errors.js';
import { SchemaLimitError, UnsupportedSchemaError } from '../decoding/errors.js';
import { BoundedCache } from '../internal/bounded-cache.js';
import { untilAborted } from '../internal/until-aborted.js';
import { rebuildError } from './rebuild-error.js';
import { startWorker } from './start-worker.js';
import type { FromVettingWorker, VetMessage } from './vetting-protocol.js';
import type { WorkerEntry } from './worker-entry.js';
import { type SerializedError, serializeError } from './worker-protocol.js';

/**
 * How long past its own budget a compile may go before its worker is ended. haggle's choice: the
 * compiler reads its clock every 64 steps, so one that has not answered a second after its budget is
 * in a loop without checks, and only ending the thread stops it.
 */
const GRACE_MS = 1_000;
/**
 * Verdicts remembered, by the schema's SHA-256: a schema sent again is answered without compiling,
 * and a refused one cannot cost the budget twice. haggle's choice: 64-character keys, a few hundred KB.
 */
const VERDICTS_KEPT = 4096;

/** `SchemaVetter`'s bounds. */
export interface SchemaVetterOptions {
  /** Milliseconds one compile may take (`OnnxLoadOptions.compileBudgetMs`). */
  budgetMs: number;
  /** Heap limit of the vetting worker in MB (`OnnxLoadOptions.schemaHeapMb`). */
  heapMb: number;
}

/**
 * Compiles each new schema once in a worker of its own, before the model's worker is given it
 * (`OnnxLoadOptions.untrustedSchemas`, on under `haggle serve`). The worker runs under a heap limit and
 * is ended at the compile budget (plus `GRACE_MS`), so a schema that would run away is refused (a
 * `SchemaLimitError`: a 400 at the server) while the model and the caller's thread go on serving; the
 * model's worker only compiles schemas that compiled here within the budget. One compile at a time:
 * a queue of hostile schemas delays other new schemas, never requests whose schema is known.
 */
export class SchemaVetter {
  private worker: Worker | undefined;
  private nextId = 1;
  /** null: compiled; an error: refused. Oldest first (a Map keeps insertion order). */
  private readonly verdicts = new BoundedCache<string, SerializedError | null>(VERDICTS_KEPT);
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  /**
   * For an operator and for tests: schemas `compiled` in the worker, `refused` there, verdicts answered
   * from memory (`remembered`), and workers `ended` (at the budget or the heap limit) and started again.
   */
  readonly stats = { compiled: 0, refused: 0, remembered: 0, ended: 0 };

  constructor(
    private readonly entry: WorkerEntry,
    private readonly options: SchemaVetterOptions,
  ) {}

  /**
   * Resolves when `schema` compiles within the bounds; throws the compiler's refusal otherwise (or
   * `HaggleAbortError` when `signal` fires first: the compile goes on, and its verdict is kept).
   */
  async vet(schema: unknown, signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal);
    const key = schemaKey(schema);
    if (this.settled(key)) return;
    const turn = this.queue.then(() => this.compile(key, schema));
    this.queue = turn.catch(() => {});
    await untilAborted(turn, signal, (reason) => new HaggleAbortError(reason));
  }

  /** Ends the worker; compiles in flight fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** True when `key` compiled before; throws its refusal when it was refused before. */
  private settled(key: string): boolean {
    const verdict = this.verdicts.get(key);
    if (verdict === undefined) return false;
    this.stats.remembered++;
    if (verdict === null) return true;
    throw rebuildError(verdict);
  }

  private remember(key: string, verdict: SerializedError | null): void {
    this.verdicts.set(key, verdict);
  }

  private compile(key: string, schema: unknown): Promise<void> {
    // The same schema may have been queued twice, or settled while this one waited.
    if (this.settled(key)) return Promise.resolve();
    if (this.disposed)
      return Promise.reject(new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' }));
    const worker = this.running();
    const id = this.nextId++;
    const { budgetMs, heapMb } = this.options;
    return new Promise<void>((resolve, reject) => {
      let lastError: Error | undefined;
      const settle = (verdict: SerializedError | null, remember: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
        if (remember) this.remember(key, verdict);
        if (verdict === null) this.stats.compiled++;
        else this.stats.refused++;
        if (verdict === null) resolve();
        else reject(rebuildError(verdict));
      };
      const end = (error: Error) => {
        this.stats.ended++;
        settle(serializeError(error), true);
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
      };
      const onMessage = (reply: FromVettingWorker) => {
        if (reply.id !== id) return;
        settle(reply.type === 'vetted' ? null : reply.error, true);
      };
      const onError = (error: Error) => {
        lastError = error;
      };
      const onExit = () => {
        if (this.worker === worker) this.worker = undefined;
        this.stats.ended++;
        const outOfMemory =
          (lastError as { code?: unknown } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        if (outOfMemory) settle(serializeError(new SchemaLimitError('memory', heapMb, '#')), true);
        else {
          // Not the schema's doing as far as anyone can tell (disposed, or a crash): not remembered.
          const cause = lastError ? `: ${lastError.message}` : '';
          settle(
            serializeError(
              new BackendError({ message: `the schema-vetting worker ended${cause}`, backend: 'onnx' }),
            ),
            false,
          );
        }
      };
      const timer = setTimeout(() => end(new SchemaLimitError('time', budgetMs, '#')), budgetMs + GRACE_MS);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // Held while compiling: a caller awaiting this must not see the process exit under it.
      worker.ref();
      try {
        worker.postMessage({ id, schema, budgetMs } satisfies VetMessage);
      } catch (error) {
        // Copying a schema nested thousands deep overflows the stack: refused as the compiler would.
        const refused =
          error instanceof RangeError && /call stack/i.test(error.message)
            ? new UnsupportedSchemaError('(nesting)', '#', 'the schema is nested too deeply to compile')
            : error;
        settle(serializeError(refused), true);
      }
    });
  }

  private running(): Worker {
    if (!this.worker) {
      this.worker = startWorker(this.entry, this.options.heapMb);
      this.worker.unref();
    }
    return this.worker;
  }
}

/** The schema's identity: SHA-256 of its JSON text (a schema nested too deeply to write is refused). */
function schemaKey(schema: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(schema) ?? 'undefined';
  } catch (error) {
    if (error instanceof RangeError)
      throw new UnsupportedSchemaError('(nesting)', '#', 'the schema is nested too deeply to compile');
    throw error;
  }
  return createHash('sha256').update(text).digest('hex');
}
