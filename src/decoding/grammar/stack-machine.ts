import { DEAD, type GrammarNode, type Leaf, ListNode, type ListState } from './nodes.js';

/**
 * A parse position: a persistent stack of frames whose top is always a leaf (the node reading the next
 * byte), or `COMPLETE` once the whole document is read. Frames are immutable and share their parents,
 * so stepping a byte allocates one frame and keeping old positions (rollback) costs nothing.
 */
export class Frame {
  private cachedKey: string | undefined;
  private cachedHorizon = -1;
  private cachedEndings: Frame[] | undefined;
  private cachedFinishes: Map<string | undefined, Frame[]> | undefined;
  constructor(
    readonly node: GrammarNode | null,
    readonly state: unknown,
    readonly parent: Frame | null,
  ) {}

  /** A key equal for positions no token can tell apart (see `Leaf.key`). */
  key(horizon: number): string {
    // The exact key (dedupe, infinite horizon) and the mask cache's (the longest token) are both asked
    // for every position, through its parents too: each keeps its own slot, so neither evicts the other.
    if (horizon === Number.POSITIVE_INFINITY) {
      if (this.cachedExactKey === undefined) {
        const own = ownKey(this, horizon);
        this.cachedExactKey = this.parent === null ? own : `${own}|${this.parent.key(horizon)}`;
      }
      return this.cachedExactKey;
    }
    if (this.cachedKey === undefined || this.cachedHorizon !== horizon) {
      this.cachedHorizon = horizon;
      const own = ownKey(this, horizon);
      this.cachedKey = this.parent === null ? own : `${own}|${this.parent.key(horizon)}`;
    }
    return this.cachedKey;
  }
  private cachedExactKey: string | undefined;

  /**
   * Whether the frame's leaf may end here, kept: a mask steps the same frame with every byte the trie
   * offers next, and a number's `canEnd` parses its text each time.
   */
  canEnd(): boolean {
    if (this.cachedCanEnd === undefined) {
      const leaf = this.node as Leaf | null;
      this.cachedCanEnd = leaf?.canEnd(this.state) === true;
    }
    return this.cachedCanEnd;
  }
  private cachedCanEnd: boolean | undefined;

  /**
   * Whether the value of a child ending here is read: by this frame's node, or through transparent
   * nodes (choices, references) by the first node above that is not. Kept: asked at every ending.
   */
  readsValue(): boolean {
    if (this.cachedReadsValue === undefined) {
      let reads = false;
      for (let f: Frame | null = this; f !== null; f = f.parent) {
        const node = f.node;
        if (node === null || node.kind === 'leaf') break;
        if (node.readsValue(f.state)) {
          reads = true;
          break;
        }
        if (!node.transparent) break;
      }
      this.cachedReadsValue = reads;
    }
    return this.cachedReadsValue;
  }
  private cachedReadsValue: boolean | undefined;

  /** @internal The frames `finish` reached from this frame, by value (see `finishedFrames`). */
  finishMemo(): Map<string | undefined, Frame[]> {
    this.cachedFinishes ??= new Map();
    return this.cachedFinishes;
  }

  /**
   * The positions after ending this frame's leaf here (for a leaf that `canEnd`): what follows a number
   * or optional whitespace. Kept, because a mask steps the same frame with every byte the trie offers
   * next, and each would otherwise rebuild the same frames (the enclosing lists, objects and choices).
   */
  endings(): readonly Frame[] {
    if (this.cachedEndings === undefined) {
      const out: Frame[] = [];
      const leaf = this.node as Leaf;
      finish(this.parent, leaf.valueKey(this.state), out);
      this.cachedEndings = out;
    }
    return this.cachedEndings;
  }
}

/**
 * The part of `frame.key` that is the frame's own (its node and state), without its parents'. A unique
 * item's key depends on the values already in its list (held by the list's frame), so they are in it.
 */
export function ownKey(frame: Frame, horizon: number): string {
  const node = frame.node;
  if (node === null) return '$';
  const seen = frame.parent?.node instanceof ListNode ? (frame.parent.state as ListState).seen : null;
  return `${node.id}:${node.key(frame.state, horizon, seen)}`;
}

/** Values longer than this (strings kept for `uniqueItems`) are not worth remembering `finish` by. */
const FINISH_MEMO_VALUE = 64;

/**
 * `finish` for a frame, remembered by the value that ended its child: every token that closes the same
 * key or string (`":`, `",`, `"}`, with any text before the quote) lands on the same frames, which
 * would otherwise be rebuilt through the object, list and choice nodes for each of them.
 */
function finishedFrames(frame: Frame, read: string | undefined): readonly Frame[] {
  // A value no enclosing node reads (a number's, a string's outside keys and unique items) ends the
  // child like any other: one memo entry for all, where a mask walking a number's digits would make
  // a new one for each text it passes.
  const value = read !== undefined && frame.readsValue() ? read : undefined;
  if (value !== undefined && value.length > FINISH_MEMO_VALUE) {
    const out: Frame[] = [];
    advanceFrame(frame, value, out);
    return out;
  }
  const memo = frame.finishMemo();
  let frames = memo.get(value);
  if (frames === undefined) {
    frames = [];
    advanceFrame(frame, value, frames);
    memo.set(value, frames);
  }
  return frames;
}

