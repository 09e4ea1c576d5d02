import { KeyLeaf } from '../grammar/key-leaf.js';
import type { GrammarNode } from '../grammar/nodes.js';
import { NumberLeaf } from '../grammar/number-leaf.js';
import { dedupe, enter, type Frame, setKey, stepAll } from '../grammar/stack-machine.js';
import type { StringLeaf } from '../grammar/string-leaf.js';
import { workNow, workPast } from '../grammar/work-clock.js';
import { ByteTokens } from '../vocabulary/byte-tokens.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import { allowedTokenIds } from '../vocabulary/vocabulary.js';
import {
  hasShortcut,
  insideNumber,
  isInsideString,
  isStringValue,
  justOpened,
  opensString,
} from './frame-kinds.js';
import type { InsideCache } from './inside-cache.js';
import { clearStored, type MaskCache } from './mask-cache.js';
import type { TrieWalk } from './trie-walk.js';

/** What precompute reads and writes of a compiled grammar. */
export interface PrecomputeParts {
  readonly root: GrammarNode;
  readonly trie: TokenTrie;
  readonly inside: InsideCache;
  readonly walk: TrieWalk;
  readonly cache: MaskCache;
  readonly maskWords: number;
  /** The grammar's counters: masks stored at compile time and the milliseconds spent on them. */
  readonly stats: { precomputed: number; precomputeMs: number };
}

/** A compiled grammar's compile-time masks (`CompileOptions.precompute`), computed once by `run`. */
export class MaskPrecompute {
  /**
   * @internal Tests set it: every mask whose ids the walk listed is then scanned too, and a difference
   * throws (a path of the walk that sets bits without listing them would store a wrong mask).
   */
  static checkRecording = false;

  private readonly root: GrammarNode;
  private readonly trie: TokenTrie;
  private readonly inside: InsideCache;
  private readonly walk: TrieWalk;
  private readonly cache: MaskCache;
  private readonly maskWords: number;
  private readonly stats: { precomputed: number; precomputeMs: number };

  constructor(parts: PrecomputeParts) {
    this.root = parts.root;
    this.trie = parts.trie;
    this.inside = parts.inside;
    this.walk = parts.walk;
    this.cache = parts.cache;
    this.maskWords = parts.maskWords;
    this.stats = parts.stats;
  }

  /**
   * Computes at compile time the masks of the positions a sequence can reach outside strings (see
   * `CompileOptions.precompute`), breadth first from the start: the successors of a position are the
   * positions after each byte its mask allows (a byte-level vocabulary has a token for every byte, so
   * every position a tokenisation can stop at is among them). A string is not explored inside (its
   * inside masks are shared and warmed apart) but stepped over by its shortest completion, so the
   * positions after it are reached.
   */
  run(positions: number, timeMs: number): void {
    if (positions <= 0) return;
    const started = performance.now();
    const storedBefore = this.stats.precomputed;
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
    const deadline = workNow() + timeMs;
    let skeletonHead = 0;
    let digitsHead = 0;
    for (let head = 0; skeletonHead < skeleton.length || digitsHead < digits.length; head++) {
      if (this.stats.precomputed - storedBefore >= positions || head >= 4 * positions) break;
      if (workPast(deadline)) break;
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
          // And a character in, for a free string (a message): its mask is then every later position's
          // until near maxLength (one key: the room far off, minLength met), where the first one
          // walked the closing quotes at decoding time (0.2 ms hot, 1-2 ms in a cold process: a turn's
          // slowest first mask, issue 45).
          const within = this.freeStringWithin(frames, horizon);
          if (within !== null) this.store(within, horizon);
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
      // The bytes whose one-byte token the mask allows (`ByteTokens`).
      for (const b of this.byteTokens().allowed(mask)) {
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
    const known = this.cache.recentMask(key);
    if (known !== undefined) return known;
    if (scratch !== undefined && this.scratchHolds !== null) {
      clearStored(scratch, this.scratchHolds);
      this.scratchHolds = null;
    }
    let mask: Uint32Array;
    let ids: number[] | null = null;
    if (scratch === undefined) mask = this.walk.computeMask(frames);
    else {
      this.walk.startRecording();
      mask = this.walk.outsideMask(frames, scratch);
      ids = this.walk.stopRecording();
      if (MaskPrecompute.checkRecording && ids !== null) checkRecorded(mask, ids);
    }
    const stored = this.cache.storePrecomputed(key, mask, ids ?? undefined);
    if (scratch !== undefined) this.scratchHolds = stored;
    this.stats.precomputed++;
    return mask;
  }
  /** The stored form of the mask `scratch` holds (cleared by it before the next), or null: all zero. */
  private scratchHolds: Int32Array | Uint32Array | null = null;

  /**
   * The positions inside free strings just opened (`frames`) once they have read enough characters to
   * close, where every one of them then `closesAnywhere`; null when some string has a pattern, keeps
   * its value, or is not far from maxLength there.
   */
  private freeStringWithin(frames: Frame[], horizon: number): Frame[] | null {
    let need = 1;
    for (const frame of frames) {
      const leaf = frame.node as StringLeaf;
      if (leaf.options.pattern !== null || leaf.keepsValue) return null;
      need = Math.max(need, leaf.options.minLength);
    }
    if (need > horizon) return null;
    const within = this.advance(frames, new Array<number>(need).fill(0x61));
    const free = (frame: Frame) => isStringValue(frame) && frame.node.closesAnywhere(frame.state, horizon);
    return within.length > 0 && within.every(free) ? within : null;
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

  /** The tokens of one byte each (a byte-level vocabulary has one per byte value). */
  private byteTokens(): ByteTokens {
    this.singleBytes ??= new ByteTokens(this.trie);
    return this.singleBytes;
  }
  private singleBytes: ByteTokens | undefined;
}

/** Throws unless `ids` are exactly the tokens `mask` sets (`MaskPrecompute.checkRecording`). */
function checkRecorded(mask: Uint32Array, ids: readonly number[]): void {
  const listed = new Set(ids);
  const set = allowedTokenIds(mask);
  const missing = set.find((id) => !listed.has(id));
  if (missing !== undefined) throw new Error(`precompute: token ${missing} set in a mask but not listed`);
  if (set.length !== listed.size)
    throw new Error(`precompute: ${listed.size} tokens listed, ${set.length} set`);
}

/** Default most positions `precompute` stores per grammar (haggle's choice: see CompileOptions). */
export const PRECOMPUTE_POSITIONS = 1024;
/**
 * Default most milliseconds `precompute` spends per grammar (haggle's choice), on the work clock
 * (grammar/work-clock.ts: not the time spent waiting for a core on a loaded machine). The agent's offer schemas
 * finish their few hundred positions well within it; a grammar whose positions never run out (an enum
 * number in every spelling JSON allows: `300`, `300.0`, `3e2`, ...) stops here instead of spending a
 * quarter of a second of compile time on masks decoding would mostly never ask for.
 */
export const PRECOMPUTE_MS = 50;
