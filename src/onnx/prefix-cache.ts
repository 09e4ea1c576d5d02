import type { KvArray } from './kv-cache.js';

/** A prefilled prompt's cache: one row, `tokens.length` columns per array, [kvHeads, length, headDim]. */
export interface CachedPrefix {
  tokens: readonly number[];
  arrays: readonly KvArray[];
}

/**
 * The KV caches of recent prompts, so that a prompt starting with one of them prefills only what
 * follows. A negotiation sends its whole conversation again every turn, and a simulation sends one
 * system prompt and listing with every turn of a session: the next turn's prompt starts with most of
 * the last one. Bounded by bytes; the least recently used prompt goes first.
 *
 * A cached column equals a recomputed one: the key and value of a position depend only on the tokens
 * up to it, and a prefill computes them the same way whichever run they were first computed in.
 */
export class PrefixCache {
  /** Most recently used last. */
  private readonly entries: CachedPrefix[] = [];
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The cached prompt sharing the longest prefix with `tokens` (at least `minimum` tokens), and that length. */
  lookup(tokens: readonly number[], minimum = 1): { entry: CachedPrefix; length: number } | null {
    let best: { entry: CachedPrefix; length: number } | null = null;
    for (const entry of this.entries) {
      const limit = Math.min(entry.tokens.length, tokens.length);
      let n = 0;
      while (n < limit && entry.tokens[n] === tokens[n]) n++;
      if (n >= minimum && n > (best?.length ?? 0)) best = { entry, length: n };
    }
    if (best) {
      this.entries.splice(this.entries.indexOf(best.entry), 1);
      this.entries.push(best.entry);
    }
    return best;
  }

  /** Keeps a copy of a prefilled prompt's cache (exactly `tokens.length` columns). */
  store(tokens: readonly number[], arrays: readonly KvArray[]): void {
    const size = arrays.reduce((sum, array) => sum + array.byteLength, 0);
    if (size > this.budgetBytes || tokens.length === 0) return;
    // A prompt already held, or one a held prompt starts with, adds nothing.
    if (this.entries.some((entry) => startsWith(entry.tokens, tokens))) return;
    // Prompts this one extends are superseded by it.
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i] as CachedPrefix;
      if (startsWith(tokens, entry.tokens)) this.remove(i);
    }
    while (this.bytes + size > this.budgetBytes && this.entries.length > 0) this.remove(0);
    this.entries.push({ tokens: [...tokens], arrays: arrays.map((array) => array.slice()) });
    this.bytes += size;
  }

  get size(): number {
    return this.entries.length;
  }

  private remove(index: number): void {
    const [entry] = this.entries.splice(index, 1);
    if (entry) this.bytes -= entry.arrays.reduce((sum, array) => sum + array.byteLength, 0);
  }
}

function startsWith(tokens: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > tokens.length) return false;
  for (let i = 0; i < prefix.length; i++) if (tokens[i] !== prefix[i]) return false;
  return true;
}
