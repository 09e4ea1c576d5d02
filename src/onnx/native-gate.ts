/**
 * Keeps a worker from being ended while onnxruntime runs natively for it. `worker.terminate()` during
 * an in-flight `session.run` ends the whole process (`terminate called after throwing an instance of
 * 'Napi::Error'`: the run's completion calls into a torn-down environment), so the supervisor asks
 * first and ends the worker only between runs; a worker stuck in JavaScript (a runaway mask) is
 * between runs, and is ended at once.
 *
 * Shared memory, three cells: [0] the worker is inside a run, [1] an end was asked for, [2] runs
 * finished so far. The worker raises [0] before it reads [1], and the supervisor raises [1] before it
 * reads [0] (Atomics are sequentially consistent), so no run can start after the supervisor has seen
 * the worker outside one. [2] tells a worker busy in native runs from one stuck in JavaScript.
 */
const INSIDE = 0;
const STOP = 1;
const RUNS = 2;

/** The cells, made by the supervisor for each worker it starts. */
export function newNativeGate(): SharedArrayBuffer {
  return new SharedArrayBuffer(12);
}

/** Where the worker is, as its gate says: inside a native run now, and how many it has finished. */
export interface NativeProgress {
  inside: boolean;
  runs: number;
}

/** In the supervisor: the worker's progress, read without disturbing it. */
export function nativeProgress(buffer: SharedArrayBuffer): NativeProgress {
  const cells = new Int32Array(buffer);
  return { inside: Atomics.load(cells, INSIDE) !== 0, runs: Atomics.load(cells, RUNS) };
}

let gate: Int32Array | undefined;

/** In the worker: the gate its supervisor made (from the load message). */
export function useNativeGate(buffer: SharedArrayBuffer): void {
  gate = new Int32Array(buffer);
}

/** In the worker: runs `run` (a `session.run`) inside the gate; once an end is asked for, never. */
export async function throughGate<T>(run: () => Promise<T>): Promise<T> {
  if (!gate) return run();
  Atomics.store(gate, INSIDE, 1);
  if (Atomics.load(gate, STOP) !== 0) {
    Atomics.store(gate, INSIDE, 0);
    // The worker is about to be ended: nothing more may run natively.
    return new Promise<T>(() => {});
  }
  try {
    return await run();
  } finally {
    Atomics.add(gate, RUNS, 1);
    Atomics.store(gate, INSIDE, 0);
  }
}

/** In the supervisor: asks for the end, then resolves once the worker is outside any run. */
export async function closeGate(buffer: SharedArrayBuffer): Promise<void> {
  const cells = new Int32Array(buffer);
  Atomics.store(cells, STOP, 1);
  while (Atomics.load(cells, INSIDE) !== 0) await new Promise((resolve) => setTimeout(resolve, 5));
}
