import { describe, expect, it } from 'vitest';
import { stepWidth } from '../../src/onnx/batch-decoder.js';

describe('stepWidth: how many positions a batched decoding step computes for every row', () => {
  it('feeds a lone row its whole take (jump-forward keeps its one-step saving at batch 1)', () => {
    expect(stepWidth([5])).toBe(5);
    expect(stepWidth([0, 4, 0])).toBe(4);
  });

  it('does not let one row with forced tokens widen the step of seven rows that feed one', () => {
    expect(stepWidth([6, 1, 1, 1, 1, 1, 1, 1])).toBe(1);
  });

  it('is as wide as at least half the feeding rows can fill', () => {
    expect(stepWidth([4, 4, 4, 1, 1, 1])).toBe(4);
    expect(stepWidth([5, 3, 2, 1])).toBe(3);
    expect(stepWidth([2, 9])).toBe(9);
  });

  it('is 0 when no row feeds anything (rows prefilling ride along)', () => {
    expect(stepWidth([0, 0])).toBe(0);
    expect(stepWidth([])).toBe(0);
  });
});
