/**
 * The sampler's one pass over the vocabulary (the largest allowed logit of every block of 32 ids, and
 * how many ids the mask allows) in WebAssembly SIMD. In JavaScript the pass cost about 0.3 ms over
 * Qwen3's 151,936 logits, more than a whole step of the tiny test model and most of the time spent on
 * a sampled token; four lanes at a time and without a branch per id it is bound by reading memory.
 */
import { BLOCK_MAX_MODULE } from './block-max-module.js';

// The project's TypeScript lib has no WebAssembly declarations: the little used here, typed here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

interface KernelExports {
  scan(logits: number, words: number, mask: number, masked: number, out: number): number;
  memory: WasmMemory;
}

// Module-level on purpose: the kernel's compiled WASM module, a constant built once, the same for every vocabulary.
let compiled: object | null | undefined;

/** A fresh instance (its own memory), or null if this runtime has no WebAssembly SIMD. */
function instantiate(): KernelExports | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return null;
  if (compiled === undefined) {
    try {
      compiled = new wasm.Module(BLOCK_MAX_MODULE);
    } catch {
      compiled = null;
    }
  }
  return compiled ? (new wasm.Instance(compiled).exports as KernelExports) : null;
}

/** Grows `memory` to at least `bytes` (detaching its old buffer). */
function reserve(memory: WasmMemory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (have < bytes) memory.grow(Math.ceil((bytes - have) / 65536));
}

/**
 * The arenas whose memory holds logits in place, by that memory's current buffer. Module-level on
 * purpose: keyed weakly by buffers the arenas own, so an entry goes with its arena; no vocabulary state.
 */
const arenas = new WeakMap<ArrayBuffer, LogitsArena>();

/**
 * Logits in a kernel's own memory, so that a scan reads them where the model wrote them. A copy in
 * first would cost more than the scan: a large copy bypasses the cache on this kind of machine, and
 * the scan then reads the whole vocabulary from memory. The batch decoder hands this view to
 * onnxruntime as the logits output; a view is valid until the next call to `view`.
 */
export class LogitsArena {
  private readonly kernel: KernelExports;
  private capacity = 0;

  private constructor(kernel: KernelExports) {
    this.kernel = kernel;
  }

  /** A new arena, or null where WebAssembly SIMD is missing (logits then live in a plain array). */
  static create(): LogitsArena | null {
    const kernel = instantiate();
    return kernel ? new LogitsArena(kernel) : null;
  }

  /** `length` floats at the start of the arena, with room after them for scanning any run of them. */
  view(length: number): Float32Array {
    if (length > this.capacity) {
      arenas.delete(this.kernel.memory.buffer);
      // Scratch after the logits: one mask word and one block maximum per 32 logits.
      reserve(this.kernel.memory, length * 4 + 2 * Math.ceil(length / 32) * 4);
      this.capacity = length;
    }
    arenas.set(this.kernel.memory.buffer, this);
    return new Float32Array(this.kernel.memory.buffer, 0, length);
  }

  /** Scans logits that lie in this arena, with the scratch after them. */
  scan(logits: Float32Array, mask: Uint32Array | null, words: number, blockTop: Float64Array): number {
    return run(this.kernel, logits.byteOffset, this.capacity * 4, mask, words, blockTop);
  }
}

function run(
  kernel: KernelExports,
  logitsAt: number,
  scratchAt: number,
  mask: Uint32Array | null,
  words: number,
  blockTop: Float64Array,
): number {
  const buffer = kernel.memory.buffer;
  const maskAt = scratchAt;
  const outAt = maskAt + words * 4;
  if (mask) new Uint32Array(buffer, maskAt, words).set(mask.subarray(0, words));
  const allowed = kernel.scan(logitsAt, words, maskAt, mask ? 1 : 0, outAt);
  blockTop.set(new Float32Array(buffer, outAt, words));
  return allowed;
}

// Module-level on purpose: one instance (a scratch memory reused by each call), the same for every vocabulary.
let copying: KernelExports | null | undefined;

/**
 * Writes the largest allowed logit of each of the first `words` blocks of 32 ids into `blockTop`
 * (-Infinity where none is allowed) and returns how many of those ids are allowed, or returns -1
 * where WebAssembly SIMD is missing (the caller scans in JavaScript). `mask` (null: all allowed) must
 * have at least `words` words, `logits` at least `words * 32` values. Logits outside a `LogitsArena`
 * are copied into a kernel first.
 */
export function scanBlocks(
  logits: Float32Array,
  mask: Uint32Array | null,
  words: number,
  blockTop: Float64Array,
): number {
  const arena = arenas.get(logits.buffer as ArrayBuffer);
  if (arena) return arena.scan(logits, mask, words, blockTop);
  if (copying === undefined) copying = instantiate();
  if (!copying) return -1;
  const bytes = words * 128;
  reserve(copying.memory, bytes + 2 * words * 4);
  new Float32Array(copying.memory.buffer, 0, words * 32).set(logits.subarray(0, words * 32));
  return run(copying, 0, bytes, mask, words, blockTop);
}
