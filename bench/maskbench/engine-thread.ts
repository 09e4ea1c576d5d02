import { Worker } from 'node:worker_threads';
import type { EngineName } from './engine.js';
import type { SchemaJob, SchemaResult } from './run-schema.js';

/** Beyond a schema's own budget, how long a silent worker is given before it is terminated. */
const GRACE_MS = 10_000;

// Workers do not inherit tsx's loaders: register both (XGrammar's bundle needs the CommonJS one), then
// load the worker's TypeScript.
const WORKER_URL = new URL('./engine-worker.ts', import.meta.url).href;
const BOOT = `Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')])
  .then(([esm, cjs]) => { esm.register(); cjs.register(); return import(${JSON.stringify(WORKER_URL)}); })`;

type Message =
  | { type: 'ready'; setupMs: number }
  | { type: 'result'; result: SchemaResult; retiring: boolean };

/**
 * One engine in its own worker thread. A schema runs with a hard limit: the worker checks its own
 * budget between masks, and one stuck inside a single compile or mask is terminated and replaced.
 */
export class EngineThread {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private listener: ((message: Message) => void) | null = null;
  private failure: ((error: Error) => void) | null = null;
  /** Time to load the vocabulary and set the engine up, in milliseconds (first start). */
  setupMs: number | null = null;
  restarts = 0;

  constructor(readonly engine: EngineName) {}

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(BOOT, { eval: true, workerData: { engine: this.engine } });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      this.failure = reject;
      this.listener = (message) => {
        if (message.type !== 'ready') return;
        this.setupMs ??= message.setupMs;
        resolve();
      };
    });
    // Only the current worker may answer or fail a run: one that is retiring or terminated is ignored.
    worker.on('message', (message: Message) => {
      if (this.worker === worker) this.listener?.(message);
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.failure?.(error);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.forget();
      this.failure?.(new Error(`the ${this.engine} worker exited (code ${code})`));
    });
    return this.ready;
  }

  private forget(): void {
    this.worker = null;
    this.ready = null;
  }

  /** Runs one schema; a worker that dies or overruns yields a crash or timeout result, never a throw. */
  async run(job: SchemaJob): Promise<SchemaResult> {
    await this.start();
    const worker = this.worker as Worker;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<SchemaResult>((resolve, reject) => {
        this.failure = reject;
        this.listener = (message) => {
          if (message.type !== 'result') return;
          if (message.retiring) {
            // The worker exits after this answer: the next schema must not be posted to it.
            this.restarts++;
            this.forget();
          }
          resolve(message.result);
        };
        timer = setTimeout(() => {
          reject(new HardTimeout());
        }, job.timeoutMs + GRACE_MS);
        worker.postMessage(job);
      });
    } catch (error) {
      this.restarts++;
      this.forget();
      await worker.terminate();
      const timeout = error instanceof HardTimeout;
      return {
        file: job.file,
        verdict: timeout ? 'timeout' : 'crash',
        compileMs: null,
        firstMaskMs: null,
        retainedBytes: null,
        cacheBytes: null,
        maskUs: new Float64Array(0),
        slowest: null,
        failures: [
          {
            test: null,
            kind: timeout ? 'timeout' : 'crash',
            detail: timeout
              ? `no answer within ${job.timeoutMs + GRACE_MS} ms: the worker was terminated`
              : `worker lost: ${(error as Error).message.split('\n')[0]}`,
          },
        ],
      };
    } finally {
      clearTimeout(timer);
      this.listener = null;
      this.failure = null;
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.forget();
    await worker?.terminate();
  }
}

class HardTimeout extends Error {}
