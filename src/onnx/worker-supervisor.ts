import type { Worker } from 'node:worker_threads';
import { BackendError } from '../contract/errors.js';
import { closeGate, type NativeProgress, nativeProgress, newNativeGate } from './native-gate.js';
import type { OnnxWorkerEvent } from './onnx-options.js';
import { rebuildError } from './rebuild-error.js';
import { startWorker } from './start-worker.js';
import type { WorkerEntry } from './worker-entry.js';
import type { FromWorker, LoadedMessage, LoadMessage, ToWorker } from './worker-protocol.js';

export type { OnnxWorkerEvent } from './onnx-options.js';

/** Whether the model can take requests now: `restarting` while a new worker loads it. */
export interface OnnxWorkerHealth {
  state: 'ready' | 'restarting' | 'disposed';
  /** Workers started after the first one. */
  restarts: number;
  /** Why the last worker ended, when one did. */
  lastExit: string | undefined;
}

/** Longest wait between two failed restarts (haggle's choice: an operator sees it in the log). */
const MAX_RETRY_MS = 30_000;

/**
 * The one place an ONNX worker thread is started, loaded, watched and ended. A worker runs under a
 * heap limit (`resourceLimits`), so a request that exhausts memory ends the worker, not the process;
 * a worker that ends unexpectedly (that limit, a crash, `terminate` of a stuck one) is replaced by a
 * new one that loads the same model, and `health()` says `restarting` until it has.
 */
export class WorkerSupervisor {
  private worker: Worker;
  /** The current worker's native gate (native-gate.ts). */
  private gate: SharedArrayBuffer;
  private state: OnnxWorkerHealth['state'] = 'ready';
  private restarts = 0;
  private lastExit: string | undefined;
  /** Why the current worker is being ended, when this side ended it (said instead of "exited"). */
  private endedBecause: string | undefined;
  /** The worker's own error before its exit (e.g. ERR_WORKER_OUT_OF_MEMORY). */
  private lastError: Error | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private referenced = false;

  private constructor(
    worker: Worker,
    gate: SharedArrayBuffer,
    private readonly entry: WorkerEntry,
    private readonly load: LoadMessage,
    private readonly heapMb: number,
    private readonly onMessage: (message: FromWorker) => void,
    private readonly onEvent: (event: OnnxWorkerEvent) => void,
  ) {
    this.worker = worker;
    this.gate = gate;
    this.watch(worker);
  }

  /** Starts a worker, loads the model in it and supervises it from then on. */
  static async start(
    entry: WorkerEntry,
    load: LoadMessage,
    heapMb: number,
    onMessage: (message: FromWorker) => void,
    onEvent: (event: OnnxWorkerEvent) => void,
  ): Promise<{ supervisor: WorkerSupervisor; loaded: LoadedMessage }> {
    const { worker, loaded, gate } = await loadWorker(entry, load, heapMb);
    return {
      supervisor: new WorkerSupervisor(worker, gate, entry, load, heapMb, onMessage, onEvent),
      loaded,
    };
  }

  health(): OnnxWorkerHealth {
    return { state: this.state, restarts: this.restarts, lastExit: this.lastExit };
  }

  /** Sends to the worker; throws a 503-shaped `BackendError` while none is ready. */
  post(message: ToWorker): void {
    if (this.state !== 'ready') throw notReady(this.state, this.lastExit);
    this.worker.postMessage(message);
  }

  /** Keeps the process alive while requests are in flight (`true`), not while idle (`false`). */
  hold(held: boolean): void {
    this.referenced = held;
    if (held) this.worker.ref();
    else this.worker.unref();
  }

  /** The current worker's native runs (native-gate.ts): a stuck worker makes none. */
  progress(): NativeProgress {
    return nativeProgress(this.gate);
  }

  /** Ends the current worker because of `cause` (a stuck request): it is replaced as after a crash. */
  kill(cause: string): void {
    if (this.state !== 'ready' || this.endedBecause !== undefined) return;
    this.endedBecause = cause;
    const worker = this.worker;
    // Between two native runs only: ending it inside one would end the process (native-gate.ts).
    void closeGate(this.gate).then(() => worker.terminate());
  }

