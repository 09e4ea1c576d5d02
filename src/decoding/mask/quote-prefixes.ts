import { DEAD, type Leaf } from '../grammar/nodes.js';
import type { QuoteSuffixes } from '../vocabulary/quote-suffixes.js';

/** A quote of the quote tokens that closes the string, and the string's text before it. */
export interface ClosingPrefix {
  /** The node of `QuoteSuffixes.quotes` whose edge reads the quote. */
  readonly node: number;
  /** Whether it is the token's first quote (else one came before it, escaped): `suffixOf` applies. */
  readonly first: boolean;
  /** The characters before the quote, decoded (escapes and UTF-8), as a key's name trie reads them. */
  readonly codePoints: readonly number[];
}

/**
 * The quote tokens as a string that refuses no character meets them, per vocabulary and kind of
 * string (issue 45's p90 band: first visits inside keys of objects that allow any key, and inside
 * free string values). For such a string, which bytes it reads and whether a quote then closes it (not
 * escaped, not mid-character) depend on the bytes alone; what the closing leads to depends on nothing
 * for a string value, and for a key only on the name its text spells (`KeyLeaf.closeAfter`). So the
 * walk of the quote tokens' bytes up to their closing quote (for Qwen3 about 420 steps and closes of
 * the string) is made once per vocabulary here, and a mask reads the lists: the tokens read inside,
 * then the tokens below each closing quote by what follows it.
 */
export class QuotePrefixes {
  /** Nodes of `quotes` whose token the string reads and stays inside (its quotes escaped). */
  readonly staying: number[] = [];
  /** Quotes that close the string after their text. */
  readonly closing: ClosingPrefix[] = [];
  /** Closing quotes whose text did not decode here: walked from the positions after their bytes. */
  readonly walked: Array<{ readonly node: number; readonly bytes: readonly number[] }> = [];

  /** Built by stepping `leaf` from `state`, inside, between characters, where it refuses no character. */
  constructor(split: QuoteSuffixes, leaf: Leaf, state: unknown) {
    const trie = split.quotes;
    const { byte, depth, end, token } = trie;
    const states: unknown[] = [state];
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

/** Per vocabulary (its `QuoteSuffixes`) and kind of string, built at the first string of that kind. */
const built = new WeakMap<QuoteSuffixes, Map<string, QuotePrefixes>>();

/**
 * The vocabulary's `QuotePrefixes` for strings of `kind`, built the first time from `leaf` in `state`
 * (every string of a kind reads the same bytes from such a state: the caller's guarantee).
 */
export function quotePrefixes(split: QuoteSuffixes, kind: string, leaf: Leaf, state: unknown): QuotePrefixes {
  let kinds = built.get(split);
  if (kinds === undefined) {
    kinds = new Map();
    built.set(split, kinds);
  }
  let prefixes = kinds.get(kind);
  if (prefixes === undefined) {
    prefixes = new QuotePrefixes(split, leaf, state);
    kinds.set(kind, prefixes);
  }
  return prefixes;
}
