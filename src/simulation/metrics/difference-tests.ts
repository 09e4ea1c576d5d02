import { Random } from '../../internal/random.js';
import { percentileInterval } from './bootstrap.js';
import { bootstrapMean, type Estimate, pairedProportionEstimate } from './estimates.js';
import { differenceOfIntervals } from './paired-proportion-interval.js';
import {
  labelPermutationPValue,
  type PermutationOptions,
  type PermutationPValue,
  signFlipPValue,
} from './permutation-test.js';

/** Resampling settings of the difference tests: bootstrap resamples and permutations. */
export interface TestOptions extends PermutationOptions {
  /** Bootstrap resamples. Default 2000. */
  resamples?: number;
  /**
   * `binary`: the paired values are 0/1 outcomes (deals), so each difference is −1, 0 or 1 and the
   * interval is Tango's score interval for paired proportions instead of a bootstrap. Default `continuous`.
   */
  outcomes?: 'binary' | 'continuous';
}

/** A paired mean difference with its interval and its permutation p-value. */
export interface PairedDifference {
  n: number;
  /**
   * Mean of the paired differences with its 95% CI: Tango's score interval for 0/1 outcomes, else a
   * percentile bootstrap resampling the paired units (no interval, NaN, when every difference is equal).
   */
  difference: Estimate;
  pValue: number;
  /** `sign-flip`: exchangeability of the two arms within each unit. */
  test: 'sign-flip';
  method: PermutationPValue['method'];
}

/** The mean of paired differences: bootstrap over units, sign-flip p (see `signFlipPValue`). */
export function pairedDifference(diffs: readonly number[], options: TestOptions = {}): PairedDifference {
  const seed = options.seed ?? 0;
  const difference =
    options.outcomes === 'binary'
      ? pairedProportionEstimate(diffs)
      : bootstrapMean(diffs, { resamples: options.resamples ?? 2000, seed });
  const p = signFlipPValue(diffs, { ...options, seed: seed + 1 });
  return { n: diffs.length, difference, pValue: p.pValue, test: 'sign-flip', method: p.method };
}

/** A difference between the mean paired differences of two independent sets of units. */
export interface DifferenceOfDifferences {
  nFirst: number;
  nSecond: number;
  /**
   * mean(first) - mean(second) with its 95% CI: for 0/1 outcomes, each side's Tango interval combined
   * by MOVER (`differenceOfIntervals`); else a percentile bootstrap resampling each set's units.
   */
  difference: Estimate;
  pValue: number;
  /** `label-permutation`: the units' differences are exchangeable between the two sets. */
  test: 'label-permutation';
  method: PermutationPValue['method'];
}

/**
 * mean(first) - mean(second) of two independent samples of paired differences (the gains on two
 * opponents, or on two groups of opponents, are measured on different negotiations). The interval
 * resamples the units of each sample separately (a stratified bootstrap that keeps both sizes); the
 * p-value relabels units between the samples (see `labelPermutationPValue`). A sign flip would be the
 * wrong test here: its null is "every difference is symmetric about 0", while "no interaction" allows
 * both gains to be large as long as they are equal.
 */
export function differenceOfDifferences(
  first: readonly number[],
  second: readonly number[],
  options: TestOptions = {},
): DifferenceOfDifferences {
  const seed = options.seed ?? 0;
  const p = labelPermutationPValue(first, second, { ...options, seed: seed + 1 });
  return {
    nFirst: first.length,
    nSecond: second.length,
    difference:
      options.outcomes === 'binary'
        ? differenceOfPairedProportions(first, second)
        : bootstrapDifferenceOfMeans(first, second, { resamples: options.resamples ?? 2000, seed }),
    pValue: p.pValue,
    test: 'label-permutation',
    method: p.method,
  };
}

/** gain(first) − gain(second) for two independent sets of paired 0/1 differences: MOVER of two Tango intervals. */
function differenceOfPairedProportions(first: readonly number[], second: readonly number[]): Estimate {
  const n = first.length + second.length;
  if (first.length === 0 || second.length === 0)
    return { n, mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const [a, b] = [pairedProportionEstimate(first), pairedProportionEstimate(second)];
  const [low, high] = differenceOfIntervals(
    { estimate: a.mean, low: a.low, high: a.high },
    { estimate: b.mean, low: b.low, high: b.high },
  );
  return { n, mean: a.mean - b.mean, low, high };
}

function mean(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i] as number;
  return values.length === 0 ? Number.NaN : total / values.length;
}

/** Percentile bootstrap of mean(first) - mean(second), resampling each sample with its own size. */
export function bootstrapDifferenceOfMeans(
  first: readonly number[],
  second: readonly number[],
  options: { resamples?: number; seed?: number; level?: number } = {},
): Estimate {
  const n = first.length + second.length;
  if (first.length === 0 || second.length === 0)
    return { n, mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const resamples = options.resamples ?? 2000;
  const random = new Random(options.seed ?? 0);
  const replicates = new Float64Array(resamples);
  const draw = (sample: readonly number[]) => {
    let total = 0;
    for (let i = 0; i < sample.length; i++)
      total += sample[Math.floor(random.next() * sample.length)] as number;
    return total / sample.length;
  };
  for (let b = 0; b < resamples; b++) replicates[b] = draw(first) - draw(second);
  const interval = percentileInterval(replicates, options.level ?? 0.95);
  return {
    n,
    mean: mean(first) - mean(second),
    low: interval?.[0] ?? Number.NaN,
    high: interval?.[1] ?? Number.NaN,
  };
}
