import { KeyLeaf } from '../grammar/key-leaf.js';
import { LiteralLeaf, WhitespaceLeaf } from '../grammar/literal-leaf.js';
import { DEAD, type Leaf, ListNode, type ListState } from '../grammar/nodes.js';
import type { AbortCheck } from '../grammar/search-budget.js';
import {
  canComplete,
  Frame,
  finish,
  ownKey,
  seenValues,
  stepAll,
  stepFrame,
  stepFrames,
} from '../grammar/stack-machine.js';
import { StringLeaf } from '../grammar/string-leaf.js';
import type { QuoteSuffixes } from '../vocabulary/quote-suffixes.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import type { WhitespaceRests } from '../vocabulary/whitespace-rests.js';
import { hasShortcut, isInsideString } from './frame-kinds.js';
import type { InsideCache } from './inside-cache.js';
import { type QuotePrefixes, quotePrefixes } from './quote-prefixes.js';

/**
 * The masks of a compiled grammar computed from its positions by walking the token trie, each position
 * the cheapest way its leaf allows (see `below`), without a cache of its own: `CompiledGrammar` keeps
 * what it computes (mask-cache.ts) and asks it again only on a miss.
 */
export class TrieWalk {
  /** The abort check of the mask being computed (set by `CompiledGrammar.maskFor` for one walk). */
  abortCheck: AbortCheck | undefined;
  /** A mask `whitespaceFromRoot` reuses for what follows the whitespace, and whether one holds it. */
  private scratch: Uint32Array | undefined;
  private scratchBusy = false;
  /**
   * The token ids `outsideMask` set since `startRecording` (with repeats), or null when not recording:
   * the precompute's compact form of a mask without a scan of all its words (most of a position's
   * cost for an offer schema, issue 45). `recordLost`: a path set bits it does not list (free
   * whitespace, from the vocabulary's tables); the caller then scans the mask.
   */
  private recorded: number[] | null = null;
  private recordLost = false;
  /** `walk`'s positions per depth and its `covered` flags, reused by every walk of this grammar. */
  private readonly walkPositions: Frame[][] = [];
  private walkCovered = new Uint8Array(0);

  constructor(
    private readonly trie: TokenTrie,
    /** The tokens that hold a `"`: the only ones that can end a string, walked with the full parser. */
    private readonly quotes: TokenTrie,
    /** Tokens that stay inside a string, by the string's own state (shared by all grammars). */
    private readonly inside: InsideCache,
    private readonly eos: readonly number[],
    private readonly maskWords: number,
    /** The grammar's mask of positions outside strings, from its cache (`unionMask` reads it). */
    private readonly cachedMask: (frames: readonly Frame[]) => Uint32Array,
    /** The grammar's counters; the walk adds the trie nodes it visits. */
    private readonly stats: { nodesVisited: number },
    /** The vocabulary's whitespace-led tokens by their rest (built on first use, once per vocabulary). */
    private readonly whitespaceRests?: () => WhitespaceRests,
    /** The quote tokens split at their first quote (`quoteWalk`); without it, the plain walk. */
    private readonly quoteSuffixes?: QuoteSuffixes,
  ) {}

  /**
   * The mask of a position computed afresh by the generic pass over the whole trie, without the caches
   * or the per-leaf shortcuts of `computeMask`: the reference the tests hold the shortcuts to.
   */
  referenceMask(frames: readonly Frame[]): Uint32Array {
    const mask = new Uint32Array(this.maskWords);
    this.walk(this.trie, frames, mask, 0, false);
    if (frames.some(canComplete)) {
      for (const id of this.eos) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
    }
    return mask;
  }

