import { BoundedCache } from '../../internal/bounded-cache.js';
import { InsideKeys } from '../grammar/inside-keys.js';
import type { StringLeaf } from '../grammar/string-leaf.js';
import type { PlainStringLengths } from '../vocabulary/plain-string-lengths.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import { TokensByLength } from '../vocabulary/tokens-by-length.js';
import { allowedTokenIds } from '../vocabulary/vocabulary.js';

/**
 * Default most key-leaf shapes an inside cache numbers (haggle's choice: the module-level table this
 * replaced was cleared at the same size; a shape is a few hundred bytes of text, so about 1 MB).
 */
export const KEY_SHAPE_LIMIT = 4096;

/**
 * The tokens that keep a string open, by the string's own state (`StringLeaf.insideKey`). They depend
 * on the string's constraints and the vocabulary alone, never on the grammar around the string, so one
 * cache serves every grammar compiled over a vocabulary: a free-form string (any message, any key of an
 * open object) costs a full pass over the vocabulary once per process, not once per schema.
 */
export class InsideCache {
  private readonly whole: BoundedCache<string, Uint32Array>;
  private readonly below: BoundedCache<string, Int32Array>;
  /** Sub-tries handed to `insideMask` for the nodes where strings open mid-token (a few dozen). */
  private readonly views = new Map<number, TokenTrie>();
  /** The ids the keys are made of (leaf classes, automata, key-leaf shapes). */
  readonly keys: InsideKeys;
  /**
   * The units and characters each token adds to a string without a pattern, once `warmVocabulary`
   * built it: a plain string's mask is then filled from it without a trie walk.
   */
  plainLengths: PlainStringLengths | undefined;

  constructor(
    readonly trie: TokenTrie,
    /** Words of a mask over the whole vocabulary. */
    private readonly words: number,
    /** Most entries of each kind; the least recently used go first. */
    limit: number,
    /** Most key-leaf shapes kept (see `InsideKeys`). */
    shapeLimit = KEY_SHAPE_LIMIT,
    /** The vocabulary's tokens by id (their bytes), for masks filtered from a wider one. */
    private readonly tokens?: readonly Uint8Array[],
  ) {
    this.keys = new InsideKeys(shapeLimit);
    // Least recently used first, so the masks every grammar reads (the free string's, shared by every
    // schema) are not dropped after `limit` others.
    this.whole = new BoundedCache(limit, 'use');
    this.below = new BoundedCache(limit, 'use');
    this.byLength = new BoundedCache(Math.min(limit, BY_LENGTH_LIMIT), 'use');
  }

  /** Bytes of the masks and id lists kept (keys included). */
  bytes(): number {
    let bytes = 0;
    for (const [key, mask] of this.whole) bytes += mask.byteLength + 2 * key.length;
    for (const [key, ids] of this.below) bytes += ids.byteLength + 2 * key.length;
    for (const [key, index] of this.byLength) bytes += index.bytes() + 2 * key.length;
    return bytes;
  }

  /** Every token that keeps the string open from `state`, as a mask. Shared: read it only. */
  mask(leaf: StringLeaf, state: unknown): Uint32Array {
    return this.lookup(leaf, state, Number.POSITIVE_INFINITY) as Uint32Array;
  }

  /**
   * Computes and keeps the mask of `state` unless known, giving up (and keeping nothing) past
   * `deadline` (`workNow()` time, grammar/work-clock.ts): for compile-time warming, which must not outrun its budget.
   * Whether the mask is now known.
   */
  warm(leaf: StringLeaf, state: unknown, deadline: number): boolean {
    return this.lookup(leaf, state, deadline) !== null;
  }

  /** The mask of `state`, from the cache or computed and kept; null when `deadline` passed first. */
  private lookup(leaf: StringLeaf, state: unknown, deadline: number): Uint32Array | null {
    const horizon = this.horizon(leaf, state, deadline);
    if (horizon === null) return null;
    const key = this.key(leaf, state, horizon);
    const known = this.whole.get(key);
    if (known) return known;
    const unbounded = this.unboundedMask(leaf, state);
    if (unbounded !== undefined && leaf.unboundedEquals(state, horizon)) {
      // Far from maxLength with minLength met, the bounds refuse none of the tokens the pattern lets
      // through: the walk that found the horizon is this position's mask (one walk, not two).
      this.whole.set(key, unbounded);
      return unbounded;
    }
    const mask = new Uint32Array(this.words);
    // Nearer maxLength, from the same walk's tokens: only the longest few are looked at, not the
    // whole trie walked again (a label's last units, issue 45).
    if (
      unbounded !== undefined &&
      this.tokens !== undefined &&
      leaf.insideFromUnbounded(state, unbounded, this.indexOf(leaf, state, unbounded), this.tokens, mask)
    ) {
      this.whole.set(key, mask);
      return mask;
    }
    if (leaf.insideMask(state, this.trie, mask, deadline, this.plainLengths) < 0) return null;
    this.whole.set(key, mask);
    return mask;
  }

