import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/internal/bounded-cache.js';

describe('BoundedCache', () => {
  it('drops the entry set longest ago once full (insertion order), reads do not count', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([false, true, true]);
    expect(cache.size).toBe(2);
    expect(cache.evictions).toBe(1);
  });

  it("drops the least recently used with order 'use'", () => {
    const cache = new BoundedCache<string, number>(2, 'use');
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
  });

  it('replaces a key in place without evicting, and makes a missing value once', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    expect(cache.size).toBe(2);
    expect(cache.evictions).toBe(0);
    let made = 0;
    expect(cache.getOrCreate('z', () => ++made)).toBe(1);
    expect(cache.getOrCreate('z', () => ++made)).toBe(1);
    expect(made).toBe(1);
    expect([...cache.values()]).toEqual([10, 1]);
  });

  it('stays within its limit whatever is set', () => {
    const cache = new BoundedCache<number, number>(16);
    for (let i = 0; i < 10_000; i++) cache.set(i, i);
    expect(cache.size).toBe(16);
    expect(cache.evictions).toBe(10_000 - 16);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
    expect(() => new BoundedCache(1.5)).toThrow(RangeError);
  });
});
