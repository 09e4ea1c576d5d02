import type { GrammarNode, Shortest } from '../grammar/nodes.js';
import { AbortCheck } from '../grammar/search-budget.js';
import { enter, type Frame, setKey } from '../grammar/stack-machine.js';
import type { QuoteSuffixes } from '../vocabulary/quote-suffixes.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import { type DecoderVocabulary, maskWords } from '../vocabulary/vocabulary.js';
import type { WhitespaceRests } from '../vocabulary/whitespace-rests.js';
import type { InsideCache } from './inside-cache.js';
import { MaskCache } from './mask-cache.js';
import { MaskPrecompute } from './mask-precompute.js';
import type { MatcherGrammar } from './matcher-grammar.js';
import { warmStrings } from './string-warmup.js';
import { TrieWalk } from './trie-walk.js';

/**
 * What a grammar reads of its vocabulary's state, built once per vocabulary by its `GrammarCompiler`:
 * the vocabulary, its token trie, the trie of the tokens that hold a `"`, and the inside-string masks
 * every grammar over it shares.
 */
export interface GrammarVocabulary {
  readonly vocabulary: DecoderVocabulary;
  readonly trie: TokenTrie;
  /** @internal The tokens that hold a `"`: the only ones that can end a string, walked with the full parser. */
  readonly quotes: TokenTrie;
  /** @internal The tokens of `quotes` split at their first quote (trie-walk.ts `quoteWalk`). */
  readonly quoteSuffixes?: QuoteSuffixes;
  /** @internal The inside-string masks shared by every grammar over the vocabulary. */
  readonly inside: InsideCache;
  /** @internal The whitespace-led tokens by what follows their whitespace, built on first use. */
  whitespaceRests(): WhitespaceRests;
}

/**
 * A JSON Schema compiled against a vocabulary: gives the mask of allowed tokens for each decoder state.
 * It joins its parts, one file each: the trie walk that computes a mask (trie-walk.ts), the cache that
 * keeps masks (mask-cache.ts), the masks computed at compile time (mask-precompute.ts) and the warm-up
 * of its strings' inside masks (string-warmup.ts). A sequence reads it through a `GrammarMatcher`.
 */
export class CompiledGrammar implements MatcherGrammar {
  /** Words of a mask (`Uint32Array` length). */
  readonly maskWords: number;
  readonly vocabularySize: number;
  private readonly cache: MaskCache;
  private readonly walk: TrieWalk;
  /** Tokens that stay inside a string, by the string's own state (shared by all grammars). */
  private readonly inside: InsideCache;
  /**
   * Counters of the mask cache, for benchmarks and tuning: `precomputed` masks stored at compile time
   * (and `precomputeMs` spent on them), `hits` answered from either cache, `misses` computed.
   */
  readonly stats = { hits: 0, misses: 0, nodesVisited: 0, precomputed: 0, precomputeMs: 0 };

  readonly vocabulary: DecoderVocabulary;
  readonly trie: TokenTrie;

  constructor(
    readonly root: GrammarNode,
    readonly shortest: Shortest,
    /** @internal What the grammar reads of its vocabulary's state (its `GrammarCompiler`). */
    parts: GrammarVocabulary,
    maskCacheSize: number,
  ) {
    this.vocabulary = parts.vocabulary;
    this.trie = parts.trie;
    this.vocabularySize = parts.vocabulary.tokens.length;
    this.maskWords = maskWords(this.vocabularySize);
    this.inside = parts.inside;
    this.cache = new MaskCache(maskCacheSize, this.maskWords);
    this.walk = new TrieWalk(
      parts.trie,
      parts.quotes,
      parts.inside,
      parts.vocabulary.eosTokenIds,
      this.maskWords,
      (frames) => this.maskFor(frames),
      this.stats,
      () => parts.whitespaceRests(),
      parts.quoteSuffixes,
    );
  }

  /** @internal The positions at the start of the document, where every `GrammarMatcher` begins. */
  startFrames(): Frame[] {
    const start: Frame[] = [];
    enter(this.root, null, start);
    return start;
  }

  /**
   * See `CompileOptions.warm`: the start mask, then the inside masks of the grammar's strings within
   * a budget (string-warmup.ts).
   */
  warm(nodes: readonly GrammarNode[]): void {
    this.maskFor(this.startFrames());
    warmStrings(this.inside, nodes);
  }

  /**
   * Computes at compile time the masks of the positions a sequence can reach outside strings (see
   * `CompileOptions.precompute` and mask-precompute.ts), at most `positions` of them within `timeMs`.
   */
  precompute(positions: number, timeMs: number): void {
    if (positions <= 0) return;
    const { root, trie, inside, walk, cache, maskWords, stats } = this;
    new MaskPrecompute({ root, trie, inside, walk, cache, maskWords, stats }).run(positions, timeMs);
  }

  /**
   * Bytes held by this grammar's own caches: the masks kept after use and the precomputed ones, with
   * their keys. The token trie and the inside-string masks are shared by every grammar over the
   * vocabulary and not counted here.
   */
  cacheBytes(): number {
    return this.cache.bytes();
  }

  /** The allowed tokens at a position: from the caches, or by one pass over the trie. Read-only. */
  maskFor(frames: readonly Frame[], signal?: AbortSignal): Uint32Array {
    const key = setKey(frames, this.trie.maxTokenBytes);
    const cached = this.cache.recentMask(key);
    if (cached) {
      this.stats.hits++;
      return cached;
    }
    let mask = this.cache.precomputedMask(key);
    if (mask !== undefined) this.stats.hits++;
    else {
      this.stats.misses++;
      // The walk looks at the caller's abort as it goes (an enum of thousands of values is walked
      // value by value); nested walks (unionMask) keep the outer one's check.
      const outer = this.walk.abortCheck;
      if (signal !== undefined && outer === undefined) this.walk.abortCheck = new AbortCheck(signal);
      try {
        mask = this.walk.computeMask(frames);
      } finally {
        this.walk.abortCheck = outer;
      }
    }
    this.cache.keep(key, mask);
    return mask;
  }

  /**
   * `maskFor` copied into `out` (all words written). A precomputed mask is written straight from its
   * token ids, without making a bitset to keep: as cheap as copying one.
   */
  fillMaskFor(frames: readonly Frame[], out: Uint32Array, signal?: AbortSignal): Uint32Array {
    const key = setKey(frames, this.trie.maxTokenBytes);
    if (!this.cache.fill(key, out)) {
      out.set(this.maskFor(frames, signal));
      return out;
    }
    this.stats.hits++;
    return out;
  }

  /**
   * The mask of a position computed afresh by the generic pass over the whole trie, without the caches
   * or the per-leaf shortcuts: the reference the tests hold the shortcuts to.
   * @internal
   */
  referenceMask(frames: readonly Frame[]): Uint32Array {
    return this.walk.referenceMask(frames);
  }
}
