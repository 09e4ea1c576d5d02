import { describe, expect, it } from 'vitest';
import { TokensByLength } from '../../../src/decoding/vocabulary/tokens-by-length.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('TokensByLength', () => {
  it('lists the tokens of a mask longest first, and counts those longer than a length', () => {
    const tokens = [
      bytes('abc'),
      bytes('x'),
      bytes('é'),
      bytes('de'),
      bytes('fgh'),
      bytes('"q'),
      bytes('k\\'),
    ];
    const mask = new Uint32Array(1);
    for (const id of [0, 1, 2, 4, 5, 6]) mask[0] = (mask[0] as number) | (1 << id);
    const index = new TokensByLength(mask, tokens);
    // Token 3 is not in the mask. Lengths: 0 and 4 of 3 bytes, 2 (é), 5 and 6 of 2, 1 of 1.
    expect([...index.ids].map((id) => tokens[id]?.length)).toEqual([3, 3, 2, 2, 2, 1]);
    expect(new Set(index.ids)).toEqual(new Set([0, 1, 2, 4, 5, 6]));
    expect(index.longest).toBe(3);
    expect([-1, 0, 1, 2, 3, 9].map((n) => index.longerThan(n))).toEqual([6, 6, 5, 2, 0, 0]);
    // Plain text: printable ASCII without a quote or a backslash (a byte is then a unit).
    const plain = new Map([...index.ids].map((id, k) => [id, index.plain[k]]));
    expect(Object.fromEntries(plain)).toEqual({ 0: 1, 1: 1, 2: 0, 4: 1, 5: 0, 6: 0 });
  });

  it('is empty for an empty mask', () => {
    const index = new TokensByLength(new Uint32Array(2), [bytes('a')]);
    expect(index.ids.length).toBe(0);
    expect(index.longest).toBe(0);
    expect(index.longerThan(0)).toBe(0);
  });
});
