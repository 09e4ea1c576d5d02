/**
 * The byte-level facts of a JSON string that every string-reading leaf shares (`StringLeaf`, `KeyLeaf`
 * and its inside pass): the escapes after a backslash, the hex digits of `\uXXXX`, and the code point
 * range each UTF-8 sequence width may encode.
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
