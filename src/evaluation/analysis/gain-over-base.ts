import { type AnalysisOptions, labelsOf, namesOf, type TournamentData } from './analysis-input.js';
import { ANALYSIS_METRICS } from './analysis-metric.js';
import { type ArmComparison, compareArmsByOpponent } from './arm-comparison.js';

/** The arms whose label names a base that is itself an arm of the tournament, with that base. */
export function armsWithBase(
  data: TournamentData,
  options: AnalysisOptions = {},
): { arm: string; base: string }[] {
  const { arms } = namesOf(data.records);
  const labels = labelsOf(data, options).arms ?? {};
  return arms.flatMap((arm) => {
    const base = labels[arm]?.base;
    return base !== undefined && base !== arm && arms.includes(base) ? [{ arm, base }] : [];
  });
}

/**
 * Each trained arm's gain over its base (`labels.arms[arm].base`): the arm minus its base on the same
 * negotiations, per opponent and pooled (`*`), on each metric. Arms without a base (or whose base did
 * not play) have no gain.
 */
export function gainsOverBase(data: TournamentData, options: AnalysisOptions = {}): ArmComparison[] {
  const metrics = options.metrics ?? ANALYSIS_METRICS;
  return armsWithBase(data, options).flatMap(({ arm, base }) =>
    compareArmsByOpponent(data.records, arm, base, metrics, { ...options, kind: 'gain' }),
  );
}
