/**
 * The byte-level facts of a JSON string that every string-reading leaf shares (`StringLeaf`, `KeyLeaf`
 * and its inside pass): the escapes after a backslash, the hex digits of `\uXXXX`, what a UTF-8 lead
 * byte starts, and the code point range each UTF-8 sequence width may encode.
 */

/** Escapes after a backslash, and the character each stands for. */
export const SIMPLE_ESCAPES: Readonly<Record<number, number>> = {
  34: 0x22,
  92: 0x5c,
  47: 0x2f,
  98: 0x08,
  102: 0x0c,
  110: 0x0a,
  114: 0x0d,
  116: 0x09,
};

/** Smallest code point a UTF-8 sequence of `width` bytes may encode (no overlong forms). */
export const MIN_BY_WIDTH: readonly number[] = [0, 0, 0x80, 0x800, 0x10000];
/** Largest code point a UTF-8 sequence of `width` bytes may encode. */
export const MAX_BY_WIDTH: readonly number[] = [0, 0x7f, 0x7ff, 0xffff, 0x10ffff];

/** The value of a hex digit byte, or -1. */
export function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/**
 * Continuation bytes after each UTF-8 lead byte (RFC 3629): 1 for C2..DF, 2 for E0..EF, 3 for F0..F4;
 * 0 for anything else at or above 0x80 (a continuation byte, an overlong lead C0/C1, F5..FF): refused.
 */
export const UTF8_CONTINUATIONS: Uint8Array = Uint8Array.from({ length: 256 }, (_, b) =>
  b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0,
);

/**
 * The range of the byte after each lead byte, as a code into `UTF8_RANGE_LOW`/`UTF8_RANGE_HIGH`:
 * 80..BF (code 0), narrowed after E0 (no overlong forms), ED (no surrogates), F0 (no overlong forms)
 * and F4 (nothing above U+10FFFF). A code, not the bounds, so that it fits a packed byte state.
 */
export const UTF8_SECOND_RANGE: Uint8Array = Uint8Array.from({ length: 256 }, (_, b) =>
  b === 0xe0 ? 1 : b === 0xed ? 2 : b === 0xf0 ? 3 : b === 0xf4 ? 4 : 0,
);
export const UTF8_RANGE_LOW: readonly number[] = [0x80, 0xa0, 0x80, 0x90, 0x80];
export const UTF8_RANGE_HIGH: readonly number[] = [0xbf, 0xbf, 0x9f, 0xbf, 0x8f];

/** The code point bits a lead byte carries, before its `continuations` bytes add 6 each. */
export function utf8LeadBits(lead: number, continuations: number): number {
  return lead & (0x3f >> continuations);
}
