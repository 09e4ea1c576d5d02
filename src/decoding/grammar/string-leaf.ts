import { PatternLengths } from '../regex/pattern-lengths.js';
import { PatternAutomaton } from '../regex/regex.js';
import type { PlainStringLengths } from '../vocabulary/plain-string-lengths.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import type { TokensByLength } from '../vocabulary/tokens-by-length.js';
import type { InsideKeys } from './inside-keys.js';
import {
  BETWEEN_CHARACTERS,
  bytesKey,
  CLOSING_QUOTE,
  type CodePointReader,
  completedCodePoint,
  escapeOf,
  type InsideWalker,
  midCharacter,
  nextByteLow,
  pendingOf,
  REFUSED_BYTE,
  stepStringByte,
  walkInsideString,
} from './json-string-machine.js';
import { DEAD, Leaf } from './nodes.js';
import { workPast } from './work-clock.js';

export interface StringLeafOptions {
  /** In code points, as JSON Schema counts. */
  minLength: number;
  /**
   * In UTF-16 code units, which is never fewer than code points: a string within this bound also
   * satisfies JSON Schema's `maxLength`, and JavaScript's `string.length` checks (zod) agree with it.
   */
  maxLength: number;
  pattern: PatternAutomaton | null;
  /**
   * The pattern's length analysis, shared with other strings of the same pattern (the compiler's
   * `PatternCache`); made for this leaf alone when absent.
   */
  lengths?: PatternLengths | undefined;
  /** Keep the decoded value (for `uniqueItems`). */
  collect: boolean;
}

const encoder = new TextEncoder();

/** One-character strings of the ASCII code points, made once: a collected value appends one per byte. */
const ASCII_TEXT = Array.from({ length: 128 }, (_, cp) => String.fromCharCode(cp));
export function characterText(cp: number): string {
  return cp < 128 ? (ASCII_TEXT[cp] as string) : String.fromCodePoint(cp);
}

/**
 * The pattern that matches every string (unanchored and empty): one state, reading every code point.
 * A pattern state that refuses nothing reads its inside masks as this automaton's (see `freeView`).
 * Module-level on purpose: a constant of one DFA state, the same for every vocabulary and compiler.
 */
const MATCH_ANYTHING = new PatternAutomaton('');
/**
 * Its length analysis, shared by every free view (one per bounded string with a pattern): made per
 * leaf, it was rebuilt and re-explored at every compile's warm-up. One state, so its tables stay tiny.
 */
const MATCH_ANYTHING_LENGTHS = new PatternLengths(MATCH_ANYTHING);

/** Where a string is. Immutable: every byte makes a new one, so old states stay valid for rollback. */
interface StringState {
  /** 0: before the opening quote, 1: inside, 2: closed. */
  phase: number;
  units: number;
  codePoints: number;
  /** Where the reader is within a character: escape or UTF-8 sequence (json-string-machine.ts). */
  bytes: number;
  pattern: number;
  value: string;
}

/** Before the opening quote. */
export const STRING_START: StringState = {
  phase: 0,
  units: 0,
  codePoints: 0,
  bytes: BETWEEN_CHARACTERS,
  pattern: 0,
  value: '',
};

/**
 * A JSON string: the quotes, JSON escapes, valid UTF-8 across token boundaries (a byte-level token can
 * hold half a character), `minLength`/`maxLength` and an optional `pattern`. A character is refused
 * when no completion could then meet the length bounds or the pattern.
 */
export class StringLeaf extends Leaf implements CodePointReader<StringState> {
  /**
   * For a pattern with length bounds: which lengths each pattern state can still complete with (a
   * character that matches the pattern can still leave no completion within the bounds).
   */
  private readonly lengths: PatternLengths | null;
  /** The same string with the pattern that matches anything (made when first needed, `freeView`). */
  private anything: StringLeaf | undefined;

  /** Whether `state` is inside the quotes (where `insideMask` applies). */
  isInside(state: unknown): boolean {
    return (state as StringState).phase === 1;
  }

  constructor(
    id: number,
    readonly options: StringLeafOptions,
  ) {
    super(id);
    this.keepsValue = options.collect;
    const { pattern, minLength, maxLength } = options;
    const bounded = minLength > 0 || maxLength !== Number.POSITIVE_INFINITY;
    this.lengths = pattern && bounded ? (options.lengths ?? new PatternLengths(pattern)) : null;
  }

