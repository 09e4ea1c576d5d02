// The machine's memory bandwidth, as the ceiling for a decode step that reads every weight once.
import { Worker } from 'node:worker_threads';

/**
 * One reader: `Buffer.compare` of two equal buffers far larger than any cache, which is libc's
 * `memcmp` over both (native, vectorised), so the number is the memory's and not a JavaScript loop's.
 * Waits on `gate` so that every reader starts together; posts each round's start and end
 * (performance.timeOrigin-based milliseconds, comparable across threads).
 */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, rounds, gate } = workerData;
const a = Buffer.alloc(bytes, 7);
const b = Buffer.alloc(bytes, 7);
Buffer.compare(a, b); // touch every page once before timing
const flag = new Int32Array(gate);
Atomics.add(flag, 1, 1);
Atomics.wait(flag, 0, 0);
const times = [];
for (let round = 0; round < rounds; round++) {
  const start = performance.timeOrigin + performance.now();
  if (Buffer.compare(a, b) !== 0) throw new Error('equal buffers compared unequal');
  times.push([start, performance.timeOrigin + performance.now()]);
}
parentPort.postMessage(times);
`;

/**
 * GB/s of `readers` threads streaming at once (each over 2 x `bytes`), best of `rounds`: a round's
 * bandwidth is every reader's bytes over the span from the first start to the last end. With one
 * reader this is what issue 44 measured with numpy's sum over 1 GiB (15.9 GB/s there); with the
 * engines' thread count it is what their threads could read together.
 */
export async function measureBandwidthGBs(readers = 1, rounds = 3, bytes = 256 * 2 ** 20): Promise<number> {
  const gate = new SharedArrayBuffer(8);
  const flag = new Int32Array(gate);
  const workers = Array.from(
    { length: readers },
    () => new Worker(READER, { eval: true, workerData: { bytes, rounds, gate } }),
  );
  const results = workers.map(
    (worker) =>
      new Promise<[number, number][]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
  );
  while (Atomics.load(flag, 1) < readers) await new Promise((r) => setTimeout(r, 10));
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  const times = await Promise.all(results);
  await Promise.all(workers.map((worker) => worker.terminate()));
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const start = Math.min(...times.map((t) => (t[round] as [number, number])[0]));
    const end = Math.max(...times.map((t) => (t[round] as [number, number])[1]));
    best = Math.max(best, (readers * 2 * bytes) / ((end - start) / 1000) / 1e9);
  }
  return best;
}
