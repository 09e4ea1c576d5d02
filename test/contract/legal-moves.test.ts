import { describe, expect, it } from 'vitest';
import { gridEnds, onGrid, type PriceInterval, priceInInterval } from '../../src/contract/legal-moves.js';

const cents = (min: number, max: number): PriceInterval => ({
  min,
  minInclusive: false,
  max,
  maxInclusive: false,
  step: 0.01,
});

describe('the price grid', () => {
  it('reads binary fractions as the cents they spell, at any size up to MAX_PRICE', () => {
    expect(onGrid(0.07, 0.01)).toBe(true);
    expect(onGrid(0.29, 0.01)).toBe(true);
    expect(onGrid(999_999_999.99, 0.01)).toBe(true);
    // A tenth of a cent off the grid is off it, however large the price.
    expect(onGrid(123_456_789.123, 0.01)).toBe(false);
    expect(priceInInterval(123_456_789.123, cents(0, 1e9))).toBe(false);
    expect(priceInInterval(123_456_789.12, cents(0, 1e9))).toBe(true);
  });

  it('gives the first and last grid prices strictly inside open ends, and on closed ones', () => {
    expect(gridEnds(cents(80, 120))).toEqual({ lowest: 80.01, highest: 119.99 });
    expect(gridEnds({ ...cents(80, 120), minInclusive: true, maxInclusive: true })).toEqual({
      lowest: 80,
      highest: 120,
    });
    expect(gridEnds(cents(1_234_567.89, 999_999_999.99))).toEqual({
      lowest: 1_234_567.9,
      highest: 999_999_999.98,
    });
    expect(gridEnds(cents(0.04, 0.07))).toEqual({ lowest: 0.05, highest: 0.06 });
    expect(gridEnds(cents(119.99, 120))).toBeNull();
    expect(gridEnds({ min: 1, minInclusive: false, max: 3, maxInclusive: false, step: 0.5 })).toEqual({
      lowest: 1.5,
      highest: 2.5,
    });
  });
});