  /**
   * Whether the pattern, from DFA state `state` after `codePoints` characters of `units` code units, can
   * read some code point in [lo, hi] and still complete within the length bounds.
   */
  private patternCanRead(state: number, lo: number, hi: number, codePoints: number, units: number): boolean {
    const pattern = this.options.pattern as PatternAutomaton;
    if (!this.lengths) return pattern.allowsSome(state, lo, hi);
    const { minLength, maxLength } = this.options;
    return this.lengths.canRead(state, lo, hi, Math.max(0, minLength - codePoints), maxLength - units);
  }

  /** Whether the pattern can complete from `state` within the length bounds. */
  private canFinish(state: number, codePoints: number, units: number): boolean {
    if (!this.lengths) return true;
    const { minLength, maxLength } = this.options;
    return this.lengths.canFinish(state, Math.max(0, minLength - codePoints), maxLength - units);
  }

  /** A pattern reads characters, so a lone surrogate escape (`\ud800`) cannot be fed to it. */
  get refusesSurrogateEscapes(): boolean {
    return this.options.pattern !== null;
  }

  /**
   * Whether some code point of [lo, hi] fits the length bounds from `s` (one unit, two above U+FFFF)
   * and the pattern can read it and still complete.
   */
  canReadRange(s: StringState, lo: number, hi: number): boolean {
    return this.readableAt(s.pattern, s.units, s.codePoints, lo, hi);
  }

  /** `canReadRange` from counts and a pattern state (the inside walk keeps them in typed arrays). */
  readableAt(dfa: number, units: number, codePoints: number, lo: number, hi: number): boolean {
    const { minLength, maxLength, pattern } = this.options;
    if (units + (lo > 0xffff ? 2 : 1) + Math.max(0, minLength - codePoints - 1) > maxLength) return false;
    return pattern === null || this.patternCanRead(dfa, lo, hi, codePoints, units);
  }

  /**
   * The pattern state after character `cp`, which brings the counts to `units` and `codePoints`; -1
   * when the length bounds or the pattern can then no longer be met.
   */
  afterCharacter(dfa: number, units: number, codePoints: number, cp: number): number {
    const { minLength, maxLength, pattern } = this.options;
    if (units + Math.max(0, minLength - codePoints) > maxLength) return -1;
    if (pattern === null) return dfa;
    const next = pattern.next(dfa, cp);
    return next < 0 || !this.canFinish(next, codePoints, units) ? -1 : next;
  }

  /**
   * Whether from `raw` the string reads every character and may close after any text of at most
   * `horizon` bytes: inside, between characters, no pattern, its value not kept, minLength met and
   * maxLength out of a token's reach. Then what a token holding a quote does here depends on its bytes
   * alone, and its closing quote leads to the same positions whatever the text (`QuotePrefixes`).
   */
  closesAnywhere(raw: unknown, horizon: number): boolean {
    const s = raw as StringState;
    const { pattern, collect, minLength, maxLength } = this.options;
    return (
      s.phase === 1 &&
      s.bytes === BETWEEN_CHARACTERS &&
      pattern === null &&
      !collect &&
      s.codePoints >= minLength &&
      maxLength - s.units >= horizon
    );
  }

  initial(): unknown {
    return this.options.pattern ? { ...STRING_START, pattern: this.options.pattern.start } : STRING_START;
  }

  step(raw: unknown, byte: number): unknown {
    const s = raw as StringState;
    if (s.phase === 0) return byte === 0x22 ? { ...s, phase: 1 } : DEAD;
    if (s.phase === 2) return DEAD;
    const next = stepStringByte(s.bytes, byte, this, s);
    if (next >= 0) return { ...s, bytes: next };
    if (next === REFUSED_BYTE) return DEAD;
    if (next === CLOSING_QUOTE) return this.close(s);
    return this.addCodePoint(s, completedCodePoint(next));
  }

  canEnd(): boolean {
    return false;
  }

  mustEnd(state: unknown): boolean {
    return (state as StringState).phase === 2;
  }

