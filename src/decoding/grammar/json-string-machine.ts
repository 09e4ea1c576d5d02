import type { TokenTrie } from '../vocabulary/token-trie.js';
import {
  hexValue,
  MAX_BY_WIDTH,
  MIN_BY_WIDTH,
  SIMPLE_ESCAPES,
  UTF8_CONTINUATIONS,
  UTF8_RANGE_HIGH,
  UTF8_RANGE_LOW,
  UTF8_SECOND_RANGE,
  utf8LeadBits,
} from './json-string-bytes.js';
import { workPast } from './work-clock.js';

/**
 * The one byte machine of a JSON string's inside, shared by string values (`StringLeaf`) and object
 * keys (`KeyLeaf`): escapes, `\uXXXX`, and UTF-8 validity across token boundaries. Where the reader
 * is within a character is one packed number (so a state is one field, and a trie walk keeps one typed
 * array of it); what a character may be is asked of the leaf (`CodePointReader`).
 *
 * Packed layout (haggle's choice: every field fits 32 bits, the partial code point included, because
 * a character is handed out as soon as its last byte is read):
 *   bits 0..2 the UTF-8 sequence's width (2..4, 0 when none), bits 3..4 continuation bytes still
 *   expected, bits 5..7 the escape (0 none, 1 after a backslash, 2..5 that many hex digits to read),
 *   bits 8..10 the range code of the next continuation byte (`UTF8_SECOND_RANGE`), bits 11.. the code
 *   point bits read so far (at most 15: three hex digits, or a 4-byte sequence's first three bytes).
 */

/** Between characters: no escape, no UTF-8 sequence open. */
export const BETWEEN_CHARACTERS = 0;
/** `stepStringByte`: the byte is refused. */
export const REFUSED_BYTE = -1;
/** `stepStringByte`: an unescaped quote, which closes the string (the caller decides whether it may). */
export const CLOSING_QUOTE = -2;
/** `stepStringByte` returns a read character as `-(code point) + COMPLETED_BASE` (at most -3). */
const COMPLETED_BASE = -3;

const WIDTH_MASK = 0x7;
const PENDING_SHIFT = 3;
const ESCAPE_SHIFT = 5;
const RANGE_SHIFT = 8;
const PARTIAL_SHIFT = 11;
/** The bits that say where the reader is, without the code point read so far (see `bytesKey`). */
const POSITION_BITS = (1 << PARTIAL_SHIFT) - 1 - WIDTH_MASK;

function pack(width: number, pending: number, escaped: number, range: number, partial: number): number {
  return (
    width |
    (pending << PENDING_SHIFT) |
    (escaped << ESCAPE_SHIFT) |
    (range << RANGE_SHIFT) |
    (partial << PARTIAL_SHIFT)
  );
}

/** The character `stepStringByte` read, or -1 when its result is not one. */
export function completedCodePoint(result: number): number {
  return result <= COMPLETED_BASE ? COMPLETED_BASE - result : -1;
}

/** Whether a packed state is within an escape or a UTF-8 sequence (no completion can close it yet). */
export function midCharacter(packed: number): boolean {
  return packed !== BETWEEN_CHARACTERS;
}

/** The escape of a packed state (0 none, 1 after a backslash, 2..5 hex digits still to read). */
export function escapeOf(packed: number): number {
  return (packed >> ESCAPE_SHIFT) & 0x7;
}

/** Continuation bytes a packed state still expects. */
export function pendingOf(packed: number): number {
  return (packed >> PENDING_SHIFT) & 0x3;
}

/** The lowest byte that may come next in a UTF-8 sequence (meaningful while `pendingOf` > 0). */
export function nextByteLow(packed: number): number {
  return UTF8_RANGE_LOW[(packed >> RANGE_SHIFT) & 0x7] as number;
}

/**
 * A cache key part for a packed state: exact, or without the code point read so far and the sequence's
 * width when nothing checks characters (then positions differing only in them allow the same bytes).
 */
export function bytesKey(packed: number, withPartial: boolean): number {
  return withPartial ? packed : packed & POSITION_BITS;
}

/** What the machine asks of the leaf about the characters it may still read, at position `at`. */
export interface CodePointReader<At> {
  /**
   * Whether some code point of [lo, hi] can be read next from `at` with a valid completion still ahead
   * (the room it takes counted: one UTF-16 unit up to U+FFFF, two above).
   */
  canReadRange(at: At, lo: number, hi: number): boolean;
  /** Whether a `\uXXXX` escape of a lone surrogate is refused (it is valid JSON, but no character). */
  readonly refusesSurrogateEscapes: boolean;
}

/**
 * Whether the code point to come can start with the bits `partial` read so far, with `remaining`
 * groups of `bits` bits still to come, within [min, max].
 */
function prefixReadable<At>(
  reader: CodePointReader<At>,
  at: At,
  partial: number,
  remaining: number,
  bits: number,
  min: number,
  max: number,
): boolean {
  const span = 2 ** (remaining * bits);
  const lo = Math.max(partial * span, min);
  const hi = Math.min(partial * span + span - 1, max);
  return lo <= hi && reader.canReadRange(at, lo, hi);
}

/**
 * Reads one byte inside the quotes from the packed state: the next packed state (a character still
 * open), `REFUSED_BYTE`, `CLOSING_QUOTE`, or a read character (`completedCodePoint`; the state after
 * it is `BETWEEN_CHARACTERS` once the leaf has taken it). A byte is refused when no character the leaf
 * can read starts with it.
 */
