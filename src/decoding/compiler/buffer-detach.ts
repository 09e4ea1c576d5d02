/**
 * V8 compiles typed-array code on the assumption that no ArrayBuffer in the process has ever been
 * detached (its `ArrayBufferDetaching` protector). The first detach anywhere in the process (a
 * WebAssembly memory that grows, a buffer transferred to a worker, a single `fetch()` in Node 20, whose
 * body stream transfers its buffers) drops that assumption and deoptimizes every function compiled on
 * it, all at once. Loaded beside XGrammar-wasm, whose memory grows while it sets up, that was every
 * hot function of the mask walk and the precompute: the next compiles and masks ran unoptimized until
 * V8 optimized them again (issue 45: bench/decoder.ts's turn row had label masks of 1-7 ms that take
 * under 60 µs optimized, and offer compiles 2-4 times their hot time).
 *
 * haggle's choice: give the assumption up once, before a compiler warms its code, by detaching a
 * buffer of its own, so that the code the warm-up optimizes already checks for detached buffers and a
 * neighbour's detach later costs it nothing (bench/decoder-detach.ts). The checks are what a process
 * that has made one fetch() runs anyway; where nothing else detaches, they cost MaskBench's p99 a few
 * per cent (docs/benchmarks.md).
 */
let givenUp = false;

/** Detaches a zero-length buffer of haggle's own, once per process (see above). */
export function giveUpNoDetachAssumption(): void {
  if (givenUp) return;
  givenUp = true;
  const buffer = new ArrayBuffer(0);
  structuredClone(buffer, { transfer: [buffer] });
}
