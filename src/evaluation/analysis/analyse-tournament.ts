import { holm } from '../../simulation/metrics/holm.js';
import { type ArmScore, tabulateTournament } from '../tournament-results.js';
import { type AnalysisOptions, labelsOf, namesOf, type TournamentData } from './analysis-input.js';
import { ANALYSIS_METRICS, type AnalysisMetric } from './analysis-metric.js';
import { type ArmComparison, compareArmsByOpponent } from './arm-comparison.js';
import type { GainContrast } from './gain-contrast.js';
import { gainsOverBase } from './gain-over-base.js';
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
  /** Random relabellings of each permutation test too large to enumerate (p is never below 1/(this+1)). */
  permutations: number;
  /** What the labels asked for and the matches could not give (a base that did not play), one line each. */
  warnings: string[];
  /** How many p-values Holm's adjustment ran over: every distinct test above (by `key`), together. */
  tests: number;
}

/** What `analyseTournament` compares, with which labels, and the seeds of its resampling. */
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
  const tested: { key: string; pValue: number; pAdjusted: number }[] = [
    ...comparisons,
    ...gains,
    ...interactions,
    ...groups.flatMap((g) => [...g.gains, ...g.contrasts]),
  ];
  // A test the report shows twice (a comparison that is also a gain, a group of one opponent) is one
  // hypothesis: it enters Holm's adjustment once, and every row of it gets the same adjusted p.
  const distinct = new Map<string, number>();
  for (const t of tested) if (!distinct.has(t.key)) distinct.set(t.key, t.pValue);
  const keys = [...distinct.keys()];
  const adjusted = new Map(holm([...distinct.values()]).map((p, i) => [keys[i] as string, p]));
  for (const t of tested) t.pAdjusted = adjusted.get(t.key) as number;
  return {
    ...(data.header?.suiteId ? { suiteId: data.header.suiteId } : {}),
    metrics,
    permutations: options.permutations ?? 5000,
    warnings: missingBases(data, options),
    scores: tabulateTournament([...data.records]).scores,
    comparisons,
    gains,
    interactions,
    groups,
    tests: [...distinct.values()].filter((p) => !Number.isNaN(p)).length,
  };
}

/** Arms whose label names a base that is not an arm of these matches: no gain can be computed for them. */
function missingBases(data: TournamentData, options: AnalysisOptions): string[] {
  const { arms } = namesOf(data.records);
  return Object.entries(labelsOf(data, options).arms ?? {}).flatMap(([arm, label]) =>
    label.base !== undefined && arms.includes(arm) && !arms.includes(label.base)
      ? [`arm ${arm} names base ${label.base}, which played no matches here: no gains over base for ${arm}`]
      : [],
  );
}
