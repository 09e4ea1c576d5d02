import { TokenTrie } from './token-trie.js';

/**
 * The tokens that hold a `"` split at their first quote, built once per vocabulary over its trie of
 * such tokens (`quotes`). Inside a string, the bytes before a token's first quote are read by the string
 * alone; from the quote on (its suffix) they are read by whatever the quote leads to, which for a string
 * value is the same positions whatever text came before it (`finish` hands back the same frames). So
 * the suffixes are kept in a trie of their own, walked once per distinct set of positions after the
 * quote, and each token below a first quote is allowed when its suffix is: where the quote walk used to
 * walk every prefix's own copy of the suffixes (`":`, `",`, `"}` … under each of Qwen3's 195 prefixes),
 * issue 45's p90 band of first visits inside strings.
 */
export class QuoteSuffixes {
  /** The distinct suffixes (each starting with `"`), their ids as token ids of this trie. */
  readonly suffixes: TokenTrie;
  /** The suffix trie's node for the leading `"`, below which a walk starts after the quote. */
  readonly quoteNode: number;
  /** Words of a mask over the suffix ids. */
  readonly words: number;
  /**
   * Per node of `quotes`: 1 where its edge reads the first `"` of its path (every token below it has
   * its first quote there); else 0.
   */
  readonly firstQuote: Uint8Array;
  /** Per node of `quotes`: the suffix id of the token ending there (from its first quote), or -1. */
  readonly suffixOf: Int32Array;

  constructor(
    readonly quotes: TokenTrie,
    tokens: readonly Uint8Array[],
  ) {
    const ids = new Map<string, number>();
    const suffixBytes: Uint8Array[] = [];
    const firstQuote = new Uint8Array(quotes.nodeCount);
    const suffixOf = new Int32Array(quotes.nodeCount).fill(-1);
    const { byte, depth, end, token } = quotes;
    // Preorder: a node's first-quote ancestor is the last first-quote node whose subtree holds it.
    let quoteAt = -1;
    for (let node = 1; node < quotes.nodeCount; node++) {
      if (quoteAt >= 0 && node >= (end[quoteAt] as number)) quoteAt = -1;
      if (quoteAt < 0 && byte[node] === 0x22) {
        quoteAt = node;
        firstQuote[node] = 1;
      }
      const id = token[node] as number;
      if (id < 0 || quoteAt < 0) continue;
      // Duplicates of a token's bytes share its node, and so its suffix.
      const suffix = (tokens[id] as Uint8Array).subarray((depth[quoteAt] as number) - 1);
      const text = String.fromCharCode(...suffix);
      let sid = ids.get(text);
      if (sid === undefined) {
        sid = suffixBytes.length;
        ids.set(text, sid);
        suffixBytes.push(suffix);
      }
      suffixOf[node] = sid;
    }
    this.suffixes = new TokenTrie({ tokens: suffixBytes, eosTokenIds: [], specialTokenIds: [] });
    this.quoteNode = this.suffixes.child(0, 0x22);
    this.words = Math.ceil(suffixBytes.length / 32);
    this.firstQuote = firstQuote;
    this.suffixOf = suffixOf;
  }
}
