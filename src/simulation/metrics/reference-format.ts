import { textTable, wrapText } from '../../internal/text-table.js';
import type { FormatTableOptions } from './format.js';
import type { PublishedValue } from './published-references.js';
import { TELL_DIFFERENCE } from './reference-verdict.js';
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

/** What the row says about the run, in words: the verdict and what it rests on. */
export function referenceVerdict(row: ReferenceRow): string {
  const p = row.pValue === null ? '' : `, ${formatP(row.pValue)}`;
  switch (row.verdict) {
    case 'inconsistent':
      return `inconsistent${p}`;
    case 'consistent':
      return `consistent${p}`;
    case 'too-few':
      return `too few sessions to tell (${count(row.n)} of ${count(row.needed)} needed${p})`;
  }
}

/** How the verdicts were reached and what the card's numbers were measured on: the lines under the table. */
export function referenceNotes(comparison: ReferenceComparison): string[] {
  const level = Math.round(comparison.level * 100);
  const alpha = Math.round((1 - comparison.level) * 1000) / 10;
  const methods = new Set(comparison.rows.map((row) => row.method));
  const how: string[] = [];
  if (methods.has('fisher-exact'))
    how.push(`a value with the card's sample: Fisher's exact test of the two counts at ${alpha}%`);
  if (methods.has('rounding-range')) {
    const ranges = comparison.rows
      .filter((row) => row.range)
      .map(
        (row) =>
          `${row.reference.written}: [${percent(row.range?.[0] ?? 0)}, ${percent(row.range?.[1] ?? 0)})`,
      );
    how.push(
      `a "~" value: whether the run's interval reaches the range its rounding allows (${ranges.join('; ')})`,
    );
  }
  if (methods.has('exact-interval'))
    how.push('a value without a sample: taken as exact, whether it lies in the run’s interval');
  return [
    `Intervals: exact (Clopper-Pearson) ${level}% over finished sessions. Verdicts (haggle's choice, docs/metrics.md#verdicts): ` +
      `${how.join('; ')}. "consistent" also needs enough sessions to tell a ${Math.round(TELL_DIFFERENCE * 100)} pp difference; ` +
      'fewer is "too few sessions to tell". * the card gives no sample for this number; haggle reads it so.',
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
  const header = ['card value', 'card', 'card n', 'this run', level, 'n', 'verdict'];
  const rows = comparison.rows.map((row) => [
    `${row.reference.name}${row.runModel ? ' (this run’s model)' : ''}`,
    formatPublishedValue(row.reference),
    formatPublishedSample(row.reference),
    row.run === null ? '–' : percent(row.run),
    row.ci === null ? '–' : `[${percent(row.ci[0])}, ${percent(row.ci[1])}]`,
    count(row.n),
    referenceVerdict(row),
  ]);
  const { total, finished } = comparison.sessions;
  return [
    wrapText(`${comparison.set.title} (${comparison.set.id})`, width, '  '),
    textTable(header, rows, {
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
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
