import { describe, expect, it } from 'vitest';
import { LogitsArena, scanBlocks } from '../../../src/decoding/mask/block-max-kernel.js';
import { Random } from '../../../src/internal/random.js';

/** The pass the kernel replaces, written plainly: per block of 32 ids, the largest allowed logit. */
function reference(logits: Float32Array, mask: Uint32Array | null, words: number, blockTop: Float64Array) {
  let allowed = 0;
  for (let w = 0; w < words; w++) {
    const word = mask === null ? 0xffffffff : (mask[w] as number);
    let best = Number.NEGATIVE_INFINITY;
    for (let bit = 0; bit < 32; bit++) {
      if (((word >>> bit) & 1) === 0) continue;
      allowed++;
      const v = logits[w * 32 + bit] as number;
      if (v > best) best = v;
    }
    blockTop[w] = best;
  }
  return allowed;
}

/** Logits with NaN and infinities sprinkled in, and a mask mixing empty, full and partial words. */
function randomCase(random: Random, words: number, masked: boolean) {
  const logits = new Float32Array(words * 32 + 7);
  for (let i = 0; i < logits.length; i++) {
    const r = random.next();
    logits[i] =
      r < 0.02
        ? Number.NaN
        : r < 0.04
          ? Number.NEGATIVE_INFINITY
          : r < 0.05
            ? Number.POSITIVE_INFINITY
            : (random.next() - 0.5) * 60;
  }
  const mask = masked
    ? Uint32Array.from({ length: words }, () => {
        const r = random.next();
        return r < 0.25 ? 0 : r < 0.5 ? 0xffffffff : Math.floor(random.next() * 2 ** 32) >>> 0;
      })
    : null;
  return { logits, mask };
}

describe('scanBlocks', () => {
  it('gives every block maximum and the allowed count exactly as the JavaScript pass, NaN ranking lowest', () => {
    const random = new Random(3);
    for (let trial = 0; trial < 120; trial++) {
      const words = 1 + Math.floor(random.next() * 200);
      const { logits, mask } = randomCase(random, words, trial % 2 === 1);
      const got = new Float64Array(words);
      const want = new Float64Array(words);
      const count = scanBlocks(logits, mask, words, got);
      expect(count).toBe(reference(logits, mask, words, want));
      expect(Array.from(got)).toEqual(Array.from(want));
      expect(got.some(Number.isNaN)).toBe(false);
    }
  });

  it('reads logits in place from an arena, at any offset, and sees what was written there', () => {
    const arena = LogitsArena.create();
    expect(arena).not.toBeNull();
    if (!arena) return;
    const random = new Random(9);
    const words = 150;
    for (let trial = 0; trial < 20; trial++) {
      // Grows now and then: a view taken after growing still scans correctly.
      const rows = 2 + (trial % 5);
      const all = arena.view(rows * words * 32);
      const { logits, mask } = randomCase(random, words, trial % 2 === 0);
      const row = trial % rows;
      const view = all.subarray(row * words * 32, (row + 1) * words * 32);
      view.set(logits.subarray(0, words * 32));
      const got = new Float64Array(words);
      const want = new Float64Array(words);
      expect(scanBlocks(view, mask, words, got)).toBe(reference(logits, mask, words, want));
      expect(Array.from(got)).toEqual(Array.from(want));
    }
  });
});
