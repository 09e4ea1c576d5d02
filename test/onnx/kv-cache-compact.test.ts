import { describe, expect, it } from 'vitest';
import { KvCache } from '../../src/onnx/kv-cache.js';

describe('KvCache.compact', () => {
  it("right-aligns each row's listed columns into a shorter cache, every head and layer", () => {
    // 2 layers, 2 KV heads, head size 3, 2 rows, 6 columns; each value encodes where it lives.
    const cache = new KvCache(2, 2, 3, false);
    cache.addRows(2);
    const value = (array: number, row: number, head: number, col: number, d: number) =>
      array * 10_000 + row * 1000 + head * 100 + col * 10 + d;
    cache.replace(
      Array.from({ length: 4 }, (_, a) =>
        Float32Array.from({ length: 2 * 2 * 6 * 3 }, (_, i) => {
          const d = i % 3;
          const col = Math.floor(i / 3) % 6;
          const head = Math.floor(i / 18) % 2;
          const row = Math.floor(i / 36);
          return value(a, row, head, col, d);
        }),
      ),
      6,
    );
    cache.compact(
      [
        [1, 4],
        [0, 2, 5],
      ],
      3,
    );
    expect(cache.length).toBe(3);
    for (const [a, array] of cache.arrays.entries()) {
      const at = (row: number, head: number, col: number, d: number) =>
        array[((row * 2 + head) * 3 + col) * 3 + d];
      for (let head = 0; head < 2; head++) {
        for (let d = 0; d < 3; d++) {
          // Row 0 had two columns: they land in columns 1 and 2; column 0 is empty (masked).
          expect(at(0, head, 0, d)).toBe(0);
          expect(at(0, head, 1, d)).toBe(value(a, 0, head, 1, d));
          expect(at(0, head, 2, d)).toBe(value(a, 0, head, 4, d));
          expect([0, 1, 2].map((c) => at(1, head, c, d))).toEqual(
            [0, 2, 5].map((c) => value(a, 1, head, c, d)),
          );
        }
      }
    }
  });
});
