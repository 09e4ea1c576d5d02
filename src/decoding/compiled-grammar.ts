import { InvalidInputError } from '../contract/errors.js';
import { GrammarMatcher } from './grammar-matcher.js';
import { type InsideCache, insideCache } from './inside-cache.js';
import { LiteralLeaf } from './literal-leaf.js';
import { type GrammarNode, ListNode, type ListState, type Shortest } from './nodes.js';
import { type SchemaCompileOptions, SchemaCompiler } from './schema-compiler.js';
import { canComplete, enter, Frame, ownKey, setKey, stepFrame, stepFrames } from './stack-machine.js';
import { StringLeaf } from './string-leaf.js';
import { TokenTrie } from './token-trie.js';
import { checkVocabulary, type DecoderVocabulary, maskWords } from './vocabulary.js';

/** Options of `compileSchema`: the schema compiler's and how much to precompute. */
export interface CompileOptions extends SchemaCompileOptions {
  /**
   * Compute at compile time the masks the first sequences would otherwise pay for (default true): the
   * start of the document and the inside of the strings (for patterns, a few of their states), at most
   * `WARM_LIMIT` of the latter and for at most 20 ms after the first mask, so a schema with hundreds of
   * patterns, or a few slow ones, does not pay for all of them.
   */
  warm?: boolean;
  /** Most masks kept per grammar (default 1024, about 19 MB for Qwen3); the oldest go first. */
  maskCacheSize?: number;
}

// The tries depend only on the vocabulary: build them once per vocabulary object, share them across grammars.
const tries = new WeakMap<DecoderVocabulary, TokenTrie>();
const quoteTries = new WeakMap<DecoderVocabulary, TokenTrie>();

/** The tokens that hold a `"`: the only ones that can end a string, walked with the full parser. */
function quoteTrie(vocabulary: DecoderVocabulary): TokenTrie {
  let trie = quoteTries.get(vocabulary);
  if (!trie) {
    trie = new TokenTrie(vocabulary, (bytes) => bytes.includes(0x22));
    quoteTries.set(vocabulary, trie);
  }
  return trie;
}

/** Builds (or returns the already built) token index of a vocabulary, e.g. at start-up. */
export function prepareVocabulary(vocabulary: DecoderVocabulary): TokenTrie {
  let trie = tries.get(vocabulary);
  if (!trie) {
    checkVocabulary(vocabulary);
    trie = new TokenTrie(vocabulary);
    tries.set(vocabulary, trie);
    quoteTrie(vocabulary);
  }
  return trie;
}

/**
 * Compiles a JSON Schema into a grammar over `vocabulary`'s tokens. Throws `UnsupportedSchemaError`
 * (naming the keyword and its path) for anything it cannot enforce exactly, and
 * `UnsatisfiableSchemaError` when nothing matches. The grammar is immutable and can be shared: each
 * sequence being decoded gets its own `matcher()`.
 */
export function compileSchema(
  jsonSchema: unknown,
  vocabulary: DecoderVocabulary,
  options: CompileOptions = {},
): CompiledGrammar {
  if (
    options.maxFractionDigits !== undefined &&
    !(
      Number.isInteger(options.maxFractionDigits) &&
      options.maxFractionDigits >= 0 &&
      options.maxFractionDigits <= 15
    )
  ) {
    throw new InvalidInputError('CompileOptions', [
      { path: 'maxFractionDigits', message: 'an integer from 0 to 15' },
    ]);
  }
  if (
    options.maxDigits !== undefined &&
    !(Number.isInteger(options.maxDigits) && options.maxDigits >= 1 && options.maxDigits <= 17)
  ) {
    throw new InvalidInputError('CompileOptions', [
      { path: 'maxDigits', message: 'an integer from 1 to 17' },
    ]);
  }
  for (const [name, value] of [
    ['maxDepth', options.maxDepth],
    ['maxNodes', options.maxNodes],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new InvalidInputError('CompileOptions', [{ path: name, message: 'a positive integer' }]);
    }
  }
  if (options.timeBudgetMs !== undefined && !(options.timeBudgetMs >= 0)) {
    throw new InvalidInputError('CompileOptions', [
      { path: 'timeBudgetMs', message: 'a number of milliseconds, 0 or more (Infinity: no limit)' },
    ]);
  }
  const trie = prepareVocabulary(vocabulary);
  const compiled = new SchemaCompiler(jsonSchema, options).compileDocument();
  const grammar = new CompiledGrammar(
    compiled.root,
    compiled.shortest,
    vocabulary,
    trie,
    options.maskCacheSize ?? 1024,
  );
  if (options.warm !== false) grammar.warm(compiled.nodes);
  return grammar;
}

/** A JSON Schema compiled against a vocabulary: gives the mask of allowed tokens for each decoder state. */
export class CompiledGrammar {
  /** Words of a mask (`Uint32Array` length). */
  readonly maskWords: number;
  readonly vocabularySize: number;
  private readonly masks = new Map<string, Uint32Array>();
  /** Tokens that stay inside a string, by the string's own state (shared by all grammars). */
  private readonly inside: InsideCache;
  private readonly quotes: TokenTrie;
  private readonly eos: readonly number[];
  /** Counters of the mask cache, for benchmarks and tuning. */
  readonly stats = { hits: 0, misses: 0, nodesVisited: 0 };

