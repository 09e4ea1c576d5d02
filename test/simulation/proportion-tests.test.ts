import { describe, expect, it } from 'vitest';
import {
  clopperPearson,
  fisherExactTest,
  sessionsToTell,
} from '../../src/simulation/metrics/proportion-tests.js';
import {
  logGamma,
  normalCdf,
  normalQuantile,
  regularizedBeta,
} from '../../src/simulation/metrics/special-functions.js';

// Reference values from scipy 1.17 (stats.binomtest(...).proportion_ci(method='exact'),
// stats.fisher_exact), computed outside this repository and written here as numbers.

describe('special functions', () => {
  it('ln Γ matches its exact values at halves and integers', () => {
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(logGamma(1)).toBeCloseTo(0, 12);
    let factorial = 1;
    for (let n = 2; n <= 20; n++) {
      factorial *= n - 1;
      expect(logGamma(n)).toBeCloseTo(Math.log(factorial), 10);
    }
  });

  it('I_x(a, b) matches closed forms: I_x(1, b) = 1 − (1 − x)^b, I_x(a, 1) = x^a, and symmetry', () => {
    for (const x of [0.01, 0.3, 0.5, 0.9]) {
      expect(regularizedBeta(x, 1, 7)).toBeCloseTo(1 - (1 - x) ** 7, 12);
      expect(regularizedBeta(x, 5, 1)).toBeCloseTo(x ** 5, 12);
      expect(regularizedBeta(x, 30, 12) + regularizedBeta(1 - x, 12, 30)).toBeCloseTo(1, 12);
    }
  });

  it('the normal quantile inverts the normal distribution function', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 10);
    expect(normalCdf(-1.959964)).toBeCloseTo(0.025, 6);
  });
});

describe('Clopper-Pearson intervals', () => {
  it('match scipy, where a bootstrap gave [0%, 31.7%] for 3 of 19', () => {
    const [low, high] = clopperPearson(3, 19);
    expect(low).toBeCloseTo(0.033826249, 8);
    expect(high).toBeCloseTo(0.395784551, 8);
    const [low20k, high20k] = clopperPearson(8440, 20_000);
    expect(low20k).toBeCloseTo(0.415142072, 8);
    expect(high20k).toBeCloseTo(0.428880611, 8);
  });

  it('are never zero-width from a finite sample: 19 of 19 and 0 of 7 have their closed forms', () => {
    const [low, high] = clopperPearson(19, 19);
    expect(low).toBeCloseTo(0.025 ** (1 / 19), 10);
    expect(low).toBeCloseTo(0.823533088, 8);
    expect(high).toBe(1);
    const [zeroLow, zeroHigh] = clopperPearson(0, 7);
    expect(zeroLow).toBe(0);
    expect(zeroHigh).toBeCloseTo(1 - 0.025 ** (1 / 7), 10);
    for (let n = 1; n <= 40; n++) {
      for (const k of [0, Math.floor(n / 2), n]) {
        const [a, b] = clopperPearson(k, n);
        expect(b - a).toBeGreaterThan(0);
        expect(a).toBeLessThanOrEqual(k / n);
        expect(b).toBeGreaterThanOrEqual(k / n);
      }
    }
  });

  it('refuse counts that are not counts', () => {
    expect(() => clopperPearson(3, 0)).toThrow(RangeError);
    expect(() => clopperPearson(5, 4)).toThrow(RangeError);
    expect(() => clopperPearson(1.5, 4)).toThrow(RangeError);
  });
});

describe("Fisher's exact test", () => {
  it('matches scipy and the tea-tasting table', () => {
    expect(fisherExactTest(3, 4, 1, 4)).toBeCloseTo(0.485714286, 8);
    expect(fisherExactTest(3, 19, 764, 2000)).toBeCloseTo(0.056079275, 7);
    expect(fisherExactTest(3, 19, 680, 2000)).toBeCloseTo(0.141514242, 7);
    expect(fisherExactTest(8440, 20_000, 860, 2000)).toBeCloseTo(0.491298247, 7);
    expect(fisherExactTest(600, 2000, 764, 2000)).toBeCloseTo(5.2851e-8, 11);
  });

  it('gives 1 for equal proportions and is symmetric in its two samples', () => {
    expect(fisherExactTest(10, 20, 100, 200)).toBeCloseTo(1, 10);
    expect(fisherExactTest(3, 19, 764, 2000)).toBeCloseTo(fisherExactTest(764, 2000, 3, 19), 12);
  });
});

describe('sessions needed to tell a difference', () => {
  it('is z² p(1 − p) / d²: 2,268 at 38.2% for 2 pp', () => {
    expect(sessionsToTell(0.382, 0.02)).toBe(2268);
    expect(sessionsToTell(0.43, 0.02)).toBe(2354);
    expect(sessionsToTell(0.5, 0.02, 0.99)).toBeGreaterThan(sessionsToTell(0.5, 0.02, 0.95));
  });
});
