import { type AnalysisOptions, labelsOf, namesOf, type TournamentData } from './analysis-input.js';
import { ANALYSIS_METRICS } from './analysis-metric.js';
import { type ArmComparison, compareOnOpponents } from './arm-comparison.js';
import { type GainContrast, gainContrast } from './gain-contrast.js';
import { armsWithBase } from './gain-over-base.js';

/** The label opponents are grouped by: their model family or their training-pool membership. */
export type OpponentGrouping = 'family' | 'trainingPool';

/** Opponents by the value of one label; opponents without that label belong to no group. */
export interface OpponentGroup {
  by: OpponentGrouping;
  /** `family=gpt`, `trainingPool=true`, ... */
  name: string;
  opponents: string[];
}

/**
 * Groups the tournament's opponents by family or by training-pool membership (`labels.opponents`).
 * Fewer than two groups means there is nothing to contrast, and no groups are returned.
 */
export function opponentGroups(
  data: TournamentData,
  by: OpponentGrouping,
  options: AnalysisOptions = {},
): OpponentGroup[] {
  const labels = labelsOf(data, options).opponents ?? {};
  const groups = new Map<string, string[]>();
  for (const opponent of namesOf(data.records).opponents) {
    const value = labels[opponent]?.[by];
    if (value === undefined) continue;
    const name = `${by}=${String(value)}`;
    groups.set(name, [...(groups.get(name) ?? []), opponent]);
  }
  if (groups.size < 2) return [];
  return [...groups].map(([name, opponents]) => ({ by, name, opponents }));
}

/** Gains over base by group of opponents, and the contrasts between groups. */
export interface GroupedGains {
  /** Each arm's gain over its base on each group of opponents (paired units pooled over the group). */
  gains: ArmComparison[];
  /** Gain on one group minus gain on another, for every pair of groups. */
  contrasts: GainContrast[];
}

/**
 * Gains over the base grouped by the opponents' family or training-pool membership, and the contrast
 * between groups. The preprint's abstract says of one arm, a further 2.3B arm at ten times the shared
 * rate, that "its gain concentrates on the evaluation buyer that shares a model family with the training
 * pool"; for any arm that is the contrast `trainingPool=true` minus `trainingPool=false` (with the
 * opponent labelled `trainingPool: true` when it shares a family with the pool). A group's gain pools
 * the paired negotiations of its opponents, so each opponent weighs by its matches (equal in a suite).
 */
export function groupedGains(
  data: TournamentData,
  by: OpponentGrouping,
  options: AnalysisOptions = {},
): GroupedGains {
  const metrics = options.metrics ?? ANALYSIS_METRICS;
  const groups = opponentGroups(data, by, options);
  const gains: ArmComparison[] = [];
  const contrasts: GainContrast[] = [];
  if (groups.length === 0) return { gains, contrasts };
  for (const { arm, base } of armsWithBase(data, options)) {
    for (const metric of metrics) {
      for (const group of groups) {
        gains.push(
          compareOnOpponents(
            data.records,
            {
              kind: 'group-gain',
              armA: arm,
              armB: base,
              opponent: group.name,
              opponents: group.opponents,
              metric,
            },
            options,
          ),
        );
      }
      for (let i = 0; i < groups.length; i++) {
        for (let j = i + 1; j < groups.length; j++) {
          const [first, second] = orderForContrast(groups[i] as OpponentGroup, groups[j] as OpponentGroup);
          contrasts.push(
            gainContrast(
              data.records,
              {
                kind: 'group-contrast',
                arm,
                base,
                metric,
                by,
                first: first.name,
                second: second.name,
                firstOpponents: first.opponents,
                secondOpponents: second.opponents,
              },
              options,
            ),
          );
        }
      }
    }
  }
  return { gains, contrasts };
}

// In the pool minus out of it: a positive contrast is a gain concentrated where the pool's family is.
function orderForContrast(a: OpponentGroup, b: OpponentGroup): [OpponentGroup, OpponentGroup] {
  return b.name === 'trainingPool=true' ? [b, a] : [a, b];
}
