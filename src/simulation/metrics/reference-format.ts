import { textTable, wrapText } from '../../internal/text-table.js';
import type { FormatTableOptions } from './format.js';
import type { PublishedValue } from './published-references.js';
import type { ReferenceComparison, ReferenceRow } from './references.js';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const count = (value: number) => value.toLocaleString('en-US');

/** How a published value reads: as the card writes it (`~43%`, `38.2%`). */
export function formatPublishedValue(reference: PublishedValue): string {
  return reference.written;
}

/** The card's sample for a value: `2,000`, `2,000*` where haggle reads it so, `–` where none. */
export function formatPublishedSample(reference: PublishedValue): string {
  if (!reference.sample) return '–';
  return `${count(reference.sample.sessions)}${reference.sample.reading ? '*' : ''}`;
}

function formatP(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** A share as signed percentage points with one decimal: `+2.3`, `−0.5`, `±0.0`. */
function points(value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return `${sign}${Math.abs(value * 100).toFixed(1)}`;
}

/** The run's difference from the published value with its interval: `+2.3 pp [−0.5, +5.1]`, `–` without one. */
export function formatReferenceDifference(row: ReferenceRow): string {
  if (row.difference === null || row.differenceCi === null) return '–';
  return `${points(row.difference)} pp [${points(row.differenceCi[0])}, ${points(row.differenceCi[1])}]`;
}

/** What alone keeps the difference's interval wide, for `cannot-tell`: the card's sample or rounding. */
function referenceLimit(row: ReferenceRow): string {
  const [below, above] = row.referenceSpread.map((x) => (x * 100).toFixed(1));
  const half = below === above ? `±${below} pp` : `−${below}/+${above} pp`;
  if (row.method === 'rounding-range')
    return `the card's rounding of ${row.reference.written} alone gives ${half}`;
  return `the card's ${count(row.reference.sample?.sessions ?? 0)} sessions alone give ${half}`;
}

/** What the row says about the run, in words: the verdict and what it rests on. */
export function referenceVerdict(row: ReferenceRow): string {
  const p = row.pValue === null ? '' : `, ${formatP(row.pValue)}`;
  const margin = `±${(row.margin * 100).toFixed(1)} pp`;
  switch (row.verdict) {
    case 'inconsistent':
      return `inconsistent: the interval excludes 0${p}`;
    case 'consistent':
      return `consistent: within ${margin}${p}`;
    case 'too-few':
      if (row.needed === null)
        return `too few sessions to tell (more than 100,000,000 needed for ${margin}${p})`;
      // `needed` is for a run at the card's value; a run further off needs more than that.
      return row.n < row.needed
        ? `too few sessions to tell (${count(row.n)} of ${count(row.needed)} needed for ${margin}${p})`
        : `too few sessions to tell at this share (a run at the card's value needs ${count(row.needed)} for ${margin}${p})`;
    case 'cannot-tell':
      return `cannot tell: ${referenceLimit(row)}, no run can reach ${margin}${p}`;
  }
}

/** How the verdicts were reached and what the card's numbers were measured on: the lines under the table. */
export function referenceNotes(comparison: ReferenceComparison): string[] {
  const level = Math.round(comparison.level * 100);
  const alpha = Math.round((1 - comparison.level) * 1000) / 10;
  const methods = new Set(comparison.rows.map((row) => row.method));
  const how: string[] = [];
  if (methods.has('fisher-exact'))
    how.push(
      `a value with the card's sample: both counts' exact intervals combined by Newcombe's square-and-add (Fisher's exact p beside it, at ${alpha}%)`,
    );
  if (methods.has('rounding-range')) {
    const ranges = comparison.rows
      .filter((row) => row.range)
      .map(
        (row) =>
          `${row.reference.written}: [${percent(row.range?.[0] ?? 0)}, ${percent(row.range?.[1] ?? 0)})`,
      );
    how.push(`a "~" value: the run's interval against the range its rounding allows (${ranges.join('; ')})`);
  }
  if (methods.has('exact-interval'))
    how.push('a value without a sample: taken as exact, against the run’s interval');
  const margin = `±${(comparison.margin * 100).toFixed(1)} pp`;
  return [
    `Intervals: exact (Clopper-Pearson) ${level}% over finished sessions. The difference's ${level}% interval: ${how.join('; ')}. ` +
      `Verdicts (haggle's choice of margin, ${margin}, --margin; docs/metrics.md#verdicts): "inconsistent" when that interval excludes 0; ` +
      `"consistent" only when it lies inside ${margin} (two one-sided tests); otherwise "too few sessions to tell", with the sessions a run at the card's value would need, ` +
      'or "cannot tell" where the card\'s own sample or rounding is too wide for any run. * the card gives no sample for this number; haggle reads it so.',
    `Not the card's sessions: the card measured its model as “${comparison.set.population}” ` +
      `and says “${comparison.set.domain}” ` +
      "A run on haggle's synthetic listings is another population than those held-out eBay sessions (unless the run file holds them), so a verdict says whether this run agrees with a number, not that it repeats the card's evaluation.",
  ];
}

/**
 * The comparison as an aligned text table (the terminal twin of the report's section). With a `width`
 * (a terminal's columns), long names wrap and a table that still does not fit prints one block per row.
 */
export function formatReferenceComparison(
  comparison: ReferenceComparison,
  options: FormatTableOptions = {},
): string {
  const width = options.width ?? Number.POSITIVE_INFINITY;
  const level = `${Math.round(comparison.level * 100)}% CI`;
  const header = ['card value', 'card', 'card n', 'this run', level, 'n', 'difference [CI]', 'verdict'];
  const rows = comparison.rows.map((row) => [
    `${row.reference.name}${row.runModel ? ' (this run’s model)' : ''}`,
    formatPublishedValue(row.reference),
    formatPublishedSample(row.reference),
    row.run === null ? '–' : percent(row.run),
    row.ci === null ? '–' : `[${percent(row.ci[0])}, ${percent(row.ci[1])}]`,
    count(row.n),
    formatReferenceDifference(row),
    referenceVerdict(row),
  ]);
  const { total, finished } = comparison.sessions;
  return [
    wrapText(`${comparison.set.title} (${comparison.set.id})`, width, '  '),
    textTable(header, rows, {
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
      width,
      wrapFirstColumn: true,
    }),
    wrapText(
      `Run: ${count(finished)} of ${count(total)} sessions finished (errored and aborted ones are left out of every rate).`,
      width,
    ),
    ...referenceNotes(comparison).map((note) => wrapText(note, width)),
    'The card’s words:',
    ...comparison.rows.map((row) =>
      wrapText(`  ${row.reference.name}: “${row.reference.quote}” (${row.reference.where})`, width, '    '),
    ),
    wrapText(`Source: ${comparison.set.source}.`, width),
  ].join('\n');
}