  /**
   * The tokens below trie node `node` whose bytes after it keep the string open from `state` (the
   * string's state once the bytes leading to `node` are read), as a list of ids: a token that begins
   * with `"` or ` "` opens a string and may stay inside it.
   */
  idsBelow(node: number, leaf: StringLeaf, state: unknown): Int32Array {
    const key = `${node}|${this.key(leaf, state)}`;
    let ids = this.below.get(key);
    if (!ids) {
      let view = this.views.get(node);
      if (!view) {
        view = this.trie.subtree(node);
        this.views.set(node, view);
      }
      const mask = new Uint32Array(this.words);
      leaf.insideMask(state, view, mask);
      ids = Int32Array.from(allowedTokenIds(mask));
      this.below.set(key, ids);
    }
    return ids;
  }

  private key(leaf: StringLeaf, state: unknown, horizon = this.trie.maxTokenBytes): string {
    // The class too: a subclass that read strings differently must not share a mask with its parent.
    return `${this.keys.objectId(leaf.constructor)}|${leaf.insideKey(state, horizon, this.keys)}`;
  }

  /**
   * The most code units a token of the whole vocabulary can add inside the string from `state`: for a
   * pattern with length bounds, the longest token its pattern lets through from there with the bounds
   * left out (between characters a token adds at most one unit per byte; plus two within a character,
   * where a token that completes it adds units for bytes it does not hold); else the longest token. A label pattern (`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`, maxLength 48)
   * lets through tokens of 26 bytes where Qwen3's longest has 128 (positions up to 20 units share), so its positions far from maxLength
   * share a mask per pattern state instead of one per length: a whole-trie walk each, which were the
   * turn schema's slowest first masks (issue 45). Kept per pattern state, once per vocabulary; only
   * worked out where a position could be far from maxLength at all (else the walk would be wasted).
   * The walk's mask is kept in `unbounded` for `lookup`. Null when `deadline` passed first.
   */
  private horizon(leaf: StringLeaf, state: unknown, deadline: number): number | null {
    const longest = this.trie.maxTokenBytes;
    const key = this.patternStateId(leaf, state);
    if (key === null || !leaf.farWithin(state, 0)) return longest;
    let horizon = this.horizons.get(key);
    if (horizon === undefined) {
      const mask = new Uint32Array(this.words);
      if (leaf.unboundedInsideMask(state, this.trie, mask, deadline) < 0) return null;
      // With its tokens by length for the positions near maxLength, made here, where the walk is paid
      // for (mostly at compile-time warming: at a label's first near position it was a mask's worst),
      // and which give the longest token too.
      const index = this.tokens === undefined ? undefined : new TokensByLength(mask, this.tokens);
      const bytes = index === undefined ? longestToken(this.trie, mask) : index.longest;
      horizon = Math.min(longest, bytes + (leaf.betweenCharacters(state) ? 0 : 2));
      this.horizons.set(key, horizon);
      // Kept with the other masks (and dropped with them, least recently used first) for `lookup`.
      this.whole.set(`U|${key}`, mask);
      if (index !== undefined) this.byLength.set(key, index);
    }
    return horizon;
  }

  /**
   * `unbounded`'s tokens longest first (`TokensByLength`), made at the first position that reads them
   * (the same pattern state's unbounded mask is the same tokens whenever it is walked again).
   */
  private indexOf(leaf: StringLeaf, state: unknown, unbounded: Uint32Array): TokensByLength {
    const key = this.patternStateId(leaf, state) as string;
    let index = this.byLength.get(key);
    if (index === undefined) {
      index = new TokensByLength(unbounded, this.tokens as readonly Uint8Array[]);
      this.byLength.set(key, index);
    }
    return index;
  }
  private readonly byLength: BoundedCache<string, TokensByLength>;

  /** The mask `horizon` walked for `state`'s pattern state, while kept. */
  private unboundedMask(leaf: StringLeaf, state: unknown): Uint32Array | undefined {
    const key = this.patternStateId(leaf, state);
    return key === null ? undefined : this.whole.get(`U|${key}`);
  }

  /**
   * The key of `state`'s pattern state with the bounds left out (its automaton and place within a
   * character), which `horizon`, its unbounded mask and its tokens by length are kept by; null where
   * the string has no bounded pattern there (`StringLeaf.patternStateKey`).
   */
  private patternStateId(leaf: StringLeaf, state: unknown): string | null {
    const at = leaf.patternStateKey(state);
    const pattern = leaf.options.pattern;
    return at === null || pattern === null ? null : `${this.keys.objectId(pattern)}|${at}`;
  }
  private readonly horizons = new Map<string, number>();
}

/** The bytes of the longest token of `trie` whose bit `mask` sets (0 when none). */
function longestToken(trie: TokenTrie, mask: Uint32Array): number {
  let longest = 0;
  for (let node = 1; node < trie.nodeCount; node++) {
    const id = trie.token[node] as number;
    if (id < 0 || (((mask[id >>> 5] as number) >>> (id & 31)) & 1) === 0) continue;
    longest = Math.max(longest, trie.depth[node] as number);
  }
  return longest;
}

/**
 * Most pattern states whose tokens by length an inside cache keeps (haggle's choice): about 100 kB
 * each for a label pattern over Qwen3 (five bytes a token its pattern lets through), so 6 MB at most.
 */
const BY_LENGTH_LIMIT = 64;