  key(raw: unknown, horizon: number, seen?: readonly string[] | null): string {
    const s = raw as StringState;
    if (s.phase !== 1) return String(s.phase);
    const { minLength, maxLength, pattern, collect } = this.options;
    const toMax = maxLength - s.units;
    const toMin = Math.max(0, minLength - s.codePoints);
    // With a pattern, what the bounds allow depends on the exact counts (the lengths it can match),
    // except for a room far beyond what the pattern's lengths can tell apart.
    const far = this.lengths ? this.farFromMax(s, horizon) : toMax > horizon;
    const room = far ? 'H' : String(toMax);
    const need = toMin > horizon && !this.lengths ? 'H' : String(toMin);
    // The partial code point matters only when characters are checked or kept.
    const bytes = bytesKey(s.bytes, pattern !== null || collect);
    // The value matters only while it is a prefix of a value already in the list: else no completion
    // can repeat one, and positions with different values allow the same tokens.
    const value = collect && seen?.some((v) => v.startsWith(s.value)) ? s.value : '';
    return `${room},${need},${bytes},${pattern ? s.pattern : ''},${value}`;
  }

  completion(raw: unknown): number[] | null {
    const s = raw as StringState;
    if (s.phase === 2) return [];
    const out: number[] = s.phase === 0 ? [0x22] : [];
    const { pattern, minLength } = this.options;
    if (pattern) {
      if (midCharacter(s.bytes)) return null;
      const path = this.lengths
        ? this.lengths.completion(
            s.pattern,
            Math.max(0, minLength - s.codePoints),
            this.options.maxLength - s.units,
          )
        : pattern.shortestAccepted(s.pattern);
      if (path === null) return null;
      out.push(...encoder.encode(JSON.stringify(String.fromCodePoint(...path)).slice(1, -1)));
    } else {
      let codePoints = s.codePoints;
      const escapes = escapeOf(s.bytes);
      const pending = pendingOf(s.bytes);
      if (escapes === 1) out.push(0x6e); // \n
      for (let i = escapes; i > 1; i--) out.push(0x30); // \u0000
      for (let i = 0; i < pending; i++) out.push(i === 0 ? nextByteLow(s.bytes) : 0x80);
      if (midCharacter(s.bytes)) codePoints++;
      for (; codePoints < minLength; codePoints++) out.push(0x61);
    }
    out.push(0x22);
    return out;
  }

  override valueKey(state: unknown): string | undefined {
    return this.options.collect ? (state as StringState).value : undefined;
  }

  override repeatsWhenFull(state: unknown, seen: readonly string[]): boolean {
    const s = state as StringState;
    if (s.phase !== 1 || midCharacter(s.bytes) || !seen.includes(s.value)) return false;
    if (!this.hasRoom(s, 1)) return true;
    return (
      Boolean(this.options.pattern) && !this.patternCanRead(s.pattern, 0, 0x10ffff, s.codePoints, s.units)
    );
  }

  /**
   * Whether a token of at most `horizon` bytes that stays inside the string could take `state` to a
   * repeat that fills it (`repeatsWhenFull`). The shared inside masks know nothing of the list's values,
   * so such a position takes the generic walk, which steps through `stepFrames` and refuses it.
   */
  mayFillRepeat(state: unknown, seen: readonly string[], horizon: number): boolean {
    const s = state as StringState;
    if (!this.options.collect || s.phase !== 1) return false;
    for (const value of seen) {
      if (!value.startsWith(s.value) || value.length - s.value.length > horizon) continue;
      if (midCharacter(s.bytes)) return true;
      let at: unknown = s;
      for (const ch of value.slice(s.value.length)) {
        at = this.addCodePoint(at as StringState, ch.codePointAt(0) as number);
        if (at === DEAD) break;
      }
      if (at !== DEAD && this.repeatsWhenFull(at, seen)) return true;
    }
    return false;
  }

