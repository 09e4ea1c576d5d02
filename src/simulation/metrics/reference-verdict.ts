/**
 * Whether a run's share agrees with a published one, in three verdicts (haggle's choice; why in
 * docs/metrics.md#verdicts): `inconsistent` when the difference is more than both samples' noise
 * explains, `consistent` when it is not and the run is large enough to tell a 2 pp difference,
 * `too-few` otherwise. How the published side's uncertainty is counted depends on what the card gives:
 * its sample (a two-sample exact test), a rounded value (the range the rounding allows), or neither
 * (the value taken as exact, only the run's noise counted).
 */

import { clopperPearson, fisherExactTest, sessionsToTell } from './proportion-tests.js';
import type { PublishedValue } from './published-references.js';

/** What a run says about a published value. */
export type Verdict = 'consistent' | 'inconsistent' | 'too-few';

/**
 * How the verdict was reached. `fisher-exact`: the card gives the value's sample, so the run's count
 * and the card's are compared by Fisher's exact test. `rounding-range`: the card writes "~", so the
 * run's exact interval is set against the range the rounding allows. `exact-interval`: no sample and
 * no "~", so the value is taken as exact and set against the run's exact interval.
 */
export type VerdictMethod = 'fisher-exact' | 'rounding-range' | 'exact-interval';

/** The difference a run must be able to tell before it may be called consistent: 2 percentage points. */
export const TELL_DIFFERENCE = 0.02;

/** A verdict with what it rests on: the method, the test's p-value, the rounding range, the sessions needed. */
export interface VerdictResult {
  verdict: Verdict;
  method: VerdictMethod;
  /** The two-sided p-value of Fisher's exact test; null for the other methods. */
  pValue: number | null;
  /** With `rounding-range`: the range of values the card's rounding allows, [low, high). */
  range: [number, number] | null;
  /** Sessions a run needs for its interval near the published value to be ±2 pp wide at the level. */
  needed: number;
}

/** How `reference` was measured against: see `VerdictMethod`. */
export function verdictMethod(reference: PublishedValue): VerdictMethod {
  if (reference.approximate) return 'rounding-range';
  return reference.sample ? 'fisher-exact' : 'exact-interval';
}

/**
 * The verdict on `successes` of `n` finished sessions against `reference` at `level` (the tests at
 * 1 − level, the run's interval a Clopper-Pearson one at level).
 */
export function judgeReference(
  successes: number,
  n: number,
  reference: PublishedValue,
  level: number,
): VerdictResult {
  const method = verdictMethod(reference);
  const needed = sessionsToTell(reference.value, TELL_DIFFERENCE, level);
  // Rounded to 12 decimals, so that 3% ± 0.5% is [0.025, 0.035) and not 0.0249999…
  const edge = (x: number) => Math.round(x * 1e12) / 1e12;
  const range: [number, number] | null =
    method === 'rounding-range'
      ? [edge(reference.value - reference.precision / 2), edge(reference.value + reference.precision / 2)]
      : null;
  if (n === 0) return { verdict: 'too-few', method, pValue: null, range, needed };
  let differs: boolean;
  let pValue: number | null = null;
  if (method === 'fisher-exact' && reference.sample) {
    const published = Math.round(reference.value * reference.sample.sessions);
    pValue = fisherExactTest(successes, n, published, reference.sample.sessions);
    differs = pValue < 1 - level;
  } else {
    const [low, high] = clopperPearson(successes, n, level);
    differs = range ? high < range[0] || low >= range[1] : reference.value < low || reference.value > high;
  }
  const verdict: Verdict = differs ? 'inconsistent' : n >= needed ? 'consistent' : 'too-few';
  return { verdict, method, pValue, range, needed };
}
