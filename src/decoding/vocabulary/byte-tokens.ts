import type { TokenTrie } from './token-trie.js';

/**
 * A vocabulary's tokens of one byte each, and which of them a mask allows: read from the words of the
 * mask that hold them when those are few (Qwen3's are ids 0-255, eight words), so that a position's
 * successors cost a scan of those words, not a test of all 256 tokens (a tenth of an offer schema's
 * compile, issue 45); else token by token.
 */
export class ByteTokens {
  /** The one-byte tokens' ids, ascending, and their bytes. */
  private readonly ids: number[] = [];
  private readonly bytes: number[] = [];
  private readonly byteOf = new Map<number, number>();
  private readonly firstWord: number;
  private readonly lastWord: number;
  private readonly out: number[] = [];

  constructor(trie: TokenTrie) {
    const pairs: Array<[number, number]> = [];
    for (let b = 0; b < 256; b++) {
      const node = trie.child(0, b);
      const id = node < 0 ? -1 : (trie.token[node] as number);
      if (id >= 0) pairs.push([id, b]);
    }
    pairs.sort((x, y) => x[0] - y[0]);
    for (const [id, b] of pairs) {
      this.ids.push(id);
      this.bytes.push(b);
      this.byteOf.set(id, b);
    }
    this.firstWord = pairs.length === 0 ? 0 : (pairs[0] as [number, number])[0] >>> 5;
    this.lastWord = pairs.length === 0 ? -1 : (pairs[pairs.length - 1] as [number, number])[0] >>> 5;
  }

  /** The bytes whose token `mask` allows, in token id order (the list is reused: read it at once). */
  allowed(mask: Uint32Array): readonly number[] {
    const out = this.out;
    out.length = 0;
    if (this.lastWord - this.firstWord <= DENSE_WORDS) {
      for (let w = this.firstWord; w <= this.lastWord; w++) {
        let bits = mask[w] as number;
        while (bits !== 0) {
          const b = this.byteOf.get(w * 32 + (31 - Math.clz32(bits & -bits)));
          bits &= bits - 1;
          if (b !== undefined) out.push(b);
        }
      }
      return out;
    }
    for (let k = 0; k < this.ids.length; k++) {
      const id = this.ids[k] as number;
      if ((((mask[id >>> 5] as number) >>> (id & 31)) & 1) === 1) out.push(this.bytes[k] as number);
    }
    return out;
  }
}

/** Most mask words `ByteTokens` scans for the one-byte tokens before it tests them one by one. */
const DENSE_WORDS = 64;