  /** The mask of `frames` by the cheapest walk their leaves allow (no cache: `CompiledGrammar.maskFor`'s). */
  computeMask(frames: readonly Frame[]): Uint32Array {
    // Near a repeat that would fill a unique string, the shared inside masks would let it through.
    if (frames.some((frame) => this.mayFillRepeat(frame))) return this.referenceMask(frames);
    if (frames.length > 1 && frames.some(isInsideString)) return this.unionMask(frames);
    const top = frames.length === 1 ? (frames[0] as Frame) : null;
    if (top && top.node instanceof StringLeaf && top.node.isInside(top.state)) {
      // Inside a string: tokens that stay inside depend on the string alone (cached across contexts);
      // only tokens holding a quote can reach what follows, and they are few.
      const mask = this.inside.mask(top.node, top.state).slice();
      this.quoteWalk(frames, mask);
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
  outsideMask(frames: readonly Frame[], mask: Uint32Array): Uint32Array {
    this.below(0, frames, mask);
    if (frames.some(canComplete)) {
      for (const id of this.eos) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
      this.recorded?.push(...this.eos);
    }
    return mask;
  }

  /** Starts listing the token ids `outsideMask` sets (see `recorded`). */
  startRecording(): void {
    this.recorded = [];
    this.recordLost = false;
  }

  /** Stops listing: the ids set since `startRecording` (repeats possible), or null if some were not listed. */
  stopRecording(): number[] | null {
    const recorded = this.recordLost ? null : this.recorded;
    this.recorded = null;
    return recorded;
  }

  /** Lists the tokens ending at `node` of `trie` when recording (ids of the vocabulary's own trie only). */
  private recordNode(trie: TokenTrie, node: number): void {
    const recorded = this.recorded as number[];
    if (trie !== this.trie) {
      this.recordLost = true;
      return;
    }
    const id = trie.token[node] as number;
    if (id < 0) return;
    recorded.push(id);
    const more = trie.duplicates.get(node);
    if (more) recorded.push(...more);
  }

  /**
   * A token is allowed from a set of positions when one of them takes it, so the mask of a set is the
   * union of its members' masks. Inside the strings of several alternatives (`"name": "` of an anyOf of
   * objects) each string gets its cached fast path this way, where one walk of the whole set would step
   * every alternative through the whole vocabulary.
   */
  private unionMask(frames: readonly Frame[]): Uint32Array {
    const rest = frames.filter((frame) => !isInsideString(frame));
    const mask = rest.length > 0 ? this.cachedMask(rest).slice() : new Uint32Array(this.maskWords);
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
    this.quoteWalk(strings, mask);
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
      else if (leaf instanceof WhitespaceLeaf && node === 0 && this.whitespaceFromRoot(frame, mask)) {
        // Free whitespace over the whole trie: by the mask of what follows and the vocabulary's table of
        // whitespace-led tokens by rest, not by stepping down the trie's 760 whitespace runs.
      } else if (leaf instanceof WhitespaceLeaf && !frame.endings().every(hasShortcut)) {
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
   * Free whitespace (`frame`: before a value, or after one before `,`, `}` or `]`), over the whole trie,
   * set in `mask`: a token is allowed when it is allowed by what follows (its mask, computed by the
   * cheapest walk and not kept), when
   * it is whitespace alone, or when it is whitespace then a rest allowed at the value (a whitespace leaf
   * reads any run and keeps its state, so the run does not matter): a rest that is a token reads its bit
   * in the value's mask, the others are walked in their own small trie. Exact only when nothing that
   * follows the whitespace (past whitespace that may follow it) reads whitespace itself (else a token
   * could end the run midway and go on with a different rest); false, and
   * nothing set, when that does not hold or the table is not given.
   */
  private whitespaceFromRoot(frame: Frame, mask: Uint32Array): boolean {
    if (this.whitespaceRests === undefined) return false;
    // Its tokens come from whole tables, not listed one by one (see `recorded`).
    if (this.recorded !== null) this.recordLost = true;
    // Whitespace that may follow this whitespace (`[` then the list's closing `]`, after a first item's
    // place) reads any run too: one run for both, so what follows is what follows them.
    let endings = frame.endings();
    for (let round = 0; round < 4 && endings.some(isWhitespace); round++) {
      endings = endings.flatMap((f) => (isWhitespace(f) ? f.endings() : [f]));
    }
    const probe: Frame[] = [];
    for (const b of WHITESPACE) {
      stepFrames(endings, b, probe);
      if (probe.length > 0) return false;
    }
    const rests = this.whitespaceRests();
    // What follows, into the walk's one scratch mask unless a walk already holds it (a nested one) or
    // it needs `computeMask`'s own paths: a 19 kB mask made and dropped per miss doubled the typed
    // arrays a mask allocates, and the collections they brought landed in compiles.
    const own = !this.scratchBusy && !endings.some((f) => isInsideString(f) || this.mayFillRepeat(f));
    if (!own) {
      this.addFromRests(rests, endings, this.computeMask(endings), mask);
      return true;
    }
    this.scratch ??= new Uint32Array(this.maskWords);
    this.scratchBusy = true;
    try {
      this.addFromRests(rests, endings, this.outsideMask(endings, this.scratch.fill(0)), mask);
    } finally {
      this.scratchBusy = false;
    }
    return true;
  }

  /** `whitespaceFromRoot`'s tokens, from `value`, the mask of what follows the whitespace. */
  private addFromRests(
    rests: WhitespaceRests,
    endings: readonly Frame[],
    value: Uint32Array,
    mask: Uint32Array,
  ): void {
    rests.addWithVariants(value, mask);
    for (const id of rests.whitespaceOnly) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
    // The rests that are no token: only below first bytes that are allowed (a byte-level vocabulary
    // has each byte as a token, and a mask allows a token that is a viable prefix).
    const after: Frame[] = [];
    for (const { byte, node: head, byteToken } of rests.orphanHeads) {
      if (byteToken >= 0 && (((value[byteToken >>> 5] as number) >>> (byteToken & 31)) & 1) === 0) continue;
      while (after.length > 0) after.pop();
      stepFrames(endings, byte, after);
      if (after.length > 0) this.walk(rests.orphans, after, mask, head, false);
    }
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
    if (this.recorded !== null) this.recordNode(this.trie, node);
  }

  /**
   * Sets the bits of the tokens holding a `"` that `frames` (inside strings) accept: the walk of the
   * quotes trie, except that below a first quote whose positions after it were met before in this walk
   * (the same frame objects: a string value's closing quote leads to the same frames whatever text came
   * before it), the tokens are allowed by their suffix, from one walk of the suffix trie from those
   * positions (`QuoteSuffixes`), not by a walk of that quote's own subtree. Positions met once are
   * walked as before (a key's closing quote leads to frames of its own for each key text, and one walk
   * of the whole suffix trie would cost more than the few suffixes below one prefix).
   */
  private quoteWalk(frames: readonly Frame[], mask: Uint32Array): void {
    const split = this.quoteSuffixes;
    if (split === undefined || split.quotes !== this.quotes) {
      this.walk(this.quotes, frames, mask);
      return;
    }
    const trie = this.quotes;
    const top = frames.length === 1 ? (frames[0] as Frame) : null;
    if (top !== null && top.node instanceof KeyLeaf && top.node.closesByName(top.state)) {
      this.freeKeyQuoteWalk(top, split, mask);
      return;
    }
    if (
      top !== null &&
      top.node instanceof StringLeaf &&
      top.node.closesAnywhere(top.state, trie.maxTokenBytes)
    ) {
      this.freeStringQuoteWalk(top, split, mask);
      return;
    }
    const { byte, depth, end } = trie;
    const { firstQuote } = split;
    const positions: Frame[][] = [];
    for (let d = 0; d <= trie.maxTokenBytes; d++) positions.push([]);
    positions[0] = [...frames];
    // The positions after each first quote met, and the suffixes they accept once walked a second time.
    const met: Array<{ frames: Frame[]; accepted: Uint32Array | null }> = [];
    const nodeCount = trie.nodeCount;
    let visited = 0;
    let i = 1;
    const check = this.abortCheck;
    while (i < nodeCount) {
      check?.tick();
      const d = depth[i] as number;
      visited++;
      const next = positions[d] as Frame[];
      while (next.length > 0) next.pop();
      stepFrames(positions[d - 1] as Frame[], byte[i] as number, next);
      if (next.length === 0) {
        i = end[i] as number;
        continue;
      }
      if (firstQuote[i] === 1) {
        const entry = met.find((m) => sameFrames(m.frames, next));
        if (entry === undefined) {
          if (met.length < QUOTE_MEMO) met.push({ frames: [...next], accepted: null });
        } else {
          entry.accepted ??= this.acceptedSuffixes(split, next);
          this.markBySuffix(split, i, entry.accepted, mask);
          i = end[i] as number;
          continue;
        }
      }
      trie.markTokens(mask, i);
      i++;
    }
    this.stats.nodesVisited += visited;
  }

  /** The suffixes (ids of `split.suffixes`) that `after`, the positions after a first quote, accept. */
  private acceptedSuffixes(split: QuoteSuffixes, after: readonly Frame[]): Uint32Array {
    const accepted = new Uint32Array(split.words);
    this.walk(split.suffixes, after, accepted, split.quoteNode, false);
    // The suffix `"` alone ends at the walk's root, which it does not mark: the quote was read.
    split.suffixes.markTokens(accepted, split.quoteNode);
    return accepted;
  }

  /** Sets the tokens below first quote `node` of the quotes trie whose suffix is `accepted`. */
  private markBySuffix(split: QuoteSuffixes, node: number, accepted: Uint32Array, mask: Uint32Array): void {
    const trie = this.quotes;
    const stop = trie.end[node] as number;
    const suffixOf = split.suffixOf;
    for (let n = node; n < stop; n++) {
      const sid = suffixOf[n] as number;
      if (sid >= 0 && (((accepted[sid >>> 5] as number) >>> (sid & 31)) & 1) === 1) trie.markTokens(mask, n);
    }
  }

  /**
   * `quoteWalk` for one key that `closesByName` (any undeclared key allowed: the keys of most large
   * objects): the texts before the first quotes that such a key reads and closes after come from the
   * vocabulary's list (`QuotePrefixes`, made once), each looked up in the key's name trie for the
   * value its closing reports; the tokens below are then allowed by their suffix, from one walk of the
   * suffix trie per distinct value met twice (the positions after the quote are `finish`'s, the same
   * frames for the same value), else by a walk of that quote's own subtree. Tokens the key reads inside
   * (their quotes escaped) are in the list too.
   */
  private freeKeyQuoteWalk(top: Frame, split: QuoteSuffixes, mask: Uint32Array): void {
    const leaf = top.node as KeyLeaf;
    const prefixes = quotePrefixes(split, 'key', leaf, leaf.offNames(top.state));
    const trie = this.quotes;
    const check = this.abortCheck;
    const met = new Map<string, { after: Frame[]; accepted: Uint32Array | null }>();
    for (const node of prefixes.staying) trie.markTokens(mask, node);
    for (const { node, first, codePoints } of prefixes.closing) {
      check?.tick();
      const value = leaf.closeAfter(top.state, codePoints);
      if (value === undefined) continue;
      let entry = met.get(value);
      if (entry === undefined || !first) {
        if (entry === undefined) {
          const after: Frame[] = [];
          finish(top.parent, value, after);
          entry = { after, accepted: null };
          met.set(value, entry);
        }
        if (entry.after.length === 0) continue;
        // Met once so far (or after an escaped quote, where the suffixes are not the first quote's): its
        // own subtree, a few suffixes (cheaper than the whole suffix trie).
        trie.markTokens(mask, node);
        this.walk(trie, entry.after, mask, node, false);
        continue;
      }
      if (entry.after.length === 0) continue;
      entry.accepted ??= this.acceptedSuffixes(split, entry.after);
      this.markBySuffix(split, node, entry.accepted, mask);
    }
    this.walkUndecoded(top, prefixes, mask);
    this.stats.nodesVisited += prefixes.staying.length + prefixes.closing.length;
  }

  /**
   * `quoteWalk` for one string value that `closesAnywhere` (a free string): the tokens it reads inside
   * and its closing quotes come from the vocabulary's list (`QuotePrefixes`, made once), and every
   * closing leads to the same positions (`finish`'s, the value not kept), so the tokens below a first
   * quote are allowed by their suffix, from one walk of the suffix trie from those positions.
   */
  private freeStringQuoteWalk(top: Frame, split: QuoteSuffixes, mask: Uint32Array): void {
    const prefixes = quotePrefixes(split, 'string', top.node as StringLeaf, top.state);
    const trie = this.quotes;
    for (const node of prefixes.staying) trie.markTokens(mask, node);
    const after: Frame[] = [];
    finish(top.parent, undefined, after);
    if (after.length > 0) {
      const accepted = this.acceptedSuffixes(split, after);
      const check = this.abortCheck;
      for (const { node, first } of prefixes.closing) {
        check?.tick();
        if (first) this.markBySuffix(split, node, accepted, mask);
        else {
          // After an escaped quote: the suffixes are not the first quote's, so its own subtree.
          trie.markTokens(mask, node);
          this.walk(trie, after, mask, node, false);
        }
      }
    }
    this.walkUndecoded(top, prefixes, mask);
    this.stats.nodesVisited += prefixes.staying.length + prefixes.closing.length;
  }

  /** The closing quotes of `prefixes` whose text did not decode, walked from the positions after their bytes. */
  private walkUndecoded(top: Frame, prefixes: QuotePrefixes, mask: Uint32Array): void {
    const trie = this.quotes;
    for (const { node, bytes } of prefixes.walked) {
      let at: Frame[] = [top];
      for (let k = 0; k < bytes.length && at.length > 0; k++) at = stepAll(at, bytes[k] as number);
      if (at.length === 0) continue;
      trie.markTokens(mask, node);
      this.walk(trie, at, mask, node, false);
    }
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
    // Kept from walk to walk (a walk never starts inside another): a key's quote walk makes one per name
    // its text may close on, and fresh arrays for each were a tenth of its time in collections.
    const positions = this.walkPositions;
    while (positions.length <= trie.maxTokenBytes) positions.push([]);
    if (this.walkCovered.length <= trie.maxTokenBytes)
      this.walkCovered = new Uint8Array(trie.maxTokenBytes + 1);
    // covered[d]: the path's first d bytes end inside a string whose staying tokens are already set
    // (read only below a node the walk has set it for, the root's set here).
    const covered = this.walkCovered;
    covered[depth[root] as number] = 0;
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
      // Emptied by pops: setting `length` took a slow runtime call, about a tenth of a miss's CPU.
      while (next.length > 0) next.pop();
      stepFrames(from, b, next);
      if (next.length === 0) {
        i = end[i] as number; // the whole subtree shares a refused prefix
        continue;
      }
      trie.markTokens(mask, i);
      if (this.recorded !== null) this.recordNode(trie, i);
      covered[d] = 0;
      if (strings && (end[i] as number) - i > 1 && next.every(isInsideString)) {
        // Inside one string, or several (the alternatives of an anyOf): a token stays open when one of
        // them keeps it open, so the staying tokens are the union of each string's.
        if (covered[d - 1] === 1) covered[d] = 1;
        else if ((end[i] as number) - i >= OPENING_SUBTREE) {
          for (const frame of next) {
            const ids = this.inside.idsBelow(i, frame.node as StringLeaf, frame.state);
            for (const id of ids) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
            if (this.recorded !== null) for (const id of ids) this.recorded.push(id);
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

/** Whether two sets of positions are the same frame objects in the same order. */
function sameFrames(a: readonly Frame[], b: readonly Frame[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** Most distinct positions after a first quote `quoteWalk` remembers in one walk (haggle's choice). */
const QUOTE_MEMO = 8;

const isWhitespace = (frame: Frame): boolean => frame.node instanceof WhitespaceLeaf;

/** JSON's whitespace bytes, which a free-whitespace leaf reads. */
const WHITESPACE = [0x09, 0x0a, 0x0d, 0x20] as const;

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

/** Subtrees this large (in trie nodes) where a string opens take its staying tokens from the cache. */
const OPENING_SUBTREE = 64;
