import { type AnalysisOptions, namesOf, type TournamentData } from './analysis-input.js';
import { ANALYSIS_METRICS } from './analysis-metric.js';
import { type GainContrast, gainContrast } from './gain-contrast.js';
import { armsWithBase } from './gain-over-base.js';

/**
 * The arm × opponent interaction of every arm that has a base: for each pair of opponents (in the
 * tournament's order) and each metric, the gain over the base on the first opponent minus the gain on
 * the second, with a stratified bootstrap interval and a label-permutation p-value.
 */
export function armOpponentInteractions(data: TournamentData, options: AnalysisOptions = {}): GainContrast[] {
  const metrics = options.metrics ?? ANALYSIS_METRICS;
  const { opponents } = namesOf(data.records);
  const rows: GainContrast[] = [];
  for (const { arm, base } of armsWithBase(data, options)) {
    for (const metric of metrics) {
      for (let i = 0; i < opponents.length; i++) {
        for (let j = i + 1; j < opponents.length; j++) {
          const first = opponents[i] as string;
          const second = opponents[j] as string;
          rows.push(
            gainContrast(
              data.records,
              {
                kind: 'interaction',
                arm,
                base,
                metric,
                by: 'opponent',
                first,
                second,
                firstOpponents: [first],
                secondOpponents: [second],
              },
              options,
            ),
          );
        }
      }
    }
  }
  return rows;
}
