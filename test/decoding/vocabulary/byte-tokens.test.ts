import { describe, expect, it } from 'vitest';
import { ByteTokens } from '../../../src/decoding/vocabulary/byte-tokens.js';
import { TokenTrie } from '../../../src/decoding/vocabulary/token-trie.js';

/** A vocabulary with the one-byte tokens `a`, `b`, `c` at the given ids (the rest two-byte filler). */
function vocabulary(ids: { a: number; b: number; c: number }, size: number) {
  const tokens: Uint8Array[] = [];
  for (let id = 0; id < size; id++) tokens.push(Uint8Array.of(0x30 + (id % 10), 0x30 + ((id / 10) % 10)));
  tokens[ids.a] = Uint8Array.of(0x61);
  tokens[ids.b] = Uint8Array.of(0x62);
  tokens[ids.c] = Uint8Array.of(0x63);
  return { tokens, eosTokenIds: [], specialTokenIds: new Set<number>() };
}

function maskOf(size: number, ids: number[]): Uint32Array {
  const mask = new Uint32Array(Math.ceil(size / 32));
  for (const id of ids) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
  return mask;
}

describe('ByteTokens', () => {
  it('gives the bytes whose one-byte token a mask allows, from the words that hold them', () => {
    const ids = { a: 3, b: 40, c: 70 };
    const bytes = new ByteTokens(new TokenTrie(vocabulary(ids, 100)));
    expect(bytes.allowed(maskOf(100, [3, 70, 5, 99]))).toEqual([0x61, 0x63]);
    expect(bytes.allowed(maskOf(100, [40]))).toEqual([0x62]);
    expect(bytes.allowed(maskOf(100, [1, 2, 4]))).toEqual([]);
  });

  it('tests them one by one when they are spread over many words', () => {
    // `c` at id 9,000: 280 words from `a`, past the scan's limit.
    const ids = { a: 3, b: 40, c: 9000 };
    const bytes = new ByteTokens(new TokenTrie(vocabulary(ids, 9100)));
    expect(bytes.allowed(maskOf(9100, [9000, 3, 4000]))).toEqual([0x61, 0x63]);
    expect(bytes.allowed(maskOf(9100, [40]))).toEqual([0x62]);
  });
});
