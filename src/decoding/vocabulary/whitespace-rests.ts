import { TokenTrie } from './token-trie.js';
import type { DecoderVocabulary } from './vocabulary.js';

/** JSON's four whitespace bytes: tab, line feed, carriage return, space. */
export const isJsonWhitespace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * The tokens that start with JSON whitespace, by what follows their leading whitespace (their rest),
 * built once per vocabulary. Free whitespace before a value (`": "` in flexible mode) reads any run of
 * whitespace and then the value, so such a token is allowed there exactly when its rest is allowed at the
 * value: where the rest is itself a token, its bit in the value's mask says so, and only the rest that
 * are no token (`" \"$"` → `"$`) need a walk, of their own small trie. About 54,000 of Qwen3's tokens
 * start with whitespace; without this table, a mask before a value stepped the parser down every
 * whitespace run of the token trie (issue 45: the commonest kind of mask in MaskBench's p90 band).
 */
export class WhitespaceRests {
  /** Tokens made of whitespace alone (allowed wherever free whitespace is). */
  readonly whitespaceOnly: Int32Array;
  /**
   * For a token id `r`, the ids `variants[offsets[r]..offsets[r+1])` of the tokens that are whitespace
   * followed by exactly `r`'s bytes (CSR layout over the whole vocabulary).
   */
  readonly offsets: Int32Array;
  readonly variants: Int32Array;
  /** The whitespace-led tokens whose rest is no token, as a trie of their rests (their own ids). */
  readonly orphans: TokenTrie;
  /**
   * The children of the orphans' root (their rests' first bytes, about 100 for Qwen3), each with the
   * vocabulary's one-byte token of that byte: a rest can only be allowed where its first byte, as a
   * token, is, so a mask walks just the subtrees whose byte the mask of what follows allows.
   */
  readonly orphanHeads: ReadonlyArray<{ byte: number; node: number; byteToken: number }>;

  constructor(vocabulary: DecoderVocabulary, trie: TokenTrie) {
    const size = vocabulary.tokens.length;
    const whitespaceOnly: number[] = [];
    const pairs: Array<[number, number]> = [];
    const orphanRests: Uint8Array[] = new Array(size).fill(EMPTY);
    // Only the trie's tokens: special and end-of-sequence tokens are never in it.
    for (let node = 1; node < trie.nodeCount; node++) {
      const first = trie.token[node] as number;
      if (first < 0) continue;
      for (const id of [first, ...(trie.duplicates.get(node) ?? [])]) {
        const bytes = vocabulary.tokens[id] as Uint8Array;
        let k = 0;
        while (k < bytes.length && isJsonWhitespace(bytes[k] as number)) k++;
        if (k === 0) continue;
        if (k === bytes.length) {
          whitespaceOnly.push(id);
          continue;
        }
        const rest = bytes.subarray(k);
        const at = trie.find(rest);
        const restId = at < 0 ? -1 : (trie.token[at] as number);
        if (restId >= 0) pairs.push([restId, id]);
        else orphanRests[id] = rest;
      }
    }
    this.whitespaceOnly = Int32Array.from(whitespaceOnly);
    const offsets = new Int32Array(size + 1);
    for (const [restId] of pairs) offsets[restId + 1] = (offsets[restId + 1] as number) + 1;
    for (let r = 0; r < size; r++) offsets[r + 1] = (offsets[r + 1] as number) + (offsets[r] as number);
    const variants = new Int32Array(pairs.length);
    const fill = offsets.slice(0, size);
    for (const [restId, id] of pairs) {
      variants[fill[restId] as number] = id;
      fill[restId] = (fill[restId] as number) + 1;
    }
    this.offsets = offsets;
    this.variants = variants;
    const orphans = new TokenTrie({ tokens: orphanRests, eosTokenIds: [], specialTokenIds: [] });
    this.orphans = orphans;
    const heads: Array<{ byte: number; node: number; byteToken: number }> = [];
    for (let node = 1; node < orphans.nodeCount; node = orphans.end[node] as number) {
      const byte = orphans.byte[node] as number;
      const single = trie.child(0, byte);
      // Without a one-byte token the shortcut cannot tell: -1 walks the subtree always.
      heads.push({ byte, node, byteToken: single < 0 ? -1 : (trie.token[single] as number) });
    }
    this.orphanHeads = heads;
  }

  /**
   * Sets in `mask` every token set in `rests` (the mask of what follows the whitespace) and the
   * whitespace-led variants of each: the tokens that are whitespace then an allowed token. One pass.
   */
  addWithVariants(rests: Uint32Array, mask: Uint32Array): void {
    const { offsets, variants } = this;
    for (let w = 0; w < rests.length; w++) {
      let x = rests[w] as number;
      if (x === 0) continue;
      mask[w] = (mask[w] as number) | x;
      while (x !== 0) {
        const r = (w << 5) + (31 - Math.clz32(x & -x));
        x &= x - 1;
        const stop = offsets[r + 1] as number;
        for (let k = offsets[r] as number; k < stop; k++) {
          const id = variants[k] as number;
          mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
        }
      }
    }
  }
}

const EMPTY = new Uint8Array(0);
