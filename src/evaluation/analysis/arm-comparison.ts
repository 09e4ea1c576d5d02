import { type PairedDifference, pairedDifference } from '../../simulation/metrics/difference-tests.js';
import type { Estimate } from '../../simulation/metrics/estimates.js';
import type { MatchRecord } from '../tournament.js';
import { type AnalysisOptions, testOptions } from './analysis-input.js';
import type { AnalysisMetric } from './analysis-metric.js';
import { pairedUnits } from './paired-units.js';

/**
 * Arm A minus arm B on the negotiations both played, against one opponent or a set of them. `kind`
 * says why the report holds it: two arms compared (`comparison`), an arm against its base (`gain`), or
 * an arm's gain over its base on a group of opponents (`group-gain`).
 */
export interface ArmComparison extends PairedDifference {
  kind: 'comparison' | 'gain' | 'group-gain';
  armA: string;
  armB: string;
  /** An opponent's name, `*` for all opponents pooled, or a group's name (`family=gpt`, `trainingPool=true`). */
  opponent: string;
  /** The opponents whose matches the comparison stands on. */
  opponents: string[];
  metric: AnalysisMetric;
  /**
   * What the test is about (the two arms unordered, the opponents, the metric): two rows with the same
   * key are the same test, with the same numbers (A - B is -(B - A)), and count once in Holm's adjustment.
   */
  key: string;
  /** The p-value after Holm's adjustment over every test of the report (equal to `pValue` alone). */
  pAdjusted: number;
}

/** One paired comparison of two arms on the matches against `opponents`, labelled `opponent`. */
export function compareOnOpponents(
  records: readonly MatchRecord[],
  spec: {
    kind: ArmComparison['kind'];
    armA: string;
    armB: string;
    opponent: string;
    opponents: readonly string[];
    metric: AnalysisMetric;
  },
  options: AnalysisOptions = {},
): ArmComparison {
  // Computed in one orientation (arms in sorted order) whatever the row's: the same test, the same seed.
  const swapped = spec.armB < spec.armA;
  const [first, second] = swapped ? [spec.armB, spec.armA] : [spec.armA, spec.armB];
  const opponents = [...spec.opponents].sort();
  const key = `paired|${first}|${second}|${opponents.join(',')}|${spec.metric}`;
  const units = pairedUnits(records, first, second, spec.metric, opponents);
  // A deal is a 0/1 outcome: its paired difference gets Tango's score interval (no bootstrap).
  const result = pairedDifference(
    units.map((u) => u.diff),
    { ...testOptions(options, key), outcomes: spec.metric === 'deal' ? 'binary' : 'continuous' },
  );
  const difference = swapped ? negated(result.difference) : result.difference;
  return { ...spec, opponents: [...spec.opponents], ...result, difference, key, pAdjusted: result.pValue };
}

/** The estimate of -X from that of X. */
export function negated(e: Estimate): Estimate {
  return { n: e.n, mean: -e.mean, low: -e.high, high: -e.low };
}

/**
 * Arm A against arm B on each metric, per opponent and pooled over all of them (`*`): the mean paired
 * difference (A - B) with its interval (Tango's score interval for deals, a bootstrap over the paired
 * negotiations for the other metrics) and a sign-flip p-value.
 */
export function compareArmsByOpponent(
  records: readonly MatchRecord[],
  armA: string,
  armB: string,
  metrics: readonly AnalysisMetric[],
  options: AnalysisOptions & { kind?: 'comparison' | 'gain' } = {},
): ArmComparison[] {
  const opponents = [...new Set(records.map((m) => m.opponent))];
  const rows: ArmComparison[] = [];
  for (const metric of metrics) {
    for (const opponent of [...opponents, '*']) {
      rows.push(
        compareOnOpponents(
          records,
          {
            kind: options.kind ?? 'comparison',
            armA,
            armB,
            opponent,
            opponents: opponent === '*' ? opponents : [opponent],
            metric,
          },
          options,
        ),
      );
    }
  }
  return rows;
}
