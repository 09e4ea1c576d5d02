import type { SchemaCompileOptions } from './schema-compiler.js';

/** Options of `compileSchema`: the schema compiler's and how much to precompute. */
export interface CompileOptions extends SchemaCompileOptions {
  /**
   * Compute at compile time the masks the first sequences would otherwise pay for (default true): the
   * start of the document and the inside of the strings (for patterns, a few of their states), at most
   * `WARM_LIMIT` of the latter, starting walks for at most 30 ms after the first mask (each may finish
   * within 25 ms), so a schema with hundreds of patterns, or a few slow ones, does not pay for all of them.
   * These milliseconds, and `precompute.timeMs`, are of the work clock (grammar/work-clock.ts): the lesser of
   * wall and process CPU time, so a busy machine does not cut the same schema's warming shorter.
   */
  warm?: boolean;
  /**
   * How far warming goes beyond the start and the strings (default `{ positions: 1024, timeMs: 50 }`):
   * the masks of the positions reachable outside strings (keys, punctuation, enum values, numbers,
   * booleans), explored breadth first from the start until either limit, stored compactly (a list of
   * token ids where that is smaller than a bitset). A sequence that stays within them never walks the
   * token trie; one that leaves them walks it as before. `{ positions: 0 }` keeps only the warm-up above.
   */
  precompute?: { positions?: number; timeMs?: number };
  /** Most masks kept per grammar (default 1024, about 19 MB for Qwen3); the oldest go first. */
  maskCacheSize?: number;
}