  constructor(
    readonly root: GrammarNode,
    readonly shortest: Shortest,
    readonly vocabulary: DecoderVocabulary,
    readonly trie: TokenTrie,
    private readonly maskCacheSize: number,
  ) {
    this.vocabularySize = vocabulary.tokens.length;
    this.maskWords = maskWords(this.vocabularySize);
    this.eos = vocabulary.eosTokenIds;
    this.quotes = quoteTrie(vocabulary);
    this.inside = insideCache(trie, this.maskWords);
  }

  /** A fresh matcher at the start of the document. */
  matcher(): GrammarMatcher {
    const start: Frame[] = [];
    enter(this.root, null, start);
    return new GrammarMatcher(this, start);
  }

  /**
   * See `CompileOptions.warm`. The opening of every string first (most share one mask, computed once
   * per vocabulary), then further pattern states, until `WARM_LIMIT` states have been warmed or
   * `WARM_BUDGET_MS` have passed since the first mask: warming is a head start, and the inside mask of
   * a long pattern (`(\S+\s+){0,199}`) can take most of a second each, which time to first mask should
   * not pay sixteen times over.
   */
  warm(nodes: readonly GrammarNode[]): void {
    this.matcher().mask();
    const started = performance.now();
    const queues = nodes.flatMap((node) =>
      node instanceof StringLeaf ? [{ leaf: node, states: node.warmStates(8) }] : [],
    );
    let warmed = 0;
    for (let round = 0; round < 8; round++) {
      for (const { leaf, states } of queues) {
        if (round >= states.length) continue;
        if (warmed++ >= WARM_LIMIT || performance.now() - started > WARM_BUDGET_MS) return;
        this.inside.mask(leaf, states[round]);
      }
    }
  }

  /** The allowed tokens at a position: from the cache, or by one pass over the trie. Read-only. */
  maskFor(frames: readonly Frame[]): Uint32Array {
    const key = setKey(frames, this.trie.maxTokenBytes);
    const cached = this.masks.get(key);
    if (cached) {
      this.stats.hits++;
      return cached;
    }
    this.stats.misses++;
    const mask = this.computeMask(frames);
    if (this.masks.size >= this.maskCacheSize) {
      const oldest = this.masks.keys().next().value;
      if (oldest !== undefined) this.masks.delete(oldest);
    }
    this.masks.set(key, mask);
    return mask;
  }

  private computeMask(frames: readonly Frame[]): Uint32Array {
    if (frames.length > 1 && frames.some(isInsideString)) return this.unionMask(frames);
    const top = frames.length === 1 ? (frames[0] as Frame) : null;
    if (top && top.node instanceof StringLeaf && top.node.isInside(top.state)) {
      // Inside a string: tokens that stay inside depend on the string alone (cached across contexts);
      // only tokens holding a quote can reach what follows, and they are few.
      const mask = this.inside.mask(top.node, top.state).slice();
      this.walk(this.quotes, frames, mask);
      return mask;
    }
    const mask = new Uint32Array(this.maskWords);
    if (frames.every((f) => f.node instanceof LiteralLeaf)) {
      // Keys, punctuation, enum values: follow each literal down the trie instead of trying every branch.
      for (const frame of frames) this.literalWalk(frame, mask);
    } else this.walk(this.trie, frames, mask);
    if (frames.some(canComplete)) {
      for (const id of this.eos) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
    }
    return mask;
  }

  /**
   * A token is allowed from a set of positions when one of them takes it, so the mask of a set is the
   * union of its members' masks. Inside the strings of several alternatives (`"name": "` of an anyOf of
   * objects) each string gets its cached fast path this way, where one walk of the whole set would step
   * every alternative through the whole vocabulary.
   */
  private unionMask(frames: readonly Frame[]): Uint32Array {
    const rest = frames.filter((frame) => !isInsideString(frame));
    const mask = rest.length > 0 ? this.maskFor(rest).slice() : new Uint32Array(this.maskWords);
    // The strings' staying tokens, once per string state; then one walk of the quote tokens for all
    // of them together, where frames that share a state are stepped once per trie node (stepFrames).
    const strings = shareStates(frames.filter(isInsideString), this.trie.maxTokenBytes);
    let last: Frame | null = null;
    for (const frame of strings) {
      if (last !== null && frame.node === last.node && frame.state === last.state) continue;
      last = frame;
      const part = this.inside.mask(frame.node as StringLeaf, frame.state);
      for (let w = 0; w < mask.length; w++) mask[w] = (mask[w] as number) | (part[w] as number);
    }
    this.walk(this.quotes, strings, mask);
    return mask;
  }

