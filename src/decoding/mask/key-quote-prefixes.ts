import type { KeyLeaf } from '../grammar/key-leaf.js';
import { DEAD } from '../grammar/nodes.js';
import type { QuoteSuffixes } from '../vocabulary/quote-suffixes.js';

/** A quote of the quote tokens that closes a free key, and the key's text before it. */
export interface ClosingPrefix {
  /** The node of `QuoteSuffixes.quotes` whose edge reads the quote. */
  readonly node: number;
  /** Whether it is the token's first quote (else one came before it, escaped): `suffixOf` applies. */
  readonly first: boolean;
  /** The characters before the quote, decoded (escapes and UTF-8), as a key's name trie reads them. */
  readonly codePoints: readonly number[];
}

/**
 * The quote tokens as a key that `closesByName` meets them, per vocabulary (issue 45's p90 band: the
 * first visit inside a key of an object with many properties, where any key is allowed). For such a
 * key every character is live, so which bytes it reads, and whether a quote then closes it (not
 * escaped, not mid-character), depend on the bytes alone, and what the closing leads to only on the
 * name its text spells (`KeyLeaf.closeAfter`). So the walk of the quote tokens' bytes up to their
 * closing quote (for Qwen3 about 420 key steps and closes) is made once per vocabulary here, and a mask
 * reads the lists: the tokens read inside, and for each closing quote the name trie node of its text.
 */
export class KeyQuotePrefixes {
  /** Nodes of `quotes` whose token the key reads and stays inside (its quotes escaped). */
  readonly staying: number[] = [];
  /** Quotes that close the key after their text. */
  readonly closing: ClosingPrefix[] = [];
  /** Closing quotes whose text did not decode here: walked from the positions after their bytes. */
  readonly walked: Array<{ readonly node: number; readonly bytes: readonly number[] }> = [];

  /** Built by stepping `leaf` from `state` (where it `closesByName`) off the name trie. */
  constructor(split: QuoteSuffixes, leaf: KeyLeaf, state: unknown) {
    const trie = split.quotes;
    const { byte, depth, end, token } = trie;
    const states: unknown[] = [leaf.offNames(state)];
    const bytes: number[] = [];
    let i = 1;
    while (i < trie.nodeCount) {
      const d = depth[i] as number;
      const b = byte[i] as number;
      const next = leaf.step(states[d - 1], b);
      if (next === DEAD) {
        i = end[i] as number;
        continue;
      }
      bytes[d - 1] = b;
      if (leaf.mustEnd(next)) {
        const codePoints = decodeText(bytes.slice(0, d - 1));
        if (codePoints === null) this.walked.push({ node: i, bytes: bytes.slice(0, d) });
        else this.closing.push({ node: i, first: split.firstQuote[i] === 1, codePoints });
        i = end[i] as number;
        continue;
      }
      if ((token[i] as number) >= 0) this.staying.push(i);
      states[d] = next;
      i++;
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The characters of a key's text as JSON writes it (bytes the key leaf read, so valid), or null if
 * they do not decode here (the walk then steps that prefix as before).
 */
function decodeText(bytes: readonly number[]): number[] | null {
  try {
    const text = JSON.parse(`"${utf8.decode(new Uint8Array(bytes))}"`) as string;
    const out: number[] = [];
    for (const ch of text) out.push(ch.codePointAt(0) as number);
    return out;
  } catch {
    return null;
  }
}

/** Per vocabulary (its `QuoteSuffixes`), built at the first key that `closesByName`. */
const built = new WeakMap<QuoteSuffixes, KeyQuotePrefixes>();

/** The vocabulary's `KeyQuotePrefixes`, built from `leaf` in `state` the first time. */
export function keyQuotePrefixes(split: QuoteSuffixes, leaf: KeyLeaf, state: unknown): KeyQuotePrefixes {
  let prefixes = built.get(split);
  if (prefixes === undefined) {
    prefixes = new KeyQuotePrefixes(split, leaf, state);
    built.set(split, prefixes);
  }
  return prefixes;
}
