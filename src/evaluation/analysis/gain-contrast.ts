import { bootstrapMean, type Estimate } from '../statistics.js';
import type { MatchRecord } from '../tournament.js';
import { type AnalysisOptions, testOptions } from './analysis-input.js';
import type { AnalysisMetric } from './analysis-metric.js';
import { type DifferenceOfDifferences, differenceOfDifferences } from './difference-tests.js';
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
  const first = pairedUnits(records, spec.arm, spec.base, spec.metric, spec.firstOpponents).map(
    (u) => u.diff,
  );
  const second = pairedUnits(records, spec.arm, spec.base, spec.metric, spec.secondOpponents).map(
    (u) => u.diff,
  );
  const name = `${spec.kind}|${spec.arm}|${spec.base}|${spec.by}|${spec.first}|${spec.second}|${spec.metric}`;
  const tests = testOptions(options, name);
  const result = differenceOfDifferences(first, second, tests);
  const resamples = options.resamples ?? 2000;
  return {
    ...spec,
    firstOpponents: [...spec.firstOpponents],
    secondOpponents: [...spec.secondOpponents],
    ...result,
    gainFirst: bootstrapMean(first, { resamples, seed: (tests.seed ?? 0) + 2 }),
    gainSecond: bootstrapMean(second, { resamples, seed: (tests.seed ?? 0) + 3 }),
    pAdjusted: result.pValue,
  };
}
