import {
  hexValue,
  MAX_BY_WIDTH,
  MIN_BY_WIDTH,
  SIMPLE_ESCAPES,
  UTF8_CONTINUATIONS,
  UTF8_SECOND_HIGH,
  UTF8_SECOND_LOW,
  utf8LeadBits,
} from './json-string-bytes.js';
import { DEAD, Leaf } from './nodes.js';
import { type PatternLengths, patternLengths } from './pattern-lengths.js';
import { plainStringLengths } from './plain-string-lengths.js';
import { PatternAutomaton } from './regex.js';
import type { TokenTrie } from './token-trie.js';

export interface StringLeafOptions {
  /** In code points, as JSON Schema counts. */
  minLength: number;
  /**
   * In UTF-16 code units, which is never fewer than code points: a string within this bound also
   * satisfies JSON Schema's `maxLength`, and JavaScript's `string.length` checks (zod) agree with it.
   */
  maxLength: number;
  pattern: PatternAutomaton | null;
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
 */
const MATCH_ANYTHING = new PatternAutomaton('');

/** Where a string is. Immutable: every byte makes a new one, so old states stay valid for rollback. */
interface StringState {
  /** 0: before the opening quote, 1: inside, 2: closed. */
  phase: number;
  units: number;
  codePoints: number;
  /** 0: none, 1: after a backslash, 2..5: that many hex digits of \uXXXX still to read. */
  escape: number;
  /** UTF-8 continuation bytes still expected, and the range the next one must fall in. */
  pending: number;
  low: number;
  high: number;
  /** The code point being assembled (UTF-8 or \u escape). */
  partial: number;
  /** Bytes of the UTF-8 sequence being read (2..4), 0 when none. */
  width: number;
  pattern: number;
  value: string;
}

/** Before the opening quote. */
export const STRING_START: StringState = {
  phase: 0,
  units: 0,
  codePoints: 0,
  escape: 0,
  pending: 0,
  low: 0x80,
  high: 0xbf,
  partial: 0,
  width: 0,
  pattern: 0,
  value: '',
};

/**
 * A JSON string: the quotes, JSON escapes, valid UTF-8 across token boundaries (a byte-level token can
 * hold half a character), `minLength`/`maxLength` and an optional `pattern`. A character is refused
 * when no completion could then meet the length bounds or the pattern.
 */
export class StringLeaf extends Leaf {
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
    this.lengths = pattern && bounded ? patternLengths(pattern) : null;
  }

