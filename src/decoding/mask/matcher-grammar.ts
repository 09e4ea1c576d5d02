import type { Shortest } from '../grammar/nodes.js';
import type { Frame } from '../grammar/stack-machine.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import type { DecoderVocabulary } from '../vocabulary/vocabulary.js';

/**
 * What a `GrammarMatcher` reads of its compiled grammar: the vocabulary and its trie, the masks of a
 * position, and the shortest completions (for what the grammar forces). `CompiledGrammar` implements it;
 * kept as the public name of what a matcher relies on (the matcher itself takes a `CompiledGrammar`).
 */
export interface MatcherGrammar {
  readonly vocabulary: DecoderVocabulary;
  readonly trie: TokenTrie;
  readonly shortest: Shortest;
  /** 32-bit words in a mask: one bit per token id. */
  readonly maskWords: number;
  /** The tokens allowed after `frames`, as a bit mask; a walk looks at `signal` as it goes. */
  maskFor(frames: readonly Frame[], signal?: AbortSignal): Uint32Array;
  /** `maskFor` written into `out`. */
  fillMaskFor(frames: readonly Frame[], out: Uint32Array, signal?: AbortSignal): Uint32Array;
  /** The same mask computed token by token, without caches or precomputation (for tests). */
  referenceMask(frames: readonly Frame[]): Uint32Array;
}
