// The thread an engine runs in, so that a compile or a mask that never returns can be cut off: the
// main thread terminates the worker past a hard limit and starts a fresh one.
import { parentPort, workerData } from 'node:worker_threads';
import type { EngineName } from './engine.js';
import { createEngine, loadEngineSetup } from './engine-setup.js';
import { runSchema, type SchemaJob } from './run-schema.js';
import { WASM_TRAP } from './xgrammar-engine.js';

const port = parentPort;
if (!port) throw new Error('engine-worker.ts runs as a worker thread (see engine-thread.ts)');
const started = performance.now();
const setup = await loadEngineSetup();
const engine = await createEngine(workerData.engine as EngineName, setup);
port.postMessage({ type: 'ready', setupMs: performance.now() - started });

port.on('message', async (job: SchemaJob) => {
  const result = await runSchema(engine, job, setup.vocabulary.tokens);
  // After a WebAssembly trap the module's memory cannot be trusted: this worker ends, a fresh one follows.
  const retiring = result.failures.some(
    (f) => f.detail.startsWith('RuntimeError') || f.detail.includes(WASM_TRAP),
  );
  port.postMessage({ type: 'result', result, retiring }, [result.maskUs.buffer as ArrayBuffer]);
  if (retiring) process.exit(1);
});
