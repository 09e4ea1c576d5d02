/**
 * Whether a run's share agrees with a published one, in the verdicts of `equivalence.ts` (haggle's
 * choice; why in docs/metrics.md#verdicts): `inconsistent` when the difference's interval excludes 0,
 * `consistent` only when it lies inside ±margin (two one-sided tests), `too-few` otherwise with the
 * sessions a run would need, and `cannot-tell` when the published value's own uncertainty leaves no run
 * size that could. How the published side's uncertainty is counted depends on what the card gives: its
 * sample (Newcombe's interval of two proportions, and Fisher's exact test), a rounded value (the range
 * the rounding allows), or neither (the value taken as exact, only the run's noise counted).
 */

import { DEFAULT_SHARE_MARGIN, equivalenceVerdict, sessionsNeeded, type Verdict } from './equivalence.js';
import { clopperPearson, fisherExactTest, proportionDifferenceInterval } from './proportion-tests.js';
import type { PublishedValue } from './published-references.js';

export type { Verdict } from './equivalence.js';

/**
 * How the difference's interval was drawn. `fisher-exact`: the card gives the value's sample, so the
 * run's count and the card's are set side by side (Newcombe's square-and-add of both Clopper-Pearson
 * intervals; Fisher's exact test for the p-value). `rounding-range`: the card writes "~", so the run's
 * exact interval is set against the range the rounding allows. `exact-interval`: no sample and no "~",
 * so the value is taken as exact and the difference's interval is the run's exact one, shifted.
 */
export type VerdictMethod = 'fisher-exact' | 'rounding-range' | 'exact-interval';

/**
 * @deprecated No verdict uses it any more: "consistent" now needs the difference's interval inside an
 * equivalence margin (`DEFAULT_SHARE_MARGIN`, 2.5 pp, the `margin` option). Kept at its old value, 2 pp.
 */
export const TELL_DIFFERENCE = 0.02;

/** A verdict with what it rests on: the difference and its interval, the margin, the sessions needed. */
export interface VerdictResult {
  verdict: Verdict;
  method: VerdictMethod;
  /** The run's share minus the published one (against a range, minus its middle); null when n is 0. */
  difference: number | null;
  /** The interval of the difference at the comparison's level; null when n is 0. */
  differenceCi: [number, number] | null;
  /** The equivalence margin, as a share: consistent needs `differenceCi` inside ±margin. */
  margin: number;
  /**
   * Half the width the published value's own uncertainty gives the difference at any run size (its
   * sample's exact interval, or its rounding; 0 for a value taken as exact).
   */
  referenceHalfWidth: number;
  /** How far the published value's own interval (sample or rounding) reaches below and above it. */
  referenceSpread: [number, number];
  /** With `fisher-exact`: the two-sided p-value of Fisher's exact test of the two counts; else null. */
  pValue: number | null;
  /** With `rounding-range`: the range of values the card's rounding allows, [low, high). */
  range: [number, number] | null;
  /**
   * Sessions a run whose share equals the published value needs for the difference's interval to lie
   * inside ±margin; null where no run size can (`cannot-tell`).
   */
  needed: number | null;
}

/** How `reference` was measured against: see `VerdictMethod`. */
export function verdictMethod(reference: PublishedValue): VerdictMethod {
  if (reference.approximate) return 'rounding-range';
  return reference.sample ? 'fisher-exact' : 'exact-interval';
}

/** The run's difference interval against `reference` for `successes` of `n`, and its parts. */
function differenceInterval(
  successes: number,
  n: number,
  reference: PublishedValue,
  method: VerdictMethod,
  range: [number, number] | null,
  level: number,
): [number, number] {
  if (method === 'fisher-exact' && reference.sample) {
    const sessions = reference.sample.sessions;
    const published = Math.round(reference.value * sessions);
    return proportionDifferenceInterval(successes, n, published, sessions, level);
  }
  const [low, high] = clopperPearson(successes, n, level);
  if (range) return [low - range[1], high - range[0]];
  return [low - reference.value, high - reference.value];
}

/**
 * The verdict on `successes` of `n` finished sessions against `reference` at `level` (every interval
 * at level), with the equivalence `margin` (a share; default 2.5 pp).
 */
export function judgeReference(
  successes: number,
  n: number,
  reference: PublishedValue,
  level: number,
  margin: number = DEFAULT_SHARE_MARGIN,
): VerdictResult {
  const method = verdictMethod(reference);
  // Rounded to 12 decimals, so that 3% ± 0.5% is [0.025, 0.035) and not 0.0249999…
  const edge = (x: number) => Math.round(x * 1e12) / 1e12;
  const range: [number, number] | null =
    method === 'rounding-range'
      ? [edge(reference.value - reference.precision / 2), edge(reference.value + reference.precision / 2)]
      : null;
  let referenceSpread: [number, number] = [0, 0];
  if (range) referenceSpread = [reference.value - range[0], range[1] - reference.value];
  else if (method === 'fisher-exact' && reference.sample) {
    const sessions = reference.sample.sessions;
    const published = Math.round(reference.value * sessions);
    const [low, high] = clopperPearson(published, sessions, level);
    referenceSpread = [published / sessions - low, high - published / sessions];
  }
  const referenceWidth = referenceSpread[0] + referenceSpread[1];
  const reachable = referenceWidth < 2 * margin;
  const needed = reachable
    ? sessionsNeeded(
        (size) =>
          differenceInterval(Math.round(reference.value * size), size, reference, method, range, level),
        margin,
      )
    : null;
  const base = { method, margin, referenceHalfWidth: referenceWidth / 2, referenceSpread, range, needed };
  if (n === 0)
    return {
      ...base,
      verdict: equivalenceVerdict(null, margin, referenceWidth),
      difference: null,
      differenceCi: null,
      pValue: null,
    };
  const differenceCi = differenceInterval(successes, n, reference, method, range, level);
  const middle = range ? (range[0] + range[1]) / 2 : reference.value;
  let pValue: number | null = null;
  if (method === 'fisher-exact' && reference.sample) {
    const sessions = reference.sample.sessions;
    pValue = fisherExactTest(successes, n, Math.round(reference.value * sessions), sessions);
  }
  return {
    ...base,
    verdict: equivalenceVerdict(differenceCi, margin, referenceWidth),
    difference: successes / n - middle,
    differenceCi,
    pValue,
  };
}
