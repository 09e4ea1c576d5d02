import { describe, expect, it } from 'vitest';
import { stepWidth } from '../../src/onnx/batch-decoder.js';
import { StepCost, widestWorthIt } from '../../src/onnx/step-cost.js';

describe('stepWidth (the rule before StepCost, kept for A/B): as wide as half the feeding rows can fill', () => {
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

describe('StepCost: the width that feeds the most tokens per unit of a step cost timed on this decoder', () => {
  it('feeds a lone row its whole take whatever a wider step costs (jump-forward at batch 1)', () => {
    for (const exponent of [0, 0.4, 0.9]) {
      expect(widestWorthIt([5], exponent)).toBe(5);
      expect(widestWorthIt([0, 4, 0], exponent)).toBe(4);
    }
  });

  it('widens a batch-8 step only when enough rows fill the width for what it costs', () => {
    // Cost p^0.4: width 6 costs 2.05x width 1, for 12 tokens instead of 8.
    expect(widestWorthIt([6, 1, 1, 1, 1, 1, 1, 1], 0.4)).toBe(1);
    // Three rows of 4 forced tokens: 17 tokens for 1.74x the cost of 8.
    expect(widestWorthIt([4, 4, 4, 1, 1, 1, 1, 1], 0.4)).toBe(4);
    // Where a wider step costs nothing more (a GPU, a tiny model), every forced token goes at once.
    expect(widestWorthIt([6, 1, 1, 1, 1, 1, 1, 1], 0)).toBe(6);
    // Rows riding along (0) count in neither direction.
    expect(widestWorthIt([0, 0, 3, 3], 0.4)).toBe(3);
    expect(widestWorthIt([0, 0], 0.4)).toBe(0);
    expect(widestWorthIt([], 0.4)).toBe(0);
  });

  it('assumes the measured CPU exponent until it has timed steps of two sizes at least 2x apart', () => {
    const cost = new StepCost();
    expect(cost.exponent()).toBe(0.4);
    cost.record(8, 300);
    cost.record(12, 400);
    expect(cost.exponent()).toBe(0.4);
  });

  it('fits the exponent to its own steps, and the width follows', () => {
    const flat = new StepCost();
    for (const positions of [8, 16, 32, 64]) flat.record(positions, 50);
    expect(flat.exponent()).toBeCloseTo(0, 6);
    expect(flat.width([6, 1, 1, 1, 1, 1, 1, 1])).toBe(6);

    const cpu = new StepCost();
    // The 0.6B-shaped model at batch 8 (bench/onnx-step-width.ts): 331, 433, 551, 700 CPU ms.
    for (const [positions, ms] of [
      [8, 331],
      [16, 433],
      [32, 551],
      [64, 700],
    ] as const)
      cpu.record(positions, ms);
    expect(cpu.exponent()).toBeGreaterThan(0.3);
    expect(cpu.exponent()).toBeLessThan(0.4);
    expect(cpu.width([6, 1, 1, 1, 1, 1, 1, 1])).toBe(1);
    expect(cpu.width([3, 3, 3, 3, 1, 1, 1, 1])).toBe(3);

    // Linear cost is clamped below 1, so a lone row still takes its whole run.
    const linear = new StepCost();
    linear.record(8, 100);
    linear.record(64, 800);
    expect(linear.exponent()).toBe(0.9);
    expect(linear.width([5])).toBe(5);
    expect(linear.width([5, 1, 1, 1])).toBe(1);
  });

  it("leaves out a size's first timing once it has another (onnxruntime's first run at a shape is slow)", () => {
    const cost = new StepCost();
    cost.record(8, 300);
    cost.record(8, 300);
    // The first width-4 step took 5x a later one: with it, the fit would read a = 1 (clamped to 0.9).
    cost.record(32, 2000);
    cost.record(32, 400);
    cost.record(32, 400);
    expect(cost.exponent()).toBeCloseTo(Math.log(400 / 300) / Math.log(4), 6);
  });

  it('ignores timings it cannot use (no positions, no time)', () => {
    const cost = new StepCost();
    cost.record(0, 10);
    cost.record(8, 0);
    cost.record(64, Number.NaN);
    expect(cost.exponent()).toBe(0.4);
  });
});
