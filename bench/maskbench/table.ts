import type { EngineSummary } from './tally.js';

const share = (n: number, of: number) => (of === 0 ? '-' : `${n} (${((100 * n) / of).toFixed(1)}%)`);
const us = (x: number | null) =>
  x === null ? '-' : x < 1000 ? `${x.toFixed(x < 10 ? 1 : 0)} µs` : `${(x / 1000).toFixed(2)} ms`;
const ms = (x: number | null) =>
  x === null ? '-' : x < 1000 ? `${x.toFixed(x < 10 ? 2 : 1)} ms` : `${(x / 1000).toFixed(2)} s`;

const bytes = (x: number | null) =>
  x === null
    ? '-'
    : Math.abs(x) < 1024 * 1024
      ? `${(x / 1024).toFixed(0)} kB`
      : `${(x / 1024 / 1024).toFixed(1)} MB`;

type Row = [string, (s: EngineSummary) => string];

/** The engines side by side, one row per measure, as a Markdown table. */
export function summaryTable(summaries: readonly EngineSummary[]): string {
  const rows: Array<[string, (s: EngineSummary) => string]> = [
    ['schemas', (s) => String(s.schemas)],
    ['passing', (s) => share(s.passing, s.schemas)],
    ['compile errors', (s) => String(s.compileErrors)],
    ['validation errors (valid refused)', (s) => String(s.validationErrors)],
    ['invalidation errors (invalid accepted)', (s) => String(s.invalidationErrors)],
    ['crashes (incl. mask/accept disagreements)', (s) => String(s.crashes)],
    ['timeouts', (s) => String(s.timeouts)],
    ['masks timed', (s) => String(s.masks)],
    ...(['p50', 'p90', 'p99', 'max'] as const).map(
      (p) => [`compile ${p}`, (s: EngineSummary) => ms(s.compileMs[p])] as Row,
    ),
    ...(['p50', 'p90', 'p99', 'max'] as const).map(
      (p) => [`time to first mask ${p}`, (s: EngineSummary) => ms(s.firstMaskMs[p])] as Row,
    ),
    ...(['p50', 'p90', 'max'] as const).map(
      (p) =>
        [`memory per grammar (heap growth) ${p}`, (s: EngineSummary) => bytes(s.retainedBytes[p])] as Row,
    ),
    ...(['p50', 'p90', 'max'] as const).map(
      (p) => [`memory per grammar (own caches) ${p}`, (s: EngineSummary) => bytes(s.cacheBytes[p])] as Row,
    ),
    ...(['p25', 'p50', 'p75', 'p90', 'p99', 'p99_9', 'max'] as const).map(
      (p) =>
        [`mask ${p.replace('_', '.')}`, (s: EngineSummary) => us(s.maskUs[p])] as [
          string,
          (s: EngineSummary) => string,
        ],
    ),
    ['schemas both engines pass', (s) => String(s.bothPassing.schemas)],
    ['masks timed on them', (s) => String(s.bothPassing.masks)],
    ...(['p50', 'p90', 'p99', 'p99_9'] as const).map(
      (p) =>
        [
          `mask ${p.replace('_', '.')} (schemas both pass)`,
          (s: EngineSummary) => us(s.bothPassing.maskUs[p]),
        ] as Row,
    ),
  ];
  const header = ['', ...summaries.map((s) => s.engine)];
  const body = rows.map(([label, cell]) => [label, ...summaries.map(cell)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}
