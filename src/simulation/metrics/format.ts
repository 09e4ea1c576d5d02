import { textTable, wrapText } from '../../internal/text-table.js';
import type { Comparison, ComparisonRow } from './compare.js';
import type { MetricUnit } from './metric.js';

/** A metric's value as tables print it: shares and price ratios in percent, turns and hours plain. */
export function formatMetricValue(value: number | null, unit: MetricUnit): string {
  if (value === null) return '–';
  switch (unit) {
    case 'share':
    case 'list-ratio':
      return `${(value * 100).toFixed(1)}%`;
    case 'turns':
      return value.toFixed(2);
    case 'hours':
      return value.toFixed(1);
  }
}

/** A difference: percentage points for percentages (a share minus a share is not a percent). */
export function formatMetricDelta(delta: number | null, unit: MetricUnit): string {
  if (delta === null) return '–';
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const size = Math.abs(delta);
  switch (unit) {
    case 'share':
    case 'list-ratio':
      return `${sign}${(size * 100).toFixed(1)} pp`;
    case 'turns':
      return `${sign}${size.toFixed(2)}`;
    case 'hours':
      return `${sign}${size.toFixed(1)}`;
  }
}

/** A confidence interval as text in its metric's unit (`–` when there is none). */
export function formatInterval(ci: [number, number] | null, unit: MetricUnit): string {
  if (ci === null) return '–';
  const plain = (v: number) => formatMetricDelta(v, unit).replace(' pp', '');
  return `[${plain(ci[0])}, ${plain(ci[1])}]${unit === 'share' || unit === 'list-ratio' ? ' pp' : ''}`;
}

/** A margin in its unit: `±2.5 pp`, `±0.50 turns`, `±1.0 h`. */
export function formatMargin(margin: number, unit: MetricUnit): string {
  switch (unit) {
    case 'share':
    case 'list-ratio':
      return `±${(margin * 100).toFixed(1)} pp`;
    case 'turns':
      return `±${margin.toFixed(2)} turns`;
    case 'hours':
      return `±${margin.toFixed(1)} h`;
  }
}

/** A comparison row's equivalence verdict in words (`–` without an interval). */
export function formatComparisonVerdict(row: ComparisonRow): string {
  const margin = formatMargin(row.margin, row.unit);
  switch (row.verdict) {
    case null:
      return '–';
    case 'inconsistent':
      return 'inconsistent';
    case 'consistent':
      return `consistent (${margin})`;
    case 'too-few':
      return row.needed === null
        ? `too few to tell (${margin})`
        : `too few to tell (${Math.round(row.n.run).toLocaleString('en-US')} of ${row.needed.toLocaleString('en-US')} needed for ${margin})`;
    case 'cannot-tell':
      return `cannot tell: the ${row.unit === 'share' ? 'reference run alone is' : 'reference alone is'} wider than ${margin}`;
  }
}

/** A p-value as the comparison table prints it: three decimals, or `< 0.001`; `–` for none. */
export function formatPValue(p: number | null): string {
  if (p === null) return '–';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/**
 * One line on the sessions a side lost to failures, or null when every session finished, e.g.
 * `model: 3 of 100 sessions failed and are left out; the metrics stand on the 97 that finished` or
 * `model: all 2 sessions failed; no metric`.
 */
export function describeUnfinished(label: string, finished: number, unfinished: number): string | null {
  if (unfinished === 0) return null;
  const total = finished + unfinished;
  if (finished === 0) return `${label}: all ${total} session${total === 1 ? '' : 's'} failed; no metric`;
  return `${label}: ${unfinished} of ${total} sessions failed and are left out; the metrics stand on the ${finished} that finished`;
}

/** How the text tables of metrics are laid out. */
export interface FormatTableOptions {
  /**
   * The widest a line may be, e.g. a terminal's columns: long metric names then wrap, and a table that
   * still does not fit prints one block per row. Default: no limit.
   */
  width?: number;
}

/**
 * The comparison as an aligned text table: metric, source, model, delta, 95% CI, Fisher's p (for
 * proportions) and the equivalence verdict; a line saying how the intervals and verdicts were drawn; then a line per side that lost sessions
 * to failures, with its distinct errors.
 */
export function formatComparison(comparison: Comparison, options: FormatTableOptions = {}): string {
  const { labels, level } = comparison;
  const width = options.width ?? Number.POSITIVE_INFINITY;
  const header = [
    'metric',
    labels.reference,
    labels.run,
    'delta',
    `${Math.round(level * 100)}% CI`,
    'Fisher p',
    'verdict',
  ];
  const rows = comparison.rows.map((row) => [
    row.name,
    formatMetricValue(row.reference, row.unit),
    formatMetricValue(row.run, row.unit),
    formatMetricDelta(row.delta, row.unit),
    formatInterval(row.ci, row.unit),
    formatPValue(row.pValue),
    formatComparisonVerdict(row),
  ]);
  const table = textTable(header, rows, {
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
    width,
    wrapFirstColumn: true,
  });
  const how = wrapText(
    `Shares: exact intervals (Clopper-Pearson per side, Newcombe's square-and-add for the delta) and Fisher's exact test; means: bootstrap over sessions (${comparison.resamples} resamples, seed ${comparison.seed}; no interval where every resample agrees). ` +
      `Verdicts (haggle's choice of margins, docs/metrics.md#verdicts): "inconsistent" when the delta's interval excludes 0, "consistent" only when it lies inside the margin (${formatMargin(comparison.margins.share, 'share')} for shares, --margin), otherwise "too few to tell" or "cannot tell".`,
    width,
  );
  const failures: string[] = [];
  for (const side of ['reference', 'run'] as const) {
    const note = describeUnfinished(labels[side], comparison.sessions[side], comparison.unfinished[side]);
    if (note === null) continue;
    failures.push(wrapText(note, width, '  '));
    for (const { message, count } of comparison.errorMessages[side])
      failures.push(wrapText(`  ${count} × ${message}`, width, '    '));
  }
  const caveats = comparison.labelCaveats.map((line) => wrapText(line, width));
  return [table, '', how, ...caveats, ...(failures.length > 0 ? ['', ...failures] : [])].join('\n');
}