  /**
   * Whether the pattern, from DFA state `state` after `codePoints` characters of `units` code units, can
   * read some code point in [lo, hi] and still complete within the length bounds.
   */
  private canRead(state: number, lo: number, hi: number, codePoints: number, units: number): boolean {
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

  /**
   * Whether the pattern in `state`, after `codePoints` characters of `units` units, can read a code
   * point that starts with the `partial` bits read so far, with `remaining` groups of `bits` bits still
   * to come, within [min, max] and the length bounds. Scalars only: `insideMask` calls it at every
   * byte of a multi-byte character.
   */
  private canReadPrefix(
    state: number,
    codePoints: number,
    units: number,
    partial: number,
    remaining: number,
    bits: number,
    min: number,
    max: number,
  ): boolean {
    const span = 2 ** (remaining * bits);
    const lo = Math.max(partial * span, min);
    const hi = Math.min(partial * span + span - 1, max);
    return lo <= hi && this.canRead(state, lo, hi, codePoints, units);
  }

  initial(): unknown {
    return this.options.pattern ? { ...STRING_START, pattern: this.options.pattern.start } : STRING_START;
  }

  step(raw: unknown, byte: number): unknown {
    const s = raw as StringState;
    if (s.phase === 0) return byte === 0x22 ? { ...s, phase: 1 } : DEAD;
    if (s.phase === 2) return DEAD;
    const pattern = this.options.pattern;
    if (s.escape === 1) {
      if (byte === 0x75) {
        if (pattern && !this.canRead(s.pattern, 0, 0xffff, s.codePoints, s.units)) return DEAD;
        return { ...s, escape: 5, partial: 0 };
      }
      const ch = SIMPLE_ESCAPES[byte];
      return ch === undefined ? DEAD : this.addCodePoint({ ...s, escape: 0 }, ch);
    }
    if (s.escape > 1) {
      const digit = hexValue(byte);
      if (digit < 0) return DEAD;
      const partial = (s.partial << 4) | digit;
      if (s.escape > 2) {
        if (
          pattern &&
          !this.canReadPrefix(s.pattern, s.codePoints, s.units, partial, s.escape - 2, 4, 0, 0xffff)
        )
          return DEAD;
        return { ...s, escape: s.escape - 1, partial };
      }
      // A lone surrogate is valid JSON but cannot be fed to a pattern as a character.
      if (this.options.pattern && partial >= 0xd800 && partial <= 0xdfff) return DEAD;
      return this.addCodePoint({ ...s, escape: 0, partial: 0 }, partial);
    }
    if (s.pending > 0) {
      if (byte < s.low || byte > s.high) return DEAD;
      const partial = (s.partial << 6) | (byte & 0x3f);
      if (s.pending > 1) {
        if (
          pattern &&
          !this.canReadPrefix(
            s.pattern,
            s.codePoints,
            s.units,
            partial,
            s.pending - 1,
            6,
            MIN_BY_WIDTH[s.width] as number,
            MAX_BY_WIDTH[s.width] as number,
          )
        ) {
          return DEAD;
        }
        return { ...s, pending: s.pending - 1, low: 0x80, high: 0xbf, partial };
      }
      return this.addCodePoint({ ...s, pending: 0, low: 0x80, high: 0xbf, partial: 0, width: 0 }, partial);
    }
    if (byte === 0x22) return this.close(s);
    if (byte === 0x5c) {
      if (pattern && !this.canRead(s.pattern, 0, 0xffff, s.codePoints, s.units)) return DEAD;
      return this.hasRoom(s, 1) ? { ...s, escape: 1 } : DEAD;
    }
    if (byte < 0x20) return DEAD;
    if (byte < 0x80) return this.addCodePoint(s, byte);
    // UTF-8 lead bytes, with the ranges that rule out overlong forms and surrogates (RFC 3629).
    const pending = UTF8_CONTINUATIONS[byte] as number;
    if (pending === 0) return DEAD;
    const low = UTF8_SECOND_LOW[byte] as number;
    const high = UTF8_SECOND_HIGH[byte] as number;
    // A four-byte sequence is a surrogate pair in UTF-16: two units of JSON Schema's length.
    const units = pending === 3 ? 2 : 1;
    if (!this.hasRoom(s, units)) return DEAD;
    const width = pending + 1;
    const partial = utf8LeadBits(byte, pending);
    if (
      pattern &&
      !this.canReadPrefix(
        s.pattern,
        s.codePoints,
        s.units,
        partial,
        pending,
        6,
        MIN_BY_WIDTH[width] as number,
        MAX_BY_WIDTH[width] as number,
      )
    ) {
      return DEAD;
    }
    return { ...s, pending, low, high, partial, width };
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
    const partial = pattern || collect ? `${s.partial}/${s.width}` : 0;
    // The value matters only while it is a prefix of a value already in the list: else no completion
    // can repeat one, and positions with different values allow the same tokens.
    const value = collect && seen?.some((v) => v.startsWith(s.value)) ? s.value : '';
    return `${room},${need},${s.escape},${s.pending},${s.low},${s.high},${partial},${pattern ? s.pattern : ''},${value}`;
  }

  completion(raw: unknown): number[] | null {
    const s = raw as StringState;
    if (s.phase === 2) return [];
    const out: number[] = s.phase === 0 ? [0x22] : [];
    const { pattern, minLength } = this.options;
    if (pattern) {
      if (s.escape !== 0 || s.pending !== 0) return null;
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
      if (s.escape === 1) out.push(0x6e); // \n
      for (let i = s.escape; i > 1; i--) out.push(0x30); // \u0000
      for (let i = 0; i < s.pending; i++) out.push(i === 0 ? s.low : 0x80);
      if (s.escape !== 0 || s.pending !== 0) codePoints++;
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
    if (s.phase !== 1 || s.escape !== 0 || s.pending !== 0 || !seen.includes(s.value)) return false;
    if (!this.hasRoom(s, 1)) return true;
    return Boolean(this.options.pattern) && !this.canRead(s.pattern, 0, 0x10ffff, s.codePoints, s.units);
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
      if (s.escape !== 0 || s.pending !== 0) return true;
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
  insideKey(raw: unknown, horizon: number): string {
    const free = this.freeView(raw);
    if (free) return free.leaf.insideKey(free.state, horizon);
    const s = raw as StringState;
    const { minLength, maxLength, pattern } = this.options;
    // A token of at most `horizon` units fits whenever the room beyond what minLength still needs
    // exceeds it; only then can positions share a mask regardless of their counts.
    const toMax = maxLength - s.units;
    const toMin = Math.max(0, minLength - s.codePoints);
    // With a pattern, the need stays exact: which lengths it can still match depends on it.
    const far = this.farFromMax(s, horizon);
    const room = far ? (this.lengths ? `H/${toMin}` : 'H') : `${toMax}/${toMin}`;
    const partial = pattern ? `${s.partial}/${s.width}` : 0;
    // Keyed by the string's constraints, not the leaf: identical strings (the message of two actions)
    // share their masks. A pattern by its automaton: state numbers mean nothing in another one. Far
    // from maxLength a string without a length analysis refuses nothing for its length (no token
    // reaches the bound), so the bounds leave the key: every free string of every schema shares one
    // mask per escape/UTF-8 state.
    const bounds = far && !this.lengths ? '*' : `${minLength},${maxLength}`;
    return `${bounds},${pattern ? pattern.id : ''}:${room},${s.escape},${s.pending},${s.low},${s.high},${partial},${pattern ? s.pattern : ''}`;
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
    this.anything ??= new StringLeaf(this.id, { ...this.options, pattern: MATCH_ANYTHING });
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
    for (let i = 0; i < out.length && out.length < limit && performance.now() <= deadline; i++) {
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
   * Sets the bits of the tokens that keep the string open from `raw` (no unescaped closing quote).
   * A specialised pass over the trie with the state in typed arrays: the message of a turn allows most
   * of the vocabulary, and the generic parser would allocate per byte. Closing tokens are found by the
   * generic walk over the small index of tokens that contain a quote. Returns the trie nodes visited,
   * or -1 when `deadline` (`performance.now()` time) passed first, leaving the mask incomplete.
   */
  insideMask(raw: unknown, trie: TokenTrie, mask: Uint32Array, deadline = Number.POSITIVE_INFINITY): number {
    const free = this.freeView(raw);
    if (free) return free.leaf.insideMask(free.state, trie, mask, deadline);
    const s = raw as StringState;
    const { maxLength, minLength, pattern } = this.options;
    // Without a pattern, at a character boundary: only the lengths matter, and the vocabulary's table
    // of them answers without a pass (see plain-string-lengths.ts).
    const table =
      pattern === null && s.escape === 0 && s.pending === 0 ? plainStringLengths(trie) : undefined;
    if (table !== undefined) {
      table.fill(s.units, s.codePoints, minLength, maxLength, mask);
      return 0;
    }
    const depthMax = trie.maxTokenBytes + 1;
    const esc = new Int8Array(depthMax);
    const pend = new Int8Array(depthMax);
    const lo = new Uint8Array(depthMax);
    const hi = new Uint8Array(depthMax);
    const part = new Int32Array(depthMax);
    const wide = new Int8Array(depthMax);
    const dfa = new Int32Array(depthMax);
    const units = new Float64Array(depthMax);
    const cps = new Float64Array(depthMax);
    esc[0] = s.escape;
    pend[0] = s.pending;
    lo[0] = s.low;
    hi[0] = s.high;
    part[0] = s.partial;
    wide[0] = s.width;
    dfa[0] = s.pattern;
    units[0] = s.units;
    cps[0] = s.codePoints;
    const { byte: bytes, depth, end, nodeCount } = trie;
    let visited = 0;
    let i = 1;
    while (i < nodeCount) {
      // Given up past the deadline (compile-time warming): -1, and the mask is incomplete.
      if ((++visited & 4095) === 0 && performance.now() > deadline) return -1;
      const d = depth[i] as number;
      const p = d - 1;
      const b = bytes[i] as number;
      let e = esc[p] as number;
      let n = pend[p] as number;
      let l = 0x80;
      let h = 0xbf;
      let pa = part[p] as number;
      let w = wide[p] as number;
      let st = dfa[p] as number;
      let u = units[p] as number;
      let c = cps[p] as number;
      let cp = -1;
      let ok = true;
      if (e === 1) {
        if (b === 0x75) {
          e = 5;
          pa = 0;
          if (pattern && !this.canRead(st, 0, 0xffff, c, u)) ok = false;
        } else {
          const ch = SIMPLE_ESCAPES[b];
          if (ch === undefined) ok = false;
          else {
            e = 0;
            cp = ch;
          }
        }
      } else if (e > 1) {
        const digit = hexValue(b);
        if (digit < 0) ok = false;
        else {
          pa = (pa << 4) | digit;
          e--;
          if (e > 1 && pattern && !this.canReadPrefix(st, c, u, pa, e - 1, 4, 0, 0xffff)) ok = false;
          if (e === 1) {
            e = 0;
            if (pattern && pa >= 0xd800 && pa <= 0xdfff) ok = false;
            cp = pa;
            pa = 0;
          }
        }
      } else if (n > 0) {
        if (b < (lo[p] as number) || b > (hi[p] as number)) ok = false;
        else {
          pa = (pa << 6) | (b & 0x3f);
          n--;
          if (n === 0) {
            cp = pa;
            pa = 0;
            w = 0;
          } else if (
            pattern &&
            !this.canReadPrefix(st, c, u, pa, n, 6, MIN_BY_WIDTH[w] as number, MAX_BY_WIDTH[w] as number)
          ) {
            ok = false;
          }
        }
      } else if (b === 0x22 || b < 0x20) ok = false;
      else if (b === 0x5c) {
        if (u + 1 + Math.max(0, minLength - c - 1) > maxLength) ok = false;
        else if (pattern && !this.canRead(st, 0, 0xffff, c, u)) ok = false;
        else e = 1;
      } else if (b < 0x80) cp = b;
      else {
        n = UTF8_CONTINUATIONS[b] as number;
        if (n === 0) ok = false;
        l = UTF8_SECOND_LOW[b] as number;
        h = UTF8_SECOND_HIGH[b] as number;
        pa = utf8LeadBits(b, n);
        const extra = n === 3 ? 2 : 1;
        w = n + 1;
        if (ok && u + extra + Math.max(0, minLength - c - 1) > maxLength) ok = false;
        if (
          ok &&
          pattern &&
          !this.canReadPrefix(st, c, u, pa, n, 6, MIN_BY_WIDTH[w] as number, MAX_BY_WIDTH[w] as number)
        ) {
          ok = false;
        }
      }
      if (ok && cp >= 0) {
        const add = cp > 0xffff ? 2 : 1;
        if (u + add + Math.max(0, minLength - c - 1) > maxLength) ok = false;
        else {
          u += add;
          c++;
          if (pattern) {
            st = pattern.next(st, cp);
            if (st < 0 || !this.canFinish(st, c, u)) ok = false;
          }
        }
      }
      if (!ok) {
        i = end[i] as number;
        continue;
      }
      esc[d] = e;
      pend[d] = n;
      lo[d] = l;
      hi[d] = h;
      part[d] = pa;
      wide[d] = w;
      dfa[d] = st;
      units[d] = u;
      cps[d] = c;
      trie.markTokens(mask, i);
      i++;
    }
    return visited;
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
  private hasRoom(s: StringState, units: number): boolean {
    const needed = Math.max(0, this.options.minLength - s.codePoints - 1);
    return s.units + units + needed <= this.options.maxLength;
  }

  private addCodePoint(s: StringState, cp: number): unknown {
    const units = cp > 0xffff ? 2 : 1;
    if (!this.hasRoom(s, units)) return DEAD;
    let pattern = s.pattern;
    if (this.options.pattern) {
      pattern = this.options.pattern.next(pattern, cp);
      if (pattern < 0 || !this.canFinish(pattern, s.codePoints + 1, s.units + units)) return DEAD;
    }
    // Field by field rather than a spread: this runs for every character of every token a mask reads
    // through the parser (closing tokens inside strings), and the spread cost as much as the rest.
    const next: StringState = {
      phase: s.phase,
      units: s.units + units,
      codePoints: s.codePoints + 1,
      escape: s.escape,
      pending: s.pending,
      low: s.low,
      high: s.high,
      partial: s.partial,
      width: s.width,
      pattern,
      value: this.options.collect ? s.value + characterText(cp) : s.value,
    };
    return next;
  }

  private close(s: StringState): unknown {
    if (s.codePoints < this.options.minLength) return DEAD;
    if (this.options.pattern && !this.options.pattern.isAccepting(s.pattern)) return DEAD;
    return { ...s, phase: 2 };
  }
}
