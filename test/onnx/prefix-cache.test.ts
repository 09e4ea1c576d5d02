import { describe, expect, it } from 'vitest';
import { PrefixCache } from '../../src/onnx/prefix-cache.js';

/** A one-layer cache whose columns hold the token ids (one value per column), like the fake session's. */
const arrays = (tokens: number[]) => [Float32Array.from(tokens), Float32Array.from(tokens)];

describe('PrefixCache', () => {
  it('finds the cached prompt sharing the longest prefix', () => {
    const cache = new PrefixCache(1 << 20);
    cache.store([1, 2, 3, 4], arrays([1, 2, 3, 4]));
    cache.store([1, 2, 9, 9, 9], arrays([1, 2, 9, 9, 9]));
    expect(cache.lookup([1, 2, 3, 7])?.length).toBe(3);
    expect(cache.lookup([1, 2, 9, 9, 9, 5])?.entry.tokens).toEqual([1, 2, 9, 9, 9]);
    expect(cache.lookup([5, 1, 2])).toBeNull();
    expect(cache.lookup([1, 2, 3], 4)).toBeNull();
  });

  it('keeps a copy, supersedes prompts a new one extends, and skips prompts it already holds', () => {
    const cache = new PrefixCache(1 << 20);
    const held = arrays([1, 2, 3]);
    cache.store([1, 2, 3], held);
    (held[0] as Float32Array)[0] = 99;
    expect(cache.lookup([1, 2, 3])?.entry.arrays[0]?.[0]).toBe(1);
    cache.store([1, 2, 3, 4, 5], arrays([1, 2, 3, 4, 5]));
    expect(cache.size).toBe(1);
    cache.store([1, 2], arrays([1, 2]));
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used prompts to stay within its bytes', () => {
    // Each prompt of 4 tokens: two arrays of 4 floats, 32 bytes; room for two.
    const cache = new PrefixCache(64);
    cache.store([1, 1, 1, 1], arrays([1, 1, 1, 1]));
    cache.store([2, 2, 2, 2], arrays([2, 2, 2, 2]));
    expect(cache.lookup([1, 1, 1, 1])).not.toBeNull(); // now the most recent
    cache.store([3, 3, 3, 3], arrays([3, 3, 3, 3]));
    expect(cache.lookup([2, 2, 2, 2])).toBeNull();
    expect(cache.lookup([1, 1, 1, 1])).not.toBeNull();
    expect(cache.lookup([3, 3, 3, 3])).not.toBeNull();
    // A prompt larger than the whole budget is not kept, and evicts nothing.
    cache.store([4, 4, 4, 4, 4, 4, 4, 4, 4], arrays([4, 4, 4, 4, 4, 4, 4, 4, 4]));
    expect(cache.size).toBe(2);
  });
});