  /**
   * The key of what `insideMask` depends on: the string's own state, never what follows it nor the
   * collected value (a token that stays inside the string cannot close it, so uniqueness is not at stake).
   */
  insideKey(raw: unknown, horizon: number, keys: InsideKeys): string {
    const free = this.freeView(raw);
    if (free) return free.leaf.insideKey(free.state, horizon, keys);
    const s = raw as StringState;
    const { minLength, maxLength, pattern } = this.options;
    // A token of at most `horizon` units fits whenever the room beyond what minLength still needs
    // exceeds it; only then can positions share a mask regardless of their counts.
    const toMax = maxLength - s.units;
    const toMin = Math.max(0, minLength - s.codePoints);
    // With a pattern, the need stays exact: which lengths it can still match depends on it.
    const far = this.farFromMax(s, horizon);
    const room = far ? (this.lengths ? `H/${toMin}` : 'H') : `${toMax}/${toMin}`;
    // Keyed by the string's constraints, not the leaf: identical strings (the message of two actions)
    // share their masks. A pattern by its automaton: state numbers mean nothing in another one. Far
    // from maxLength a string without a length analysis refuses nothing for its length (no token
    // reaches the bound), so the bounds leave the key: every free string of every schema shares one
    // mask per escape/UTF-8 state.
    const bounds = far && !this.lengths ? '*' : `${minLength},${maxLength}`;
    return `${bounds},${pattern ? keys.objectId(pattern) : ''}:${room},${bytesKey(s.bytes, pattern !== null)},${pattern ? s.pattern : ''}`;
  }

  /**
   * When the pattern refuses nothing from this state on (`PatternAutomaton.unconstrained`: every
   * character, and with length bounds every length), the string reads from here exactly as one whose
   * pattern matches anything: its inside mask is that string's, shared by every such state of every
   * pattern. (Not the string without a pattern: a pattern refuses lone surrogate escapes, `\ud800`.)
   */
  private freeView(raw: unknown): { leaf: StringLeaf; state: StringState } | null {
    const pattern = this.options.pattern;
    if (!pattern || pattern === MATCH_ANYTHING) return null;
    const s = raw as StringState;
    if (!pattern.unconstrained(s.pattern, this.lengths !== null)) return null;
    this.anything ??= new StringLeaf(this.id, {
      ...this.options,
      pattern: MATCH_ANYTHING,
      lengths: MATCH_ANYTHING_LENGTHS,
    });
    return { leaf: this.anything, state: { ...s, pattern: MATCH_ANYTHING.start } };
  }

  /**
   * Positions worth computing masks for at compile time: just inside the quotes, and for a pattern the
   * states a few ASCII characters reach (`build`, `build_`), so the first turns do not pay for them.
   */
  warmStates(limit: number, deadline = Number.POSITIVE_INFINITY): unknown[] {
    const opened = this.step(this.initial(), 0x22);
    if (opened === DEAD) return [];
    const out: unknown[] = [opened];
    const pattern = this.options.pattern;
    if (!pattern) return out;
    const seen = new Set<number>([(opened as StringState).pattern]);
    // Stepping builds the automaton's states, which for a long counted pattern is not free.
    for (let i = 0; i < out.length && out.length < limit && !workPast(deadline); i++) {
      for (let b = 0x20; b < 0x7f && out.length < limit; b++) {
        if (b === 0x22 || b === 0x5c) continue;
        const next = this.step(out[i], b);
        if (next === DEAD || (next as StringState).phase !== 1) continue;
        const dfa = (next as StringState).pattern;
        if (!seen.has(dfa)) {
          seen.add(dfa);
          out.push(next);
        }
      }
    }
    return out;
  }

  /**
   * Sets the bits of the tokens that keep the string open from `raw` (the shared trie walk of
   * json-string-machine.ts, with this string's counts and pattern state per depth). Returns the trie
   * nodes visited, or -1 when `deadline` (`workNow()` time, grammar/work-clock.ts) passed first.
   */
  insideMask(
    raw: unknown,
    trie: TokenTrie,
    mask: Uint32Array,
    deadline = Number.POSITIVE_INFINITY,
    /** The lengths table of `trie` when it is the whole vocabulary's (never a sub-trie's). */
    plainLengths?: PlainStringLengths,
  ): number {
    const free = this.freeView(raw);
    if (free) return free.leaf.insideMask(free.state, trie, mask, deadline, plainLengths);
    const s = raw as StringState;
    const { maxLength, minLength, pattern } = this.options;
    // Without a pattern, at a character boundary: only the lengths matter, and the vocabulary's table
    // of them answers without a pass (see plain-string-lengths.ts).
    const table = pattern === null && !midCharacter(s.bytes) ? plainLengths : undefined;
    if (table !== undefined) {
      table.fill(s.units, s.codePoints, minLength, maxLength, mask);
      return 0;
    }
    return walkInsideString(
      s.bytes,
      new StringInsideWalker(this, s, trie.maxTokenBytes + 1),
      trie,
      mask,
      deadline,
    );
  }