  /**
   * The tokens allowed from a position inside a literal: those spelling a prefix of the rest of the
   * literal (one trie path), and those that run past its end, walked from the node where it ends with
   * the positions that follow it.
   */
  private literalWalk(frame: Frame, mask: Uint32Array): void {
    const leaf = frame.node as LiteralLeaf;
    const bytes = leaf.bytes;
    const trie = this.trie;
    let node = 0;
    for (let k = frame.state as number; k < bytes.length; k++) {
      node = trie.child(node, bytes[k] as number);
      if (node < 0) return;
      if (k + 1 < bytes.length) {
        this.setToken(node, mask);
        continue;
      }
      const after: Frame[] = [];
      stepFrame(new Frame(leaf, k, frame.parent), bytes[k] as number, after);
      if (after.length === 0) return;
      this.setToken(node, mask);
      this.walk(trie, after, mask, node);
    }
  }

  private setToken(node: number, mask: Uint32Array): void {
    const id = this.trie.token[node] as number;
    if (id < 0) return;
    mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
    const more = this.trie.duplicates.get(node);
    if (more)
      for (const other of more) mask[other >>> 5] = (mask[other >>> 5] as number) | (1 << (other & 31));
  }

  /**
   * Sets the bits of the tokens of `trie` below node `root` (default: all) that the parser accepts from
   * `frames`, the positions after the bytes that lead to `root`.
   *
   * Where a path opens a free-running string mid-token (`"`, ` "`, `, "`: a key of an open object, a
   * string value), its subtree holds thousands of tokens that stay inside the string; they are the same
   * for every grammar, so they come from the shared cache as a list, and only the children that lead
   * to a `"` (the tokens that may close the string, which depend on what follows) are walked on.
   */
  private walk(trie: TokenTrie, frames: readonly Frame[], mask: Uint32Array, root = 0): void {
    const { byte, depth, end, quoteBelow } = trie;
    const strings = trie === this.trie;
    // positions[d]: the parse positions after the first d bytes of the current trie path. The arrays
    // are reused from node to node (only frames are allocated).
    const positions: Frame[][] = [];
    for (let d = 0; d <= trie.maxTokenBytes; d++) positions.push([]);
    // covered[d]: the path's first d bytes end inside a string whose staying tokens are already set.
    const covered = new Uint8Array(trie.maxTokenBytes + 1);
    positions[depth[root] as number] = [...frames];
    const nodeCount = end[root] as number;
    let visited = 0;
    let i = root + 1;
    while (i < nodeCount) {
      const d = depth[i] as number;
      const b = byte[i] as number;
      if (covered[d - 1] === 1 && b !== 0x22 && quoteBelow[i] === 0) {
        i = end[i] as number; // no quote ahead: these tokens stay inside (already set) or are refused
        continue;
      }
      visited++;
      const from = positions[d - 1] as Frame[];
      const next = positions[d] as Frame[];
      next.length = 0;
      stepFrames(from, b, next);
      if (next.length === 0) {
        i = end[i] as number; // the whole subtree shares a refused prefix
        continue;
      }
      trie.markTokens(mask, i);
      covered[d] = 0;
      if (strings && (end[i] as number) - i > 1 && next.every(isInsideString)) {
        // Inside one string, or several (the alternatives of an anyOf): a token stays open when one of
        // them keeps it open, so the staying tokens are the union of each string's.
        if (covered[d - 1] === 1) covered[d] = 1;
        else if ((end[i] as number) - i >= OPENING_SUBTREE) {
          for (const frame of next) {
            for (const id of this.inside.idsBelow(i, frame.node as StringLeaf, frame.state)) {
              mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
            }
          }
          covered[d] = 1;
        }
      }
      i++;
    }
    this.stats.nodesVisited += visited;
  }
}

/**
 * The frames of a set with one state object per own key, grouped together: frames whose own keys are
 * equal under the same parent accept the same tokens whichever of the states they hold (the invariant
 * the mask cache rests on), so they may hold the same one, and `stepFrames` then reads it once per byte
 * for all of them. A string that keeps its value (uniqueItems), or whose list keeps the values seen,
 * keeps its own state: the value it closes with, or the key, differs from frame to frame.
 */
function shareStates(frames: readonly Frame[], horizon: number): Frame[] {
  const groups = new Map<string, Frame[]>();
  const alone: Frame[] = [];
  for (const frame of frames) {
    const parent = frame.parent;
    const keepsValue = (frame.node as StringLeaf).valueKey(frame.state) !== undefined;
    if (keepsValue || (parent?.node instanceof ListNode && (parent.state as ListState).seen !== null)) {
      alone.push(frame);
      continue;
    }
    const key = ownKey(frame, horizon);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [frame]);
    else group.push(new Frame(frame.node, (group[0] as Frame).state, parent));
  }
  return [...[...groups.values()].flat(), ...alone];
}

function isInsideString(frame: Frame): boolean {
  return frame.node instanceof StringLeaf && frame.node.isInside(frame.state);
}

/** Milliseconds compile-time warming may take after the first mask (haggle's choice). */
const WARM_BUDGET_MS = 20;
/** How many opened strings' inside masks compile-time warming computes at most. */
const WARM_LIMIT = 16;
/** Subtrees this large (in trie nodes) where a string opens take its staying tokens from the cache. */
const OPENING_SUBTREE = 64;
