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

/**
 * Compiles in flight at once, each in a worker of its own. haggle's choice: two, so one client's queue
 * of slow schemas (each may take the whole compile budget) holds at most one of them (see
 * `SHARE_PER_CLIENT`), and another client's new schema finds the other free; more would take more of a
 * small machine's cores from the model for schemas that are mostly refused.
 */
export const DEFAULT_VETTING_CONCURRENCY = 2;

/** `SchemaVetter`'s bounds. */
export interface SchemaVetterOptions {
  /** Milliseconds one compile may take (`OnnxLoadOptions.compileBudgetMs`). */
  budgetMs: number;
  /** Heap limit of each vetting worker in MB (`OnnxLoadOptions.schemaHeapMb`). */
  heapMb: number;
  /** Compiles at once (default `DEFAULT_VETTING_CONCURRENCY`). */
  concurrency?: number;
}

/** One schema waiting for a worker. */
interface Waiting {
  key: string;
  schema: unknown;
  client: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A worker of the pool and whether it is compiling. */
interface Slot {
  worker: Worker | undefined;
  client: string | undefined;
}

/**
 * Compiles each new schema once in a worker of its own, before the model's worker is given it
 * (`OnnxLoadOptions.untrustedSchemas`, on under `haggle serve`). A worker runs under a heap limit and
 * is ended at the compile budget (plus `GRACE_MS`), so a schema that would run away is refused (a
 * `SchemaLimitError`: a 400 at the server) while the model and the caller's thread go on serving; the
 * model's worker only compiles schemas that compiled here within the budget.
 *
 * Fair between clients (issue 40): `concurrency` compiles at once, each client (`vet`'s `client`:
 * `haggle serve` passes the remote address) holding at most `concurrency - 1` of them (one worker is
 * always left for the others), and the waiting clients served in turn, one schema each. So one client's queue of slow
 * schemas delays its own new schemas, not another's. Every verdict is remembered by the schema's hash:
 * a refused schema sent again is refused at once, and one waited on by two requests compiles once.
 */
export class SchemaVetter {
  private nextId = 1;
  /** null: compiled; an error: refused. Oldest first (a Map keeps insertion order). */
  private readonly verdicts = new BoundedCache<string, SerializedError | null>(VERDICTS_KEPT);
  /** Compiles in flight or waiting, by schema key: a second request for the same schema joins the first. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Waiting schemas per client, and the clients in the order they are served (round-robin). */
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly slots: Slot[];
  private disposed = false;
  /**
   * For an operator and for tests: schemas `compiled` in the worker, `refused` there, verdicts answered
   * from memory (`remembered`), and workers `ended` (at the budget or the heap limit) and started again.
   */
  readonly stats = { compiled: 0, refused: 0, remembered: 0, ended: 0 };

  constructor(
    private readonly entry: WorkerEntry,
    private readonly options: SchemaVetterOptions,
  ) {
    const concurrency = options.concurrency ?? DEFAULT_VETTING_CONCURRENCY;
    this.slots = Array.from({ length: Math.max(1, concurrency) }, () => ({
      worker: undefined,
      client: undefined,
    }));
  }

  /**
   * Resolves when `schema` compiles within the bounds; throws the compiler's refusal otherwise (or
   * `HaggleAbortError` when `signal` fires first: the compile goes on, and its verdict is kept).
   * `client` names who asked, for the fair share (any string; one client when left out).
   */
  async vet(schema: unknown, signal?: AbortSignal, client = ''): Promise<void> {
    throwIfAborted(signal);
    const key = schemaKey(schema);
    if (this.settled(key)) return;
    let turn = this.inFlight.get(key);
    if (turn === undefined) {
      turn = new Promise<void>((resolve, reject) => {
        const queue = this.waiting.get(client) ?? [];
        // Re-inserted: a client that had nothing waiting goes to the back of the round.
        this.waiting.delete(client);
        this.waiting.set(client, [...queue, { key, schema, client, resolve, reject }]);
      });
      const tracked = turn.finally(() => this.inFlight.delete(key));
      tracked.catch(() => {});
      this.inFlight.set(key, turn);
      this.pump();
    }
    await untilAborted(turn, signal, (reason) => new HaggleAbortError(reason));
  }