  /** Lets the worker release the session, then ends it; no restart follows. */
  async dispose(): Promise<void> {
    if (this.state === 'disposed') return;
    const wasReady = this.state === 'ready';
    this.state = 'disposed';
    clearTimeout(this.retryTimer);
    const worker = this.worker;
    worker.ref();
    if (wasReady) {
      // Release first (a loader kept alive by the sources setting would otherwise keep it running);
      // give up waiting after a few seconds.
      await new Promise<void>((done) => {
        const timeout = setTimeout(done, 5_000);
        const finish = () => {
          clearTimeout(timeout);
          worker.off('message', onMessage);
          done();
        };
        const onMessage = (message: FromWorker) => {
          if (message.type === 'disposed') finish();
        };
        worker.on('message', onMessage);
        worker.once('exit', finish);
        worker.postMessage({ type: 'dispose' } satisfies ToWorker);
      });
    }
    await worker.terminate();
  }

  private watch(worker: Worker): void {
    worker.on('message', (message: FromWorker) => {
      if (worker === this.worker) this.onMessage(message);
    });
    worker.on('error', (error) => {
      if (worker === this.worker) this.lastError = error;
    });
    worker.once('exit', (code) => {
      if (worker !== this.worker || this.state === 'disposed') return;
      const cause =
        this.endedBecause ??
        (this.lastError
          ? `${this.lastError.name}: ${this.lastError.message}`
          : `the worker thread exited with code ${code}`);
      this.endedBecause = undefined;
      this.lastError = undefined;
      this.lastExit = cause;
      this.state = 'restarting';
      this.onEvent({ type: 'worker-exit', cause, restarts: this.restarts });
      this.restart(Date.now(), 1_000);
    });
    if (!this.referenced) worker.unref();
  }

  private restart(since: number, retryMs: number): void {
    this.restarts++;
    loadWorker(this.entry, this.load, this.heapMb).then(
      ({ worker, gate }) => {
        if (this.state === 'disposed') {
          void worker.terminate();
          return;
        }
        this.worker = worker;
        this.gate = gate;
        this.watch(worker);
        this.state = 'ready';
        this.onEvent({ type: 'worker-ready', restarts: this.restarts, ms: Date.now() - since });
      },
      (error: unknown) => {
        if (this.state === 'disposed') return;
        const cause = error instanceof Error ? error.message : String(error);
        this.onEvent({ type: 'worker-restart-failed', cause, retryInMs: retryMs });
        this.retryTimer = setTimeout(() => this.restart(since, Math.min(retryMs * 2, MAX_RETRY_MS)), retryMs);
        this.retryTimer.unref?.();
      },
    );
  }
}

/** The 503 a request gets while no worker is ready: retryable, and says why. */
export function notReady(state: OnnxWorkerHealth['state'], lastExit: string | undefined): BackendError {
  if (state === 'disposed')
    return new BackendError({ message: 'this OnnxBackend was disposed', backend: 'onnx' });
  return new BackendError({
    message: `the ONNX worker is reloading the model after it ended (${lastExit ?? 'unknown cause'}); retry shortly`,
    backend: 'onnx',
    status: 503,
    retryable: true,
  });
}

/** Starts a worker under a heap limit of `heapMb` and loads the model in it; ends it if loading fails. */
async function loadWorker(
  entry: WorkerEntry,
  message: LoadMessage,
  heapMb: number,
): Promise<{ worker: Worker; loaded: LoadedMessage; gate: SharedArrayBuffer }> {
  const worker = startWorker(entry, heapMb);
  const gate = newNativeGate();
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
        new BackendError({ message: `the ONNX worker exited (code ${code}) while loading`, backend: 'onnx' }),
      );
    worker.on('message', listeners.message);
    worker.on('error', listeners.error);
    worker.on('exit', listeners.exit);
    worker.postMessage({ ...message, nativeGate: gate } satisfies LoadMessage);
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
  return { worker, loaded, gate };
}
