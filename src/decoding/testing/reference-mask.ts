import type { GrammarMatcher } from '../matcher/grammar-matcher.js';

/**
 * The matcher's current mask by the generic trie walk, without the caches, the precomputed masks or the
 * per-leaf shortcuts: what tests hold `mask()` to. A test hook, kept out of the `haggle/decoding` entry
 * (nothing in src/ imports src/decoding/testing/).
 */
export function referenceMask(matcher: GrammarMatcher): Uint32Array {
  const frames = matcher.frames;
  if (frames === null) return new Uint32Array(matcher.grammar.maskWords);
  return matcher.grammar.referenceMask(frames);
}