  /** Ends the workers; compiles in flight and waiting fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const gone = new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' });
    for (const queue of this.waiting.values()) for (const job of queue) job.reject(gone);
    this.waiting.clear();
    await Promise.all(
      this.slots.map((slot) => {
        const worker = slot.worker;
        slot.worker = undefined;
        return worker?.terminate();
      }),
    );
  }

  /** Starts waiting schemas on free workers: clients in turn, none past its share while others wait. */
  private pump(): void {
    // Every worker of the pool is started with the first schema: a worker's start (its thread, the
    // compiler's modules) takes a second or more on a loaded machine, and the worker left for other
    // clients must not pay it when one client keeps the other busy.
    if (!this.disposed) for (const slot of this.slots) this.running(slot);
    for (;;) {
      const free = this.slots.find((slot) => slot.client === undefined);
      if (free === undefined) return;
      const job = this.nextJob();
      if (job === undefined) return;
      free.client = job.client;
      this.compile(free, job.key, job.schema)
        .then(job.resolve, job.reject)
        .finally(() => {
          free.client = undefined;
          this.pump();
        });
    }
  }

  /**
   * The next schema to compile: the first client in turn that holds fewer than its share of the
   * workers (`concurrency - 1`, at least 1).
   */
  private nextJob(): Waiting | undefined {
    const share = Math.max(1, this.slots.length - 1);
    const held = (client: string) => this.slots.filter((slot) => slot.client === client).length;
    // A client alone may not take the last free worker either: the next client's schema may come now.
    const client = [...this.waiting.keys()].find((c) => held(c) < share);
    if (client === undefined) return undefined;
    const queue = this.waiting.get(client) as Waiting[];
    const job = queue.shift() as Waiting;
    // To the back of the round (or out of it, with nothing left).
    this.waiting.delete(client);
    if (queue.length > 0) this.waiting.set(client, queue);
    return job;
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

  private compile(slot: Slot, key: string, schema: unknown): Promise<void> {
    // Settled while this one waited (the same schema from a request that joined late).
    try {
      if (this.settled(key)) return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.disposed)
      return Promise.reject(new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' }));
    const worker = this.running(slot);
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
        if (slot.worker === worker) slot.worker = undefined;
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
        if (slot.worker === worker) slot.worker = undefined;
        this.stats.ended++;
        const outOfMemory =
          (lastError as { code?: unknown } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        if (outOfMemory)
          settle(
            serializeError(new SchemaLimitError({ limit: 'memory', value: heapMb, schemaPath: '#' })),
            true,
          );
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
      const timer = setTimeout(
        () => end(new SchemaLimitError({ limit: 'time', value: budgetMs, schemaPath: '#' })),
        budgetMs + GRACE_MS,
      );
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
            ? new UnsupportedSchemaError({
                keyword: '(nesting)',
                schemaPath: '#',
                detail: 'the schema is nested too deeply to compile',
              })
            : error;
        settle(serializeError(refused), true);
      }
    });
  }

  private running(slot: Slot): Worker {
    if (!slot.worker) {
      slot.worker = startWorker(this.entry, this.options.heapMb);
      slot.worker.unref();
    }
    return slot.worker;
  }
}

/** The schema's identity: SHA-256 of its JSON text (a schema nested too deeply to write is refused). */
function schemaKey(schema: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(schema) ?? 'undefined';
  } catch (error) {
    if (error instanceof RangeError)
      throw new UnsupportedSchemaError({
        keyword: '(nesting)',
        schemaPath: '#',
        detail: 'the schema is nested too deeply to compile',
      });
    throw error;
  }
  return createHash('sha256').update(text).digest('hex');
}
