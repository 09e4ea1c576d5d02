/**
 * Intervals for differences of proportions measured on pairs (the same negotiation played by two arms,
 * each ending in a deal or not). A bootstrap of the paired differences collapses to [0, 0] when every
 * pair agrees (16 deals of 16 for both arms), although 16 pairs cannot rule out a difference of several
 * points; the score interval below keeps its width at 0 and at n.
 */
import { normalQuantile } from './special-functions.js';

/**
 * Tango's score interval for the paired difference of two proportions, p(A) − p(B), from the pairs'
 * discordant counts: `onlyA` pairs where A succeeded and B did not, `onlyB` the reverse, of `n` pairs.
 * The interval is every Δ whose score statistic
 *
 *   T(Δ) = (onlyA − onlyB − nΔ) / √( n (2 q̂ + Δ(1 − Δ)) ),
 *
 * with q̂ the maximum-likelihood estimate of P(B only) under Δ, the positive root of
 * 2n q² + (−onlyA − onlyB + (2n − onlyA + onlyB) Δ) q − onlyB Δ (1 − Δ) = 0,
 * stays within ±z at `level`. From T. Tango, "Equivalence test and confidence interval for the
 * difference in proportions for the paired-sample design", Statistics in Medicine 17 (1998) 891–908,
 * equations (3) and (5), implemented here from the paper's formulas and solved by bisection on each side
 * (T falls as Δ rises). Never zero-width for n ≥ 1: with no discordant pair it is ±z² / (n + z²)
 * (±0.194 for 16 pairs at 95%).
 */
export function pairedProportionInterval(
  onlyA: number,
  onlyB: number,
  n: number,
  level = 0.95,
): [number, number] {
  if (
    !Number.isInteger(n) ||
    n < 1 ||
    !Number.isInteger(onlyA) ||
    !Number.isInteger(onlyB) ||
    onlyA < 0 ||
    onlyB < 0 ||
    onlyA + onlyB > n
  )
    throw new RangeError(
      `pairedProportionInterval needs 0 ≤ onlyA + onlyB ≤ n, n ≥ 1, got ${onlyA} + ${onlyB} of ${n}`,
    );
  if (!(level > 0 && level < 1)) throw new RangeError(`level must lie in (0, 1), got ${level}`);
  const z = normalQuantile(1 - (1 - level) / 2);
  const estimate = (onlyA - onlyB) / n;
  const score = (delta: number): number => {
    const numerator = onlyA - onlyB - n * delta;
    const a = 2 * n;
    const b = -onlyA - onlyB + (2 * n - onlyA + onlyB) * delta;
    const c = -onlyB * delta * (1 - delta);
    const q = Math.max(0, (-b + Math.sqrt(Math.max(0, b * b - 4 * a * c))) / (2 * a));
    const variance = n * (2 * q + delta * (1 - delta));
    if (numerator === 0) return 0;
    if (!(variance > 0)) return numerator > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    return numerator / Math.sqrt(variance);
  };
  // The upper end: the largest Δ ≥ estimate with T(Δ) ≥ −z; the lower: the smallest Δ ≤ estimate with T(Δ) ≤ z.
  const edge = (inside: number, outside: number, accepts: (delta: number) => boolean): number => {
    if (accepts(outside)) return outside;
    let keep = inside;
    let drop = outside;
    for (let i = 0; i < 200 && Math.abs(drop - keep) > 1e-13; i++) {
      const middle = (keep + drop) / 2;
      if (accepts(middle)) keep = middle;
      else drop = middle;
    }
    return keep;
  };
  const high = edge(estimate, 1, (delta) => score(delta) >= -z);
  const low = edge(estimate, -1, (delta) => score(delta) <= z);
  return [low, high];
}

/**
 * The interval of d1 − d2 for two independent estimates with their own intervals, by the method of
 * variance estimates recovery (MOVER; G. Y. Zou and A. Donner, Statistical Methods in Medical Research
 * 17 (2008) 89–100; Newcombe's square-and-add): each end combines the distances of the matching ends.
 * Wider than either part, so never zero-width when either part has width.
 */
export function differenceOfIntervals(
  first: { estimate: number; low: number; high: number },
  second: { estimate: number; low: number; high: number },
): [number, number] {
  const delta = first.estimate - second.estimate;
  const low = delta - Math.sqrt((first.estimate - first.low) ** 2 + (second.high - second.estimate) ** 2);
  const high = delta + Math.sqrt((first.high - first.estimate) ** 2 + (second.estimate - second.low) ** 2);
  return [low, high];
}
