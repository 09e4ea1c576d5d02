import { type Estimate, formatEstimate } from '../../simulation/metrics/estimates.js';
import type { TournamentAnalysis } from './analyse-tournament.js';
import { METRIC_LABELS } from './analysis-metric.js';
import type { ArmComparison } from './arm-comparison.js';
import type { GainContrast } from './gain-contrast.js';

/**
 * The analyses as titled tables of strings, so the terminal (`haggle evaluate`, `haggle analyse`) and
 * the HTML report show the same rows, the same numbers and the same notes on method.
 */
export interface AnalysisTable {
  /** A stable key: `comparisons`, `gains`, `interactions`, `groups-trainingPool`, `groups-family`. */
  key: string;
  title: string;
  /** What the numbers are and how they were tested. */
  note: string;
  header: string[];
  rows: string[][];
}

const opponentName = (o: string) => (o === '*' ? 'all' : o);

/** A p-value for tables: four decimals, `<0.0001` below that, `–` where there is no test. */
export function formatP(p: number): string {
  if (Number.isNaN(p)) return '–';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

function estimate(e: Estimate): string {
  return formatEstimate(e, 4);
}

function comparisonRow(c: ArmComparison): string[] {
  return [
    c.armA,
    c.armB,
    opponentName(c.opponent),
    METRIC_LABELS[c.metric],
    String(c.n),
    estimate(c.difference),
    formatP(c.pValue),
    formatP(c.pAdjusted),
  ];
}

function contrastRow(c: GainContrast): string[] {
  return [
    c.arm,
    c.base,
    METRIC_LABELS[c.metric],
    `${c.first} (n ${c.nFirst})`,
    `${c.second} (n ${c.nSecond})`,
    estimate(c.gainFirst),
    estimate(c.gainSecond),
    estimate(c.difference),
    formatP(c.pValue),
    formatP(c.pAdjusted),
  ];
}

const CONTRAST_HEADER = [
  'arm',
  'base',
  'metric',
  'first',
  'second',
  'gain on first [95% CI]',
  'gain on second [95% CI]',
  'difference [95% CI]',
  'p',
  'p (Holm)',
];

/** The report's tables, in reading order; a table with no rows is left out. */
export function analysisTables(analysis: TournamentAnalysis): AnalysisTable[] {
  const holm = `p (Holm): adjusted by Holm's method over all ${analysis.tests} tests of this report.`;
  const paired = `on the same negotiations (role, opponent, scenario, seed) where both matches finished; 95% CI: percentile bootstrap resampling those paired negotiations; p: two-sided sign-flip permutation test (exact up to 16 pairs, else ${analysis.permutations.toLocaleString('en-US')} random flips).`;
  const contrast = `95% CI: percentile bootstrap resampling each side's paired negotiations separately; p: two-sided permutation test relabelling the paired differences between the two sides, exact when there are at most 65,536 splits, else ${analysis.permutations.toLocaleString('en-US')} random ones (the gains are measured on different negotiations, so the null is that they are exchangeable, not symmetric about 0).`;
  const tables: AnalysisTable[] = [
    {
      key: 'comparisons',
      title: 'Paired comparisons',
      note: `A - B ${paired} ${holm}`,
      header: ['A', 'B', 'opponent', 'metric', 'n', 'A - B [95% CI]', 'p', 'p (Holm)'],
      rows: analysis.comparisons.map(comparisonRow),
    },
    {
      key: 'gains',
      title: 'Gains over base',
      note: `An arm minus the base it was trained from (labels.arms[arm].base), ${paired} ${holm}`,
      header: ['arm', 'base', 'opponent', 'metric', 'n', 'gain [95% CI]', 'p', 'p (Holm)'],
      rows: analysis.gains.map(comparisonRow),
    },
    {
      key: 'interactions',
      title: 'Arm × opponent interaction',
      note: `The gain over the base on the first opponent minus the gain on the second. ${contrast} ${holm}`,
      header: CONTRAST_HEADER,
      rows: analysis.interactions.map(contrastRow),
    },
  ];
  for (const group of analysis.groups) {
    const by = group.by === 'trainingPool' ? 'training-pool membership' : 'family';
    tables.push({
      key: `groups-${group.by}`,
      title: `Gains by opponents' ${by}`,
      note: `Gains over the base with the opponents grouped by ${by} (labels.opponents; unlabelled opponents are in no group), the paired negotiations of a group pooled; then the gain on one group minus the gain on another. Gains: sign-flip p; differences: ${contrast} ${holm}`,
      header: CONTRAST_HEADER,
      rows: [
        ...group.gains.map((g) => [
          g.armA,
          g.armB,
          METRIC_LABELS[g.metric],
          `${g.opponent} (n ${g.n})`,
          '',
          estimate(g.difference),
          '',
          '',
          formatP(g.pValue),
          formatP(g.pAdjusted),
        ]),
        ...group.contrasts.map(contrastRow),
      ],
    });
  }
  return tables.filter((table) => table.rows.length > 0);
}

/**
 * One sentence on a comparison, as a statistical statement: "detectable" when the Holm-adjusted p is
 * below `alpha`, "no detectable difference" otherwise, always with the interval and both p-values.
 */
export function comparisonVerdict(c: ArmComparison, tests: number, alpha = 0.05): string {
  if (c.n === 0) return 'no paired negotiations to compare';
  const d = c.difference;
  const numbers = `mean difference ${d.mean.toFixed(4)}, 95% CI [${d.low.toFixed(4)}, ${d.high.toFixed(4)}], p = ${formatP(c.pValue)}, Holm-adjusted p = ${formatP(c.pAdjusted)} over ${tests} tests, n = ${c.n}`;
  const level = `${alpha * 100}% level`;
  return c.pAdjusted < alpha
    ? `detectable difference at the ${level}: ${numbers}`
    : `no detectable difference at the ${level}: ${numbers}`;
}

/**
 * `A vs B, <metric>: <verdict>` for the pooled comparisons (the lines `haggle evaluate` always printed)
 * and `ARM over its base BASE, <metric>: <verdict>` for the pooled gains, on arm utility and deal rate.
 */
export function pooledVerdicts(analysis: TournamentAnalysis, alpha = 0.05): string[] {
  const pooled = (c: ArmComparison) =>
    c.opponent === '*' && (c.metric === 'armUtility' || c.metric === 'deal');
  const sentence = (c: ArmComparison) =>
    `${METRIC_LABELS[c.metric]}: ${comparisonVerdict(c, analysis.tests, alpha)}`;
  return [
    ...analysis.comparisons.filter(pooled).map((c) => `${c.armA} vs ${c.armB}, ${sentence(c)}`),
    ...analysis.gains.filter(pooled).map((c) => `${c.armA} over its base ${c.armB}, ${sentence(c)}`),
  ];
}
