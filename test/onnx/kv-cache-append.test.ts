import { describe, expect, it } from 'vitest';
import { KvCache } from '../../src/onnx/kv-cache.js';

// What the decoder does with a graph that returns only a run's own keys and values
// (`new_key_values.*`): the cache grows by those columns, every row and head in its own place.
describe('KvCache.append', () => {
  // 2 layers (4 arrays), 2 KV heads, head size 3; each value encodes where it lives.
  const value = (array: number, row: number, head: number, col: number, d: number) =>
    array * 10_000 + row * 1000 + head * 100 + col * 10 + d;
  /** Array `a`'s columns `from..from+width` of every row and head, laid out [rows, 2, width, 3]. */
  const columns = (a: number, rows: number, from: number, width: number) =>
    Float32Array.from({ length: rows * 2 * width * 3 }, (_, i) => {
      const d = i % 3;
      const col = from + (Math.floor(i / 3) % width);
      const head = Math.floor(i / (3 * width)) % 2;
      const row = Math.floor(i / (6 * width));
      return value(a, row, head, col, d);
    });

  it('grows an empty cache, then appends one and several columns after the past of every plane', () => {
    const cache = new KvCache(2, 2, 3, false);
    cache.addRows(2);
    let length = 0;
    for (const width of [4, 1, 1, 3, 1]) {
      cache.append(
        Array.from({ length: 4 }, (_, a) => columns(a, 2, length, width)),
        width,
      );
      length += width;
      expect(cache.length).toBe(length);
      for (const [a, array] of cache.arrays.entries()) {
        expect(array.length).toBe(2 * 2 * length * 3);
        expect(array).toEqual(columns(a, 2, 0, length));
      }
    }
  });

  it('refuses columns of the wrong size rather than shifting every later plane', () => {
    const cache = new KvCache(1, 2, 3, false);
    cache.addRows(1);
    expect(() =>
      cache.append(
        Array.from({ length: 2 }, () => new Float32Array(5)),
        1,
      ),
    ).toThrow(/hold 5 values, not 6/);
  });
});
