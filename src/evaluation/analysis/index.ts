export type {
  DifferenceOfDifferences,
  PairedDifference,
  TestOptions,
} from '../../simulation/metrics/difference-tests.js';
export {
  bootstrapDifferenceOfMeans,
  differenceOfDifferences,
  pairedDifference,
} from '../../simulation/metrics/difference-tests.js';
export { holm } from '../../simulation/metrics/holm.js';
export type { PermutationOptions, PermutationPValue } from '../../simulation/metrics/permutation-test.js';
export { labelPermutationPValue, signFlipPValue } from '../../simulation/metrics/permutation-test.js';
export type { AnalyseTournamentOptions, TournamentAnalysis } from './analyse-tournament.js';
export { analyseTournament } from './analyse-tournament.js';
export type { AnalysisOptions, TournamentData } from './analysis-input.js';
export type { AnalysisMetric } from './analysis-metric.js';
export {
  ANALYSIS_METRICS,
  isAnalysisMetric,
  METRIC_LABELS,
  matchWelfare,
  metricValue,
} from './analysis-metric.js';
export type { AnalysisTable } from './analysis-rows.js';
export { analysisTables, comparisonVerdict, formatP, pooledVerdicts } from './analysis-rows.js';
export type { ArmComparison } from './arm-comparison.js';
export { compareArmsByOpponent } from './arm-comparison.js';
export type { GainContrast } from './gain-contrast.js';
export { gainContrast } from './gain-contrast.js';
export { armsWithBase, gainsOverBase } from './gain-over-base.js';
export { armOpponentInteractions } from './interaction.js';
export type { GroupedGains, OpponentGroup, OpponentGrouping } from './opponent-groups.js';
export { groupedGains, opponentGroups } from './opponent-groups.js';
export type { PairedUnit } from './paired-units.js';
export { negotiationKey, pairedUnits } from './paired-units.js';
