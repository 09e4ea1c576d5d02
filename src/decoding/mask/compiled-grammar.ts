import { BoundedCache } from '../../internal/bounded-cache.js';
import { KeyLeaf } from '../grammar/key-leaf.js';
import { LiteralLeaf, WhitespaceLeaf } from '../grammar/literal-leaf.js';
import {
  DEAD,
  type GrammarNode,
  type Leaf,
  ListNode,
  type ListState,
  type Shortest,
} from '../grammar/nodes.js';
import { NumberLeaf } from '../grammar/number-leaf.js';
import { AbortCheck } from '../grammar/search-budget.js';
import {
  canComplete,
  dedupe,
  enter,
  Frame,
  finish,
  ownKey,
  seenValues,
  setKey,
  stepAll,
  stepFrame,
  stepFrames,
} from '../grammar/stack-machine.js';
import { StringLeaf } from '../grammar/string-leaf.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import { type DecoderVocabulary, maskWords } from '../vocabulary/vocabulary.js';
import type { InsideCache } from './inside-cache.js';
import type { MatcherGrammar } from './matcher-grammar.js';

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
  /** @internal The inside-string masks shared by every grammar over the vocabulary. */
  readonly inside: InsideCache;
}

/** A JSON Schema compiled against a vocabulary: gives the mask of allowed tokens for each decoder state. */
export class CompiledGrammar implements MatcherGrammar {
  /** Words of a mask (`Uint32Array` length). */
  readonly maskWords: number;
  readonly vocabularySize: number;
  private readonly masks: BoundedCache<string, Uint32Array>;
  /** The abort check of the mask being computed (set by `maskFor` for the length of one walk). */
  private abortCheck: AbortCheck | undefined;
  /**
   * Masks computed at compile time (`precompute`), by position key: token ids ascending (Int32Array)
   * where fewer than a bitset's words, else the bitset. Never evicted: they are what a sequence that
   * stays on the schema's beaten track reads.
   */
  private readonly precomputed = new Map<string, Int32Array | Uint32Array>();
  /** Tokens that stay inside a string, by the string's own state (shared by all grammars). */
  private readonly inside: InsideCache;
  private readonly quotes: TokenTrie;
  private readonly eos: readonly number[];
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
    this.masks = new BoundedCache(maskCacheSize);
    this.vocabulary = parts.vocabulary;
    this.trie = parts.trie;
    this.vocabularySize = parts.vocabulary.tokens.length;
    this.maskWords = maskWords(this.vocabularySize);
    this.eos = parts.vocabulary.eosTokenIds;
    this.quotes = parts.quotes;
    this.inside = parts.inside;
  }

  /** @internal The positions at the start of the document, where every `GrammarMatcher` begins. */
  startFrames(): Frame[] {
    const start: Frame[] = [];
    enter(this.root, null, start);
    return start;
  }

  /**
   * See `CompileOptions.warm`. The opening of every string first (most share one mask, computed once
   * per vocabulary), then further pattern states, until `WARM_LIMIT` states have been warmed or
   * `WARM_BUDGET_MS` have passed since the first mask: warming is a head start, and the inside mask of
   * a long pattern (`(\S+\s+){0,199}`) can take most of a second each, which time to first mask should
   * not pay sixteen times over.
   */
  warm(nodes: readonly GrammarNode[]): void {
    this.maskFor(this.startFrames());
    // One deadline for all of it, also handed to the walks themselves: the inside mask of one long
    // pattern state can take tens of milliseconds, so checking between masks alone let warming run
    // far past its budget (a walk cut short is dropped, and decoding computes it when it needs it).
    const deadline = performance.now() + WARM_BUDGET_MS;
    const leaves = nodes.filter((node): node is StringLeaf => node instanceof StringLeaf);
    const queues: Array<unknown[] | undefined> = [];
    let warmed = 0;
    for (let round = 0; round < 8; round++) {
      for (const [i, leaf] of leaves.entries()) {
        if (warmed >= WARM_LIMIT || performance.now() > deadline) return;
        // The pattern states beyond the opening only once the openings of every string are done.
        let states = queues[i];
        if (states === undefined || (round === 1 && states.length === 1)) {
          states = leaf.warmStates(round === 0 ? 1 : 8, deadline);
          queues[i] = states;
        }
        if (round >= states.length) continue;
        warmed++;
        // A walk begun within the budget may finish up to WARM_WALK_MS later: the first pass of a
        // pattern is also the code's first run in the process (tens of milliseconds before the JIT
        // has tiered up, one afterwards), and a walk cut short is work thrown away.
        const walkDeadline = Math.max(deadline, performance.now() + WARM_WALK_MS);
        if (!this.inside.warm(leaf, states[round], walkDeadline)) return;
      }
    }
  }

  /**
   * Computes at compile time the masks of the positions a sequence can reach outside strings (see
   * `CompileOptions.precompute`), breadth first from the start: the successors of a position are the
   * positions after each byte its mask allows (a byte-level vocabulary has a token for every byte, so
   * every position a tokenisation can stop at is among them). A string is not explored inside (its
   * inside masks are shared and warmed apart) but stepped over by its shortest completion, so the
   * positions after it are reached.
   */
  precompute(positions: number, timeMs: number): void {
    if (positions <= 0) return;
    const started = performance.now();
    const horizon = this.trie.maxTokenBytes;
    const start: Frame[] = [];
    enter(this.root, null, start);
    // Two queues, each breadth first: the document's skeleton (values entered and stepped over) before
    // the inside of numbers (each digit a position, hundreds for a price), so that a budget spent on
    // one number's digits does not leave every later key and string opening to decoding time.
    const skeleton: Frame[][] = [dedupe(start)];
    const digits: Frame[][] = [];
    const seen = new Set<string>([setKey(skeleton[0] as Frame[], horizon)]);
    const scratch = new Uint32Array(this.maskWords);
    const visit = (frames: Frame[], inside = false) => {
      if (frames.length === 0) return;
      const key = setKey(frames, horizon);
      if (seen.has(key)) return;
      seen.add(key);
      (inside ? digits : skeleton).push(frames);
    };
    const deadline = started + timeMs;
    let skeletonHead = 0;
    let digitsHead = 0;
    for (let head = 0; skeletonHead < skeleton.length || digitsHead < digits.length; head++) {
      if (this.precomputed.size >= positions || head >= 4 * positions) break;
      if (performance.now() > deadline) break;
      const frames = (
        skeletonHead < skeleton.length ? skeleton[skeletonHead++] : digits[digitsHead++]
      ) as Frame[];
      const strings = frames.filter(isInsideString);
      if (strings.length > 0) {
        // Just inside a string value's opening quote, its mask too: every sequence that writes the
        // string reads it, and its closing tokens are walked with the whole parser (a few hundred µs
        // for a message), where its inside part is already warm and shared.
        if (
          frames.every(justOpened) &&
          strings.every((f) => this.inside.warm(f.node as StringLeaf, f.state, deadline))
        ) {
          this.store(frames, horizon);
        }
        // Step over a string value by its shortest completion: what follows it does not depend on what
        // it says. Not over a key: what follows a key depends on which key it is (a search for each
        // would cost more than it saves), so an object read by name is left to decoding time.
        for (const frame of strings) {
          if (frame.node instanceof KeyLeaf) continue;
          const bytes = (frame.node as StringLeaf).completion(frame.state);
          if (bytes !== null && bytes.length > 0) visit(this.advance([frame], bytes));
        }
        continue;
      }
      // Free whitespace and the rest: their masks are walks of the trie, left to decoding time (cached
      // there too), and so is what follows them. A string about to open reads only its quote, so a
      // position with one (a list of strings: an item or `]`) is as cheap as a literal's, and its
      // successors below include the string's inside (then over it, above).
      if (!frames.every((frame) => hasShortcut(frame) || opensString(frame))) continue;
      const mask = this.store(frames, horizon, scratch);
      for (const [b, id] of this.byteTokens()) {
        if (((mask[id >>> 5] as number) & (1 << (id & 31))) === 0) continue;
        const next = dedupe(stepAll(frames, b));
        visit(next, next.some(insideNumber));
      }
      // A number about to start: over it too, by its shortest completion, to what follows it.
      for (const frame of frames) {
        if (frame.node instanceof NumberLeaf && frame.state === '') {
          visit(this.advance([frame], frame.node.completion(frame.state)));
        }
      }
    }
    this.stats.precomputeMs += performance.now() - started;
  }

  /**
   * The mask of `frames`, computed and kept with the precomputed ones unless already known. `scratch`
   * (all words written) serves positions outside strings, whose mask is kept only in compact form.
   */
  private store(frames: Frame[], horizon: number, scratch?: Uint32Array): Uint32Array {
    const key = setKey(frames, horizon);
    const known = this.masks.get(key);
    if (known !== undefined) return known;
    const mask = scratch === undefined ? this.computeMask(frames) : this.outsideMask(frames, scratch.fill(0));
    this.precomputed.set(key, compact(mask));
    this.stats.precomputed++;
    return mask;
  }

  /** The positions after reading `bytes` from `frames` (empty when refused). */
  private advance(frames: Frame[], bytes: readonly number[]): Frame[] {
    let at = frames;
    for (const b of bytes) {
      at = dedupe(stepAll(at, b));
      if (at.length === 0) break;
    }
    return at;
  }

  /** The tokens of one byte each, as [byte, token id] (one per byte value a byte-level vocabulary has). */
  private byteTokens(): Array<[number, number]> {
    if (this.singleBytes === undefined) {
      const out: Array<[number, number]> = [];
      for (let b = 0; b < 256; b++) {
        const node = this.trie.child(0, b);
        const id = node < 0 ? -1 : (this.trie.token[node] as number);
        if (id >= 0) out.push([b, id]);
      }
      this.singleBytes = out;
    }
    return this.singleBytes;
  }
  private singleBytes: Array<[number, number]> | undefined;

  /**
   * Bytes held by this grammar's own caches: the masks kept after use and the precomputed ones, with
   * their keys. The token trie and the inside-string masks are shared by every grammar over the
   * vocabulary and not counted here.
   */
  cacheBytes(): number {
    let bytes = 0;
    for (const [key, mask] of this.masks) bytes += mask.byteLength + 2 * key.length;
    for (const [key, mask] of this.precomputed) bytes += mask.byteLength + 2 * key.length;
    return bytes;
  }

  /** The allowed tokens at a position: from the caches, or by one pass over the trie. Read-only. */
  maskFor(frames: readonly Frame[], signal?: AbortSignal): Uint32Array {
    const key = setKey(frames, this.trie.maxTokenBytes);
    const cached = this.masks.get(key);
    if (cached) {
      this.stats.hits++;
      return cached;
    }
    const stored = this.precomputed.get(key);
    let mask: Uint32Array;
    if (stored !== undefined) {
      this.stats.hits++;
      mask = expand(stored, this.maskWords);
    } else {
      this.stats.misses++;
      // The walk looks at the caller's abort as it goes (an enum of thousands of values is walked
      // value by value); nested walks (unionMask) keep the outer one's check.
      const outer = this.abortCheck;
      if (signal !== undefined && outer === undefined) this.abortCheck = new AbortCheck(signal);
      try {
        mask = this.computeMask(frames);
      } finally {
        this.abortCheck = outer;
      }
    }
    this.masks.set(key, mask);
    return mask;
  }

  /**
   * `maskFor` copied into `out` (all words written). A precomputed mask is written straight from its
   * token ids, without making a bitset to keep: as cheap as copying one.
   */
  fillMaskFor(frames: readonly Frame[], out: Uint32Array, signal?: AbortSignal): Uint32Array {
    const key = setKey(frames, this.trie.maxTokenBytes);
    const cached = this.masks.get(key) ?? this.precomputed.get(key);
    if (cached === undefined) {
      out.set(this.maskFor(frames, signal));
      return out;
    }
    this.stats.hits++;
    if (cached instanceof Uint32Array) out.set(cached);
    else {
      out.fill(0);
      for (let i = 0; i < cached.length; i++) {
        const id = cached[i] as number;
        out[id >>> 5] = (out[id >>> 5] as number) | (1 << (id & 31));
      }
    }
    return out;
  }

  /**
   * The mask of a position computed afresh by the generic pass over the whole trie, without the caches
   * or the per-leaf shortcuts of `computeMask`: the reference the tests hold the shortcuts to.
   * @internal
   */
  referenceMask(frames: readonly Frame[]): Uint32Array {
    const mask = new Uint32Array(this.maskWords);
    this.walk(this.trie, frames, mask, 0, false);
    if (frames.some(canComplete)) {
      for (const id of this.eos) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
    }
    return mask;
  }

  private computeMask(frames: readonly Frame[]): Uint32Array {
    // Near a repeat that would fill a unique string, the shared inside masks would let it through.
    if (frames.some((frame) => this.mayFillRepeat(frame))) return this.referenceMask(frames);
    if (frames.length > 1 && frames.some(isInsideString)) return this.unionMask(frames);
    const top = frames.length === 1 ? (frames[0] as Frame) : null;
    if (top && top.node instanceof StringLeaf && top.node.isInside(top.state)) {
      // Inside a string: tokens that stay inside depend on the string alone (cached across contexts);
      // only tokens holding a quote can reach what follows, and they are few.
      const mask = this.inside.mask(top.node, top.state).slice();
      this.walk(this.quotes, frames, mask);
      return mask;
    }
    return this.outsideMask(frames, new Uint32Array(this.maskWords));
  }

  private mayFillRepeat(frame: Frame): boolean {
    const leaf = frame.node;
    if (!(leaf instanceof StringLeaf) || !leaf.keepsValue) return false;
    const seen = seenValues(frame);
    return seen !== null && seen.length > 0 && leaf.mayFillRepeat(frame.state, seen, this.trie.maxTokenBytes);
  }

  /** The mask of positions outside strings, set in `mask` (all zero on entry). */
  private outsideMask(frames: readonly Frame[], mask: Uint32Array): Uint32Array {
    this.below(0, frames, mask);
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
   * Sets the bits of the tokens below trie node `node` (their bytes after it) that `frames` accept, one
   * frame at a time (a token is allowed when one of the positions takes it), each the cheapest way its
   * leaf allows: a literal (key, punctuation, enum value) follows its own bytes down the trie, a leaf of
   * a few bytes (number, whitespace) looks up only those bytes, and where either ends, what follows
   * goes on from that trie node the same way. Other leaves (strings) take the generic walk, together.
   */
  private below(node: number, frames: readonly Frame[], mask: Uint32Array): void {
    const generic: Frame[] = [];
    const check = this.abortCheck;
    for (const frame of frames) {
      check?.tick();
      const leaf = frame.node;
      if (leaf === null) continue; // the document is complete: it reads nothing more
      if (leaf instanceof LiteralLeaf) this.literalBelow(node, frame, mask);
      else if (leaf instanceof WhitespaceLeaf && !frame.endings().every(hasShortcut)) {
        // Whitespace before a value: what follows it is walked from every whitespace run of the trie,
        // which costs more than stepping the whitespace along in one walk.
        generic.push(frame);
      } else if (leaf.kind === 'leaf' && leaf.alphabet() !== null) {
        this.alphabetBelow(node, frame, leaf, frame.state, frame, mask);
      } else generic.push(frame);
    }
    if (generic.length > 0) this.walk(this.trie, generic, mask, node);
  }

  /**
   * A literal's tokens below `node`: those spelling a prefix of the rest of the literal (one trie path),
   * and those that run past its end, from the trie node where it ends with the positions that follow.
   */
  private literalBelow(node: number, frame: Frame, mask: Uint32Array): void {
    const leaf = frame.node as LiteralLeaf;
    const bytes = leaf.bytes;
    let at = node;
    for (let k = frame.state as number; k < bytes.length; k++) {
      at = this.trie.child(at, bytes[k] as number);
      if (at < 0) return;
      if (k + 1 < bytes.length) {
        this.setToken(at, mask);
        continue;
      }
      const after: Frame[] = [];
      stepFrame(new Frame(leaf, k, frame.parent), bytes[k] as number, after);
      if (after.length === 0) return;
      this.setToken(at, mask);
      this.below(at, after, mask);
    }
  }

  /**
   * A leaf of a small alphabet (a number) below trie node `at`, in `state` (`here`: its frame, when
   * there is one): only its bytes are looked up in the trie, the leaf stepped along each path it takes;
   * wherever it may end, what follows it goes on from there.
   */
  private alphabetBelow(
    at: number,
    frame: Frame,
    leaf: Leaf,
    state: unknown,
    here: Frame | null,
    mask: Uint32Array,
  ): void {
    const ended = here ?? new Frame(leaf, state, frame.parent);
    if (ended.canEnd()) this.below(at, ended.endings(), mask);
    const trie = this.trie;
    const stop = trie.end[at] as number;
    if (stop - at > CROWDED_SUBTREE) {
      // The root and other crowded nodes: look the leaf's few bytes up.
      for (const b of leaf.alphabet() as readonly number[]) {
        const child = trie.child(at, b);
        if (child >= 0) this.alphabetStep(child, b, frame, leaf, state, mask);
      }
    } else {
      // A node with few children (most): scan them for the leaf's bytes.
      const bytes = byteSet(leaf.alphabet() as readonly number[]);
      for (let child = at + 1; child < stop; child = trie.end[child] as number) {
        const b = trie.byte[child] as number;
        if (bytes[b] === 1) this.alphabetStep(child, b, frame, leaf, state, mask);
      }
    }
  }

  /** `alphabetBelow`'s leaf reading byte `b` along the trie edge into `child`. */
  private alphabetStep(
    child: number,
    b: number,
    frame: Frame,
    leaf: Leaf,
    state: unknown,
    mask: Uint32Array,
  ): void {
    const next = leaf.step(state, b);
    if (next === DEAD) return;
    if (!leaf.mustEnd(next)) {
      this.setToken(child, mask);
      this.alphabetBelow(child, frame, leaf, next, null, mask);
      return;
    }
    const after: Frame[] = [];
    finish(frame.parent, leaf.valueKey(next), after);
    if (after.length === 0) return;
    this.setToken(child, mask);
    this.below(child, after, mask);
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
  private walk(trie: TokenTrie, frames: readonly Frame[], mask: Uint32Array, root = 0, shared = true): void {
    const { byte, depth, end, quoteBelow } = trie;
    const strings = shared && trie === this.trie;
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
    const check = this.abortCheck;
    while (i < nodeCount) {
      check?.tick();
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

/**
 * Whether a frame's mask comes from a per-leaf shortcut (a literal, a number; see `below`), the
 * positions `precompute` stores: the enum values, keys, punctuation and numbers XGrammar and
 * llguidance precompute too. The document's end reads nothing.
 */
function hasShortcut(frame: Frame): boolean {
  const node = frame.node;
  // Free whitespace has a shortcut too, but what follows it is every value: left to decoding time.
  return (
    node === null ||
    node instanceof LiteralLeaf ||
    (node.kind === 'leaf' && !(node instanceof WhitespaceLeaf) && node.alphabet() !== null)
  );
}

/** Whether a frame reads a string value (not a key: what follows a key depends on which it is). */
function isStringValue(frame: Frame): frame is Frame & { node: StringLeaf } {
  return frame.node instanceof StringLeaf && !(frame.node instanceof KeyLeaf);
}

/** Whether a frame is a string value before its opening quote. */
function opensString(frame: Frame): boolean {
  return (
    isStringValue(frame) && frame.node.step(frame.state, 0x22) !== DEAD && !frame.node.isInside(frame.state)
  );
}

/** Whether a frame is a number that has read a byte (its later positions go after the skeleton's). */
function insideNumber(frame: Frame): boolean {
  return frame.node instanceof NumberLeaf && frame.state !== '';
}

/** Whether a frame is a string value right after its opening quote. */
function justOpened(frame: Frame): boolean {
  return (
    isStringValue(frame) && frame.node.isInside(frame.state) && (frame.state as { units: number }).units === 0
  );
}

function isInsideString(frame: Frame): boolean {
  return frame.node instanceof StringLeaf && frame.node.isInside(frame.state);
}

/** Milliseconds compile-time warming may start walks for after the first mask (haggle's choice). */
const WARM_BUDGET_MS = 20;
/**
 * Milliseconds one warming walk may take once started, even past `WARM_BUDGET_MS` (haggle's choice):
 * enough for a short pattern's first pass on a loaded machine (1 ms quiet for the turn's label pattern,
 * 8-17 ms measured before the JIT had compiled it), not for a long counted pattern's (hundreds), which
 * decoding computes when it needs it.
 */
const WARM_WALK_MS = 25;
/** Nodes with subtrees larger than this have their children looked up by byte rather than scanned. */
const CROWDED_SUBTREE = 4096;

/**
 * Module-level on purpose: keyed by the leaves' alphabets, a few module constants (number bytes,
 * whitespace), so it holds a few 256-byte tables whatever the vocabulary or the schemas.
 */
const byteSets = new WeakMap<readonly number[], Uint8Array>();
/** An alphabet as a 256-entry membership table (cached: alphabets are constant arrays). */
function byteSet(alphabet: readonly number[]): Uint8Array {
  let set = byteSets.get(alphabet);
  if (set === undefined) {
    set = new Uint8Array(256);
    for (const b of alphabet) set[b] = 1;
    byteSets.set(alphabet, set);
  }
  return set;
}

/** A mask as stored by `precompute`: its token ids when they take less room than the bitset. */
function compact(mask: Uint32Array): Int32Array | Uint32Array {
  const ids: number[] = [];
  for (let w = 0; w < mask.length; w++) {
    let x = mask[w] as number;
    if (x === 0) continue;
    if (ids.length > mask.length) return mask.slice(); // denser than a bitset: keep the bitset
    while (x !== 0) {
      ids.push((w << 5) + (31 - Math.clz32(x & -x)));
      x &= x - 1;
    }
  }
  return Int32Array.from(ids);
}

/** A stored mask as a bitset (a fresh array: the stored form is kept). */
function expand(stored: Int32Array | Uint32Array, words: number): Uint32Array {
  if (stored instanceof Uint32Array) return stored.slice();
  const mask = new Uint32Array(words);
  for (let i = 0; i < stored.length; i++) {
    const id = stored[i] as number;
    mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
  }
  return mask;
}

/** Default most positions `precompute` stores per grammar (haggle's choice: see CompileOptions). */
export const PRECOMPUTE_POSITIONS = 512;
/**
 * Default most milliseconds `precompute` spends per grammar (haggle's choice). The agent's offer schemas
 * finish their few hundred positions well within it; a grammar whose positions never run out (an enum
 * number in every spelling JSON allows: `300`, `300.0`, `3e2`, ...) stops here instead of spending a
 * quarter of a second of compile time on masks decoding would mostly never ask for.
 */
export const PRECOMPUTE_MS = 50;

/** How many opened strings' inside masks compile-time warming computes at most. */
const WARM_LIMIT = 16;
/** Subtrees this large (in trie nodes) where a string opens take its staying tokens from the cache. */
const OPENING_SUBTREE = 64;
