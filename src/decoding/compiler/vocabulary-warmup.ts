import { DEAD } from '../grammar/nodes.js';
import { StringLeaf } from '../grammar/string-leaf.js';
import type { InsideCache } from '../mask/inside-cache.js';
import { PatternAutomaton } from '../regex/regex.js';
import { PlainStringLengths } from '../vocabulary/plain-string-lengths.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import { TokensByLength } from '../vocabulary/tokens-by-length.js';
import { maskWords } from '../vocabulary/vocabulary.js';

/**
 * Work done once per vocabulary when its token index is built (`prepareVocabulary`), so that the first
 * sequence of the process does not pay for it mask by mask (haggle's choice; 52-57 ms for Qwen3,
 * measured alone on a quiet core):
 *
 * - the tokens that keep a string without a pattern open at a character boundary: every free-form
 *   string of every schema (a message, a name, a description; bounds far off or none) reads this one
 *   mask, which depends on the vocabulary alone. A full pass over the vocabulary, so a schema's warming
 *   budget would cut it short and leave it to the first message written.
 * - from that mask, the units and characters each of its tokens adds (`PlainStringLengths`): the
 *   inside masks of strings near their `maxLength` are then lookups, not passes.
 * - two throwaway passes inside a bounded pattern, and two with its bounds left out: the string pass's
 *   pattern branches are then compiled by the JIT before a schema needs them. Measured without it, the first passes of the turn schema's
 *   label pattern took 5-9 ms each while the JIT tiered up, against about 1 ms once it had.
 */
export function warmVocabulary(trie: TokenTrie, tokens: readonly Uint8Array[], cache: InsideCache): void {
  const free = new StringLeaf(-1, {
    minLength: 0,
    maxLength: Number.POSITIVE_INFINITY,
    pattern: null,
    collect: false,
  });
  const opened = free.step(free.initial(), 0x22);
  if (opened === DEAD) return;
  cache.plainLengths = new PlainStringLengths(cache.mask(free, opened), tokens);

  const bounded = new StringLeaf(-1, {
    minLength: 1,
    maxLength: 64,
    pattern: new PatternAutomaton(WARM_PATTERN),
    collect: false,
  });
  const scratch = new Uint32Array(maskWords(tokens.length));
  let state = bounded.step(bounded.initial(), 0x22);
  for (const byte of WARM_TEXT) {
    if (state === DEAD) break;
    bounded.insideMask(state, trie, scratch);
    // And the same pattern with its bounds left out: the walk a bounded pattern's first visit of a
    // state takes far from maxLength (InsideCache's horizon, issue 45), a branch of its own.
    bounded.unboundedInsideMask(state, trie, scratch.fill(0));
    state = bounded.step(state, byte);
  }
  // And the filter that serves a bounded pattern's positions near maxLength from that unbounded mask
  // (InsideCache, issue 45): its first runs took 2-4 ms each before the JIT had compiled it, 0.2 ms after.
  const near = new StringLeaf(-1, {
    minLength: 0,
    maxLength: 12,
    pattern: new PatternAutomaton(WARM_PATTERN),
    collect: false,
  });
  const inside = near.step(near.step(near.initial(), 0x22), 0x61);
  if (inside !== DEAD) {
    const unbounded = new Uint32Array(scratch.length);
    near.unboundedInsideMask(inside, trie, unbounded);
    const byLength = new TokensByLength(unbounded, tokens);
    for (let round = 0; round < 3; round++)
      near.insideFromUnbounded(inside, unbounded, byLength, tokens, scratch);
  }
}

/** Words, digits, a separator and a non-ASCII class: every branch of the string pass is taken. */
const WARM_PATTERN = '^[a-z][a-z0-9]*([_ -][a-z0-9\u00e0-\u00ff]+)*$';
/** The states the throwaway passes start from: the opening, inside the first word (two passes were enough). */
const WARM_TEXT = new TextEncoder().encode('a_');
