/**
 * Exact intervals and tests for proportions of sessions (deal rates, message-session shares). They
 * hold at any sample size, where a bootstrap over 19 sessions with 3 deals gives [0%, 31.7%] and one
 * over 19 of 19 gives the zero-width [100%, 100%]: a closed form exists for a proportion, so no
 * resampling is needed.
 */
import { inverseRegularizedBeta, logChoose, normalQuantile } from './special-functions.js';

/**
 * The Clopper-Pearson ("exact") interval of `successes` out of `n` at `level`: every rate whose
 * binomial test at 1 − level would not reject the count. Conservative (it covers at least `level`),
 * and never zero-width for n ≥ 1: 0 of n gives [0, 1 − (α/2)^(1/n)].
 */
export function clopperPearson(successes: number, n: number, level = 0.95): [number, number] {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(successes) || successes < 0 || successes > n)
    throw new RangeError(`clopperPearson needs 0 ≤ successes ≤ n, n ≥ 1, got ${successes} of ${n}`);
  const alpha = 1 - level;
  const low = successes === 0 ? 0 : inverseRegularizedBeta(alpha / 2, successes, n - successes + 1);
  const high = successes === n ? 1 : inverseRegularizedBeta(1 - alpha / 2, successes + 1, n - successes);
  return [low, high];
}

/**
 * The two-sided p-value of Fisher's exact test that `a` of `n1` and `b` of `n2` come from one rate:
 * the probability, given the margins, of a table as likely as the observed one or less. It holds at
 * small counts, where the normal approximation of a z-test does not.
 */
export function fisherExactTest(a: number, n1: number, b: number, n2: number): number {
  for (const [k, n] of [
    [a, n1],
    [b, n2],
  ] as const) {
    if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 0 || k > n)
      throw new RangeError(`fisherExactTest needs 0 ≤ k ≤ n, n ≥ 1, got ${k} of ${n}`);
  }
  const successes = a + b;
  const logTotal = logChoose(n1 + n2, successes);
  const logP = (k: number) => logChoose(n1, k) + logChoose(n2, successes - k) - logTotal;
  const observed = logP(a);
  let p = 0;
  // Tables at least as extreme: no more likely than the observed one (a relative slack for rounding).
  for (let k = Math.max(0, successes - n2); k <= Math.min(n1, successes); k++) {
    const lp = logP(k);
    if (lp <= observed + 1e-7) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

/**
 * Sessions a run needs for its interval of a rate near `rate` to be ±`difference` wide at `level`
 * (the normal planning formula n = z² p(1 − p) / d²): below it, a run cannot tell a difference of
 * that size from noise.
 */
export function sessionsToTell(rate: number, difference: number, level = 0.95): number {
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = Math.min(Math.max(rate, 0.01), 0.99);
  return Math.ceil((z * z * p * (1 - p)) / (difference * difference));
}

/**
 * An interval for the difference of two proportions, a/n1 − b/n2, built from each side's
 * Clopper-Pearson interval by Newcombe's square-and-add (MOVER) construction: closed form, never
 * zero-width for finite samples (19 of 19 against 19 of 19 gives about ±17.6 pp, where a bootstrap
 * gives [0, 0]), and at large n as wide as the normal approximation. haggle's choice for the rows of
 * `compare` that are proportions, so the interval and the Fisher test of a row stand on exact pieces.
 */
export function proportionDifferenceInterval(
  a: number,
  n1: number,
  b: number,
  n2: number,
  level = 0.95,
): [number, number] {
  const p1 = a / n1;
  const p2 = b / n2;
  const [l1, u1] = clopperPearson(a, n1, level);
  const [l2, u2] = clopperPearson(b, n2, level);
  const delta = p1 - p2;
  const low = delta - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2);
  const high = delta + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2);
  return [Math.max(-1, low), Math.min(1, high)];
}