/** The position after the last byte of the document. */
export const COMPLETE = new Frame(null, null, null);

/** Appends to `out` the positions at which reading `node` begins, below `parent`. */
export function enter(node: GrammarNode, parent: Frame | null, out: Frame[]): void {
  if (node.kind === 'leaf') {
    out.push(new Frame(node, node.initial(), parent));
    return;
  }
  for (const branch of node.start()) {
    const frame = new Frame(node, branch.state, parent);
    if (branch.child) enter(branch.child, frame, out);
    else finish(frame, undefined, out);
  }
}

/** The child read in `frame` has ended with `value`: appends the positions that follow. */
export function finish(frame: Frame | null, value: string | undefined, out: Frame[]): void {
  if (frame === null) {
    out.push(COMPLETE);
    return;
  }
  for (const next of finishedFrames(frame, value)) out.push(next);
}

function advanceFrame(frame: Frame, value: string | undefined, out: Frame[]): void {
  const node = frame.node;
  if (node === null || node.kind === 'leaf') return;
  for (const branch of node.advance(frame.state, value)) {
    const next = new Frame(node, branch.state, frame.parent);
    if (branch.child) enter(branch.child, next, out);
    else finish(frame.parent, node.transparent ? value : undefined, out);
  }
}

/** Appends to `out` the positions after `byte` from `frame` (none: the byte is refused there). */
export function stepFrame(frame: Frame, byte: number, out: Frame[]): void {
  const leaf = frame.node as Leaf | null;
  if (leaf === null) return;
  const next = leaf.step(frame.state, byte);
  if (next !== DEAD) {
    // A leaf that cannot read further hands over at once, so every live position can still read a byte.
    if (leaf.mustEnd(next)) finish(frame.parent, leaf.valueKey(next), out);
    else if (!repeatsWhenFull(leaf, next, frame)) out.push(new Frame(leaf, next, frame.parent));
  }
  if (frame.canEnd()) {
    for (const f of frame.endings()) stepFrame(f, byte, out);
  }
}

/** The values already in the unique list `frame` is an item of, or null (see `ownKey`). */
export function seenValues(frame: Frame): readonly string[] | null {
  const parent = frame.parent;
  return parent?.node instanceof ListNode ? (parent.state as ListState).seen : null;
}

/**
 * Whether `next`, the state `frame`'s leaf steps into, is an item that can only close as a repeat: a
 * unique string written up to its maxLength with a value the list already holds. Without this check
 * the mask before its closing quote would be empty (seen with random weights and 48-character labels).
 */
function repeatsWhenFull(leaf: Leaf, next: unknown, frame: Frame): boolean {
  if (!leaf.keepsValue) return false;
  const seen = seenValues(frame);
  return seen !== null && seen.length > 0 && leaf.repeatsWhenFull(next, seen);
}

/** Steps every position of a set; the result may hold duplicates (see `dedupe`). */
export function stepAll(frames: readonly Frame[], byte: number): Frame[] {
  const out: Frame[] = [];
  stepFrames(frames, byte, out);
  return out;
}

/**
 * `stepFrame` for each position of a set, reading a leaf state once for a run of frames that hold the
 * very same state: the alternatives of an anyOf sit at the same byte of the same string under different
 * parents, and a mask steps them all through the whole trie. A state stepped once here is shared by
 * the frames it yields, so the run holds through the next bytes too. Leaves are pure functions of
 * (state, byte), so this changes nothing but the work.
 */
export function stepFrames(frames: readonly Frame[], byte: number, out: Frame[]): void {
  let leaf: Leaf | null = null;
  let state: unknown;
  let next: unknown = DEAD;
  let ends = false;
  for (let f = 0; f < frames.length; f++) {
    const frame = frames[f] as Frame;
    const node = frame.node as Leaf | null;
    if (node === null) continue;
    if (node !== leaf || frame.state !== state) {
      leaf = node;
      state = frame.state;
      next = node.step(state, byte);
      ends = next !== DEAD && node.mustEnd(next);
    }
    if (next !== DEAD) {
      if (ends) finish(frame.parent, node.valueKey(next), out);
      else if (!repeatsWhenFull(node, next, frame)) out.push(new Frame(node, next, frame.parent));
    }
    if (frame.canEnd()) {
      for (const e of frame.endings()) stepFrame(e, byte, out);
    }
  }
}

/** Whether the document may end at `frame` (after ending any leaves that can end here). */
export function canComplete(frame: Frame): boolean {
  if (frame === COMPLETE) return true;
  const leaf = frame.node as Leaf | null;
  if (leaf === null || !frame.canEnd()) return false;
  return frame.endings().some(canComplete);
}

/** Removes equal positions (exact keys), keeping the first; keeps the set small across many tokens. */
export function dedupe(frames: Frame[]): Frame[] {
  if (frames.length <= 1) return frames;
  const seen = new Set<string>();
  const out: Frame[] = [];
  for (const frame of frames) {
    const key = frame.key(Number.POSITIVE_INFINITY);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(frame);
    }
  }
  return out;
}

/** A key for a whole set of positions (order-independent). */
export function setKey(frames: readonly Frame[], horizon: number): string {
  if (frames.length === 1) return (frames[0] as Frame).key(horizon);
  return frames
    .map((f) => f.key(horizon))
    .sort()
    .join('\n');
}