  /**
   * Where the inside mask of `raw` can be bounded more tightly than by the longest token: for a pattern
   * with length bounds, the key of its state with the bounds left out (pattern state and the reader's
   * place within a character), for `unboundedInsideMask`; null otherwise.
   */
  patternStateKey(raw: unknown): string | null {
    if (!this.lengths || this.freeView(raw)) return null;
    const s = raw as StringState;
    return `${s.pattern},${s.bytes}`;
  }

  /**
   * The tokens that keep the string open from `raw` when its length bounds are left out (same pattern,
   * same place within a character): a superset of `insideMask`'s, whose longest token bounds how many
   * units any token can add from `raw` (see `InsideCache`).
   */
  unboundedInsideMask(
    raw: unknown,
    trie: TokenTrie,
    mask: Uint32Array,
    deadline = Number.POSITIVE_INFINITY,
  ): number {
    this.unbounded ??= new StringLeaf(this.id, {
      minLength: 0,
      maxLength: Number.POSITIVE_INFINITY,
      pattern: this.options.pattern,
      collect: false,
    });
    const s = raw as StringState;
    return this.unbounded.insideMask({ ...s, units: 0, codePoints: 0, value: '' }, trie, mask, deadline);
  }
  private unbounded: StringLeaf | undefined;

  /**
   * The inside mask of `raw` set in `mask` from `unbounded`, `unboundedInsideMask` of the same pattern
   * state, whose tokens `byLength` indexes longest first: where minLength is met and `raw` is between
   * characters, a token of at most `room - nearSlack` bytes that the pattern lets through leaves room
   * for the shortest completion of any state it reaches, so it is kept as is; of the longer ones, plain
   * text longer than the room is refused unread (a byte a code unit) and the rest stepped through the
   * string byte by byte (a few dozen, where a walk of the trie visits tens of thousands of nodes).
   * False, `mask` untouched, where that does not hold.
   */
  insideFromUnbounded(
    raw: unknown,
    unbounded: Uint32Array,
    byLength: TokensByLength,
    tokens: readonly Uint8Array[],
    mask: Uint32Array,
  ): boolean {
    const s = raw as StringState;
    if (!this.lengths || midCharacter(s.bytes) || this.options.minLength > s.codePoints) return false;
    const slack = this.lengths.nearSlack(s.pattern);
    if (!Number.isFinite(slack)) return false;
    const room = this.options.maxLength - s.units;
    const sure = room - slack;
    mask.set(unbounded);
    const { ids, plain } = byLength;
    const end = byLength.longerThan(Math.floor(sure));
    for (let k = 0; k < end; k++) {
      const id = ids[k] as number;
      const bytes = tokens[id] as Uint8Array;
      if ((plain[k] === 1 && bytes.length > room) || !this.staysInside(raw, bytes)) {
        mask[id >>> 5] = (mask[id >>> 5] as number) & ~(1 << (id & 31));
      }
    }
    return true;
  }

  /** Whether `bytes`, read from `raw`, leave the string open. */
  private staysInside(raw: unknown, bytes: Uint8Array): boolean {
    let state = raw;
    for (const b of bytes) {
      state = this.step(state, b);
      if (state === DEAD) return false;
    }
    return this.isInside(state);
  }

  /** Whether `raw` is between characters (no escape or UTF-8 sequence begun): a token adds no more units than bytes. */
  betweenCharacters(raw: unknown): boolean {
    return !midCharacter((raw as StringState).bytes);
  }

  /** Whether no token of at most `horizon` units read from `raw` comes near maxLength (`farFromMax`). */
  farWithin(raw: unknown, horizon: number): boolean {
    return this.farFromMax(raw as StringState, horizon);
  }

