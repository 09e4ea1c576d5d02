import { type ArmScore, tabulateTournament } from '../tournament-results.js';
import { type AnalysisOptions, namesOf, type TournamentData } from './analysis-input.js';
import { ANALYSIS_METRICS, type AnalysisMetric } from './analysis-metric.js';
import { type ArmComparison, compareArmsByOpponent } from './arm-comparison.js';
import type { GainContrast } from './gain-contrast.js';
import { gainsOverBase } from './gain-over-base.js';
import { holm } from './holm.js';
import { armOpponentInteractions } from './interaction.js';
import { groupedGains } from './opponent-groups.js';

/** Everything `haggle evaluate` and `haggle analyse` report about one tournament. */
export interface TournamentAnalysis {
  suiteId?: string;
  metrics: AnalysisMetric[];
  /** Scores per arm and opponent and pooled (`*`). */
  scores: ArmScore[];
  /** The reference arm (the first) against each other arm, per opponent and pooled. */
  comparisons: ArmComparison[];
  /** Each arm with a base: its gain over the base, per opponent and pooled. */
  gains: ArmComparison[];
  /** Each arm with a base: gain on one opponent minus gain on another, for every pair of opponents. */
  interactions: GainContrast[];
  /** Gains and their contrasts with opponents grouped by family and by training-pool membership. */
  groups: { by: 'family' | 'trainingPool'; gains: ArmComparison[]; contrasts: GainContrast[] }[];
  /** How many p-values Holm's adjustment ran over: every test above, together. */
  tests: number;
}

export interface AnalyseTournamentOptions extends AnalysisOptions {
  /** The arm the others are compared with. Default the first arm of the tournament. */
  reference?: string;
}

/**
 * Scores, paired comparisons, gains over base, arm × opponent interactions and grouped gains of one
 * tournament, with every p-value also adjusted by Holm's method over all the tests of this report (so
 * "detectable" on `pAdjusted` holds the family-wise error rate at the chosen level).
 */
export function analyseTournament(
  data: TournamentData,
  options: AnalyseTournamentOptions = {},
): TournamentAnalysis {
  const metrics = [...(options.metrics ?? ANALYSIS_METRICS)];
  const settings = { ...options, metrics };
  const { arms } = namesOf(data.records);
  const reference = options.reference ?? arms[0];
  const comparisons =
    reference === undefined
      ? []
      : arms
          .filter((arm) => arm !== reference)
          .flatMap((other) => compareArmsByOpponent(data.records, reference, other, metrics, settings));
  const gains = gainsOverBase(data, settings);
  const interactions = armOpponentInteractions(data, settings);
  const groups = (['trainingPool', 'family'] as const)
    .map((by) => ({ by, ...groupedGains(data, by, settings) }))
    .filter((group) => group.gains.length > 0);
  const tested: { pValue: number; pAdjusted: number }[] = [
    ...comparisons,
    ...gains,
    ...interactions,
    ...groups.flatMap((g) => [...g.gains, ...g.contrasts]),
  ];
  const adjusted = holm(tested.map((t) => t.pValue));
  tested.forEach((t, i) => {
    t.pAdjusted = adjusted[i] as number;
  });
  return {
    ...(data.header?.suiteId ? { suiteId: data.header.suiteId } : {}),
    metrics,
    scores: tabulateTournament([...data.records]).scores,
    comparisons,
    gains,
    interactions,
    groups,
    tests: tested.filter((t) => !Number.isNaN(t.pValue)).length,
  };
}
