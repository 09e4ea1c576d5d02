import {
  type DifferenceOfDifferences,
  differenceOfDifferences,
} from '../../simulation/metrics/difference-tests.js';
import {
  bootstrapMean,
  type Estimate,
  pairedProportionEstimate,
} from '../../simulation/metrics/estimates.js';
import type { MatchRecord } from '../tournament.js';
import { type AnalysisOptions, testOptions } from './analysis-input.js';
import type { AnalysisMetric } from './analysis-metric.js';
import { negated } from './arm-comparison.js';
import { pairedUnits } from './paired-units.js';

/**
 * How much larger an arm's gain over its base is on one opponent (or group of opponents) than on
 * another: the arm × opponent interaction. `difference` is gain(first) - gain(second), each gain the
 * mean paired difference arm - base over its negotiations.
 */
export interface GainContrast extends DifferenceOfDifferences {
  kind: 'interaction' | 'group-contrast';
  arm: string;
  base: string;
  metric: AnalysisMetric;
  /** `opponent` for an interaction between two opponents, else the label the groups come from. */
  by: 'opponent' | 'family' | 'trainingPool';
  first: string;
  second: string;
  firstOpponents: string[];
  secondOpponents: string[];
  /** The gain on each side, with its own bootstrap interval. */
  gainFirst: Estimate;
  gainSecond: Estimate;
  /** The same test whatever the labels or the order of the two sides: it counts once in Holm's adjustment. */
  key: string;
  pAdjusted: number;
}

/** The gain of `arm` over `base` on the first set of opponents minus that on the second. */
export function gainContrast(
  records: readonly MatchRecord[],
  spec: {
    kind: GainContrast['kind'];
    arm: string;
    base: string;
    metric: AnalysisMetric;
    by: GainContrast['by'];
    first: string;
    second: string;
    firstOpponents: readonly string[];
    secondOpponents: readonly string[];
  },
  options: AnalysisOptions = {},
): GainContrast {
  const sideA = [...spec.firstOpponents].sort();
  const sideB = [...spec.secondOpponents].sort();
  // Computed in one orientation (the sides in sorted order) whatever the row's order or its labels: an
  // interaction and a group contrast over the same opponents are the same test, with the same numbers.
  const swapped = sideB.join(',') < sideA.join(',');
  const [one, two] = swapped ? [sideB, sideA] : [sideA, sideB];
  const key = `contrast|${spec.arm}|${spec.base}|${one.join(',')}|${two.join(',')}|${spec.metric}`;
  const diffs = (opponents: readonly string[]) =>
    pairedUnits(records, spec.arm, spec.base, spec.metric, opponents).map((u) => u.diff);
  const [x, y] = [diffs(one), diffs(two)];
  const binary = spec.metric === 'deal';
  const tests = { ...testOptions(options, key), outcomes: binary ? 'binary' : 'continuous' } as const;
  const resamples = options.resamples ?? 2000;
  const result = differenceOfDifferences(x, y, tests);
  // Deals are 0/1 outcomes: each gain is a paired difference of proportions (Tango's score interval).
  const gainX = binary
    ? pairedProportionEstimate(x)
    : bootstrapMean(x, { resamples, seed: (tests.seed ?? 0) + 2 });
  const gainY = binary
    ? pairedProportionEstimate(y)
    : bootstrapMean(y, { resamples, seed: (tests.seed ?? 0) + 3 });
  return {
    ...spec,
    firstOpponents: [...spec.firstOpponents],
    secondOpponents: [...spec.secondOpponents],
    ...result,
    ...(swapped
      ? { nFirst: result.nSecond, nSecond: result.nFirst, difference: negated(result.difference) }
      : {}),
    gainFirst: swapped ? gainY : gainX,
    gainSecond: swapped ? gainX : gainY,
    key,
    pAdjusted: result.pValue,
  };
}