  /**
   * Whether `unboundedInsideMask` of `raw` is its inside mask: `horizon` bounds the units a token can
   * add from it (`InsideCache`), minLength is met (nothing more is needed) and maxLength is far beyond
   * what a token and the longest shortest completion after it take (`farFromMax`), so the bounds
   * refuse nothing the pattern lets through.
   */
  unboundedEquals(raw: unknown, horizon: number): boolean {
    const s = raw as StringState;
    return this.options.minLength <= s.codePoints && this.farFromMax(s, horizon);
  }

  /**
   * Whether no token (at most `horizon` units) read from `s` can come near enough to maxLength for the
   * exact room to change what is allowed: then positions may share a mask whatever their counts.
   */
  private farFromMax(s: StringState, horizon: number): boolean {
    const need = Math.max(0, this.options.minLength - s.codePoints);
    const room = this.options.maxLength - s.units - need;
    if (!this.lengths) return room > horizon;
    // Once minLength is reached only the shortest completions count (`nearSlack`, far cheaper).
    const slack = need === 0 ? this.lengths.nearSlack(s.pattern) : this.lengths.slack(s.pattern);
    return room > horizon + slack;
  }

  /** Whether `units` more code units still leave room to reach minLength within maxLength. */
  protected hasRoom(s: StringState, units: number): boolean {
    const needed = Math.max(0, this.options.minLength - s.codePoints - 1);
    return s.units + units + needed <= this.options.maxLength;
  }

  /** The state after character `cp`, between characters again; DEAD when it is refused. */
  protected addCodePoint(s: StringState, cp: number): unknown {
    const units = cp > 0xffff ? 2 : 1;
    const pattern = this.afterCharacter(s.pattern, s.units + units, s.codePoints + 1, cp);
    if (pattern < 0) return DEAD;
    // Field by field rather than a spread: this runs for every character of every token a mask reads
    // through the parser (closing tokens inside strings), and the spread cost as much as the rest.
    const next: StringState = {
      phase: s.phase,
      units: s.units + units,
      codePoints: s.codePoints + 1,
      bytes: BETWEEN_CHARACTERS,
      pattern,
      value: this.options.collect ? s.value + characterText(cp) : s.value,
    };
    return next;
  }

  /** The state after the closing quote; DEAD when the string may not end here. */
  protected close(s: StringState): unknown {
    if (s.codePoints < this.options.minLength) return DEAD;
    if (this.options.pattern && !this.options.pattern.isAccepting(s.pattern)) return DEAD;
    return { ...s, phase: 2 };
  }
}

/** A string's rows of the inside walk: code units, code points and pattern state per trie depth. */
class StringInsideWalker implements InsideWalker {
  private readonly units: Float64Array;
  private readonly codePoints: Float64Array;
  private readonly dfa: Int32Array;
  readonly refusesSurrogateEscapes: boolean;

  constructor(
    private readonly leaf: StringLeaf,
    start: StringState,
    depths: number,
  ) {
    this.units = new Float64Array(depths);
    this.codePoints = new Float64Array(depths);
    this.dfa = new Int32Array(depths);
    this.units[0] = start.units;
    this.codePoints[0] = start.codePoints;
    this.dfa[0] = start.pattern;
    this.refusesSurrogateEscapes = leaf.refusesSurrogateEscapes;
  }

  canReadRange(at: number, lo: number, hi: number): boolean {
    return this.leaf.readableAt(
      this.dfa[at] as number,
      this.units[at] as number,
      this.codePoints[at] as number,
      lo,
      hi,
    );
  }

  read(from: number, to: number, cp: number): boolean {
    const units = (this.units[from] as number) + (cp > 0xffff ? 2 : 1);
    const codePoints = (this.codePoints[from] as number) + 1;
    const dfa = this.leaf.afterCharacter(this.dfa[from] as number, units, codePoints, cp);
    if (dfa < 0) return false;
    this.units[to] = units;
    this.codePoints[to] = codePoints;
    this.dfa[to] = dfa;
    return true;
  }

  carry(from: number, to: number): void {
    this.units[to] = this.units[from] as number;
    this.codePoints[to] = this.codePoints[from] as number;
    this.dfa[to] = this.dfa[from] as number;
  }
}
