// Estimates with their intervals and paired comparisons of two arms, over plain numbers: the statistics a
// tournament (src/evaluation/) reports, beside the bootstrap and proportion intervals they are built on, so
// haggle's statistics live in one folder. Public through haggle/evaluation, where tournament results use
// them; haggle/metrics keeps the names it had (haggle's choice: no entry's surface changed in the move).

import { Random } from '../../internal/random.js';
import { bootstrapCi } from './bootstrap.js';
import { pairedProportionInterval } from './paired-proportion-interval.js';
import { clopperPearson } from './proportion-tests.js';

/** A mean (or a proportion) with its 95% confidence interval. */
export interface Estimate {
  n: number;
  mean: number;
  low: number;
  high: number;
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? Number.NaN : sum / values.length;
}

/**
 * A proportion of matches (0/1 outcomes, such as deals) with its exact (Clopper-Pearson) interval: a
 * proportion has a closed form that holds at any sample size, where a bootstrap of 16 deals in 16
 * matches gives the zero-width [1, 1] (docs/metrics.md#confidence-intervals).
 */
export function proportionEstimate(outcomes: readonly boolean[], level = 0.95): Estimate {
  const n = outcomes.length;
  if (n === 0) return { n, mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const successes = outcomes.filter(Boolean).length;
  const [low, high] = clopperPearson(successes, n, level);
  return { n, mean: successes / n, low, high };
}

/**
 * The mean of paired differences of 0/1 outcomes (arm A's deal minus arm B's on the same negotiation,
 * each difference −1, 0 or 1): the paired difference of two proportions, with Tango's score interval
 * (`pairedProportionInterval`). A bootstrap of these differences gives 16 pairs that all agree the
 * zero-width [0, 0]; the score interval gives ±0.194.
 */
export function pairedProportionEstimate(diffs: readonly number[], level = 0.95): Estimate {
  const n = diffs.length;
  if (n === 0) return { n, mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  let onlyA = 0;
  let onlyB = 0;
  for (const d of diffs) {
    if (d === 1) onlyA++;
    else if (d === -1) onlyB++;
    else if (d !== 0) throw new RangeError(`a paired difference of 0/1 outcomes is −1, 0 or 1, got ${d}`);
  }
  const [low, high] = pairedProportionInterval(onlyA, onlyB, n, level);
  return { n, mean: (onlyA - onlyB) / n, low, high };
}

/** Percentile bootstrap CI of the mean, seeded so a report repeats exactly (the run metrics' bootstrap). */
export function bootstrapMean(
  values: readonly number[],
  options: { resamples?: number; seed?: number; level?: number } = {},
): Estimate {
  const n = values.length;
  if (n === 0) return { n, mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const { value, ci } = bootstrapCi(
    values.map((x) => [x, 1] as const),
    { resamples: options.resamples ?? 2000, seed: options.seed ?? 0, level: options.level ?? 0.95 },
  );
  return { n, mean: value ?? mean(values), low: ci?.[0] ?? Number.NaN, high: ci?.[1] ?? Number.NaN };
}

/** The difference between two arms on the same negotiations, and whether it is detectable. */
export interface PairedComparison {
  n: number;
  /**
   * Mean of (a - b) over the paired negotiations, with its 95% CI: Tango's score interval for 0/1
   * outcomes (`outcomes: 'binary'`), else the bootstrap's (no interval when every difference is the same).
   */
  difference: Estimate;
  /** Two-sided p-value of a sign-flip permutation test of "no difference". */
  pValue: number;
  /** A sentence stating the result as a statistical statement. */
  verdict: string;
}

/**
 * Compares paired measurements (the same negotiation played by arm A and arm B): a bootstrap CI of the
 * mean difference and a sign-flip permutation test. "No detectable difference" is said only when the
 * test does not reject at `alpha`, and always with the interval, never from a glance at two means.
 */
export function pairedComparison(
  a: readonly number[],
  b: readonly number[],
  options: {
    resamples?: number;
    permutations?: number;
    seed?: number;
    alpha?: number;
    /** `binary`: every value is 0 or 1 (deals), so the difference is one of paired proportions. */
    outcomes?: 'binary' | 'continuous';
  } = {},
): PairedComparison {
  if (a.length !== b.length) throw new RangeError('paired samples must have the same length');
  const diffs = a.map((x, i) => x - (b[i] as number));
  const n = diffs.length;
  const difference =
    options.outcomes === 'binary'
      ? pairedProportionEstimate(diffs)
      : bootstrapMean(diffs, { resamples: options.resamples ?? 2000, seed: options.seed ?? 0 });
  const observed = Math.abs(mean(diffs));
  const permutations = options.permutations ?? 5000;
  const random = new Random((options.seed ?? 0) + 1);
  let extreme = 0;
  for (let p = 0; p < permutations; p++) {
    let sum = 0;
    for (const d of diffs) sum += random.next() < 0.5 ? -d : d;
    if (Math.abs(sum / n) >= observed - 1e-12) extreme++;
  }
  // The +1s count the observed labelling itself, so the p-value is never exactly 0.
  const pValue = (extreme + 1) / (permutations + 1);
  const alpha = options.alpha ?? 0.05;
  const ci = Number.isNaN(difference.low)
    ? 'no 95% CI (every paired difference is the same; a bootstrap cannot show their spread)'
    : `95% CI [${difference.low.toFixed(4)}, ${difference.high.toFixed(4)}]`;
  const interval = `mean difference ${difference.mean.toFixed(4)}, ${ci}, p = ${pValue.toFixed(4)}, n = ${n}`;
  const verdict =
    n === 0
      ? 'no paired negotiations to compare'
      : pValue < alpha
        ? `detectable difference at the ${alpha * 100}% level: ${interval}`
        : `no detectable difference at the ${alpha * 100}% level: ${interval}`;
  return { n, difference, pValue, verdict };
}

/** `mean [low, high]` with `digits` decimals; `–` for what could not be estimated. */
export function formatEstimate(e: Estimate, digits = 3): string {
  const number = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(digits));
  return Number.isNaN(e.mean) ? '–' : `${number(e.mean)} [${number(e.low)}, ${number(e.high)}]`;
}