export function stepStringByte<At>(
  packed: number,
  byte: number,
  reader: CodePointReader<At>,
  at: At,
): number {
  const escaped = (packed >> ESCAPE_SHIFT) & 0x7;
  if (escaped === 1) {
    if (byte === 0x75) return reader.canReadRange(at, 0, 0xffff) ? pack(0, 0, 5, 0, 0) : REFUSED_BYTE;
    const ch = SIMPLE_ESCAPES[byte];
    return ch === undefined ? REFUSED_BYTE : COMPLETED_BASE - ch;
  }
  const partialBefore = packed >> PARTIAL_SHIFT;
  if (escaped > 1) {
    const digit = hexValue(byte);
    if (digit < 0) return REFUSED_BYTE;
    const partial = (partialBefore << 4) | digit;
    if (escaped > 2) {
      return prefixReadable(reader, at, partial, escaped - 2, 4, 0, 0xffff)
        ? pack(0, 0, escaped - 1, 0, partial)
        : REFUSED_BYTE;
    }
    if (reader.refusesSurrogateEscapes && partial >= 0xd800 && partial <= 0xdfff) return REFUSED_BYTE;
    return COMPLETED_BASE - partial;
  }
  const pending = (packed >> PENDING_SHIFT) & 0x3;
  if (pending > 0) {
    const range = (packed >> RANGE_SHIFT) & 0x7;
    if (byte < (UTF8_RANGE_LOW[range] as number) || byte > (UTF8_RANGE_HIGH[range] as number))
      return REFUSED_BYTE;
    const partial = (partialBefore << 6) | (byte & 0x3f);
    if (pending === 1) return COMPLETED_BASE - partial;
    const width = packed & WIDTH_MASK;
    return prefixReadable(
      reader,
      at,
      partial,
      pending - 1,
      6,
      MIN_BY_WIDTH[width] as number,
      MAX_BY_WIDTH[width] as number,
    )
      ? pack(width, pending - 1, 0, 0, partial)
      : REFUSED_BYTE;
  }
  if (byte === 0x22) return CLOSING_QUOTE;
  if (byte === 0x5c) return reader.canReadRange(at, 0, 0xffff) ? pack(0, 0, 1, 0, 0) : REFUSED_BYTE;
  if (byte < 0x20) return REFUSED_BYTE;
  if (byte < 0x80) return COMPLETED_BASE - byte;
  // UTF-8 lead bytes, with the ranges that rule out overlong forms and surrogates (RFC 3629).
  const continuations = UTF8_CONTINUATIONS[byte] as number;
  if (continuations === 0) return REFUSED_BYTE;
  const width = continuations + 1;
  const partial = utf8LeadBits(byte, continuations);
  return prefixReadable(
    reader,
    at,
    partial,
    continuations,
    6,
    MIN_BY_WIDTH[width] as number,
    MAX_BY_WIDTH[width] as number,
  )
    ? pack(width, continuations, 0, UTF8_SECOND_RANGE[byte] as number, partial)
    : REFUSED_BYTE;
}

/**
 * The leaf's side of an inside-string trie walk: positions are trie depths, each a row the leaf keeps
 * in its own typed arrays (counts, pattern or name-trie states).
 */
export interface InsideWalker extends CodePointReader<number> {
  /** Reads character `cp` at depth `from` into depth `to`; false when it is refused. */
  read(from: number, to: number, cp: number): boolean;
  /** A byte within a character: depth `to` holds what depth `from` holds. */
  carry(from: number, to: number): void;
}

/**
 * Sets the bits of the tokens that keep the string open from the packed state `start` (no closing
 * quote: closing tokens are found by the generic walk over the small index of tokens holding one). A
 * pass over the trie with the byte state in a typed array, since the inside of a string allows most of
 * the vocabulary and stepping state objects would allocate per byte. Returns the trie nodes visited,
 * or -1 when `deadline` (`workNow()` time, grammar/work-clock.ts) passed first, leaving the mask incomplete.
 */
export function walkInsideString(
  start: number,
  walker: InsideWalker,
  trie: TokenTrie,
  mask: Uint32Array,
  deadline = Number.POSITIVE_INFINITY,
): number {
  const packed = new Int32Array(trie.maxTokenBytes + 1);
  packed[0] = start;
  const { byte: bytes, depth, end, nodeCount } = trie;
  let visited = 0;
  let i = 1;
  while (i < nodeCount) {
    if ((++visited & 4095) === 0 && workPast(deadline)) return -1;
    const d = depth[i] as number;
    const p = d - 1;
    const b = bytes[i] as number;
    const at = packed[p] as number;
    // Most of the vocabulary is printable ASCII read between characters: a character of its own, taken
    // here without the step function's call (which `stepStringByte` would answer the same way).
    const result =
      at === BETWEEN_CHARACTERS && b >= 0x20 && b < 0x80 && b !== 0x22 && b !== 0x5c
        ? COMPLETED_BASE - b
        : stepStringByte(at, b, walker, p);
    let ok: boolean;
    if (result >= 0) {
      walker.carry(p, d);
      packed[d] = result;
      ok = true;
    } else if (result <= COMPLETED_BASE) {
      ok = walker.read(p, d, COMPLETED_BASE - result);
      packed[d] = BETWEEN_CHARACTERS;
    } else ok = false;
    if (!ok) {
      i = end[i] as number;
      continue;
    }
    trie.markTokens(mask, i);
    i++;
  }
  return visited;
}
