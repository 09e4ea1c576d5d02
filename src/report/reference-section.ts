import {
  formatPublishedSample,
  formatPublishedValue,
  formatReferenceDifference,
  referenceNotes,
  referenceVerdict,
} from '../simulation/metrics/reference-format.js';
import type { ReferenceComparison, ReferenceRow } from '../simulation/metrics/references.js';
import { dataNumber, escapeHtml } from './html.js';

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

const WIDTH = 1000;
const ROW = 34;
const LEFT = 460;
const RIGHT = 24;

/**
 * One row per published value: the run's exact interval as a line with its estimate as a dot, the
 * published value as a diamond coloured by the verdict (which also counts the card's own sample, so a
 * diamond just off the line can still be consistent).
 */
function forestPlot(comparison: ReferenceComparison): string {
  const rows = comparison.rows;
  const height = ROW * rows.length + 36;
  const plot = WIDTH - LEFT - RIGHT;
  const highest = Math.max(0.1, ...rows.flatMap((r) => [r.reference.value, r.ci?.[1] ?? 0, r.run ?? 0]));
  const top = Math.min(1, Math.ceil(highest * 10 + 0.5) / 10);
  const x = (v: number) => Math.round((LEFT + (Math.min(v, top) / top) * plot) * 100) / 100;
  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const v = (top * i) / 4;
    parts.push(
      `<line class="grid" x1="${x(v)}" x2="${x(v)}" y1="8" y2="${height - 24}"/>`,
      `<text class="tick" x="${x(v)}" y="${height - 8}" text-anchor="middle">${percent(v)}</text>`,
    );
  }
  rows.forEach((row, i) => {
    const y = 8 + ROW * i + ROW / 2;
    parts.push(
      `<text class="category" x="${LEFT - 10}" y="${y + 4}" text-anchor="end">${escapeHtml(row.reference.name)}</text>`,
    );
    if (row.ci) {
      parts.push(
        `<line class="ci" data-row="${escapeHtml(row.reference.id)}" x1="${x(row.ci[0])}" x2="${x(row.ci[1])}" y1="${y}" y2="${y}"/>`,
      );
    }
    if (row.run !== null) parts.push(`<circle class="estimate" cx="${x(row.run)}" cy="${y}" r="4"/>`);
    const p = x(row.reference.value);
    parts.push(
      `<path class="published ${row.verdict}" d="M${p} ${y - 7}L${p + 7} ${y}L${p} ${y + 7}L${p - 7} ${y}Z"><title>${escapeHtml(`published ${formatPublishedValue(row.reference)}`)}</title></path>`,
    );
  });
  return `<svg class="forest" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="published values against the run's intervals">${parts.join('')}</svg>`;
}

/** The card's words, where they stand, and haggle's readings of them: the first cell of a row. */
function describeRow(row: ReferenceRow): string {
  const ref = row.reference;
  const sample = ref.sample
    ? `<br><span class="note">sample: ${ref.sample.sessions.toLocaleString('en-US')} sessions, “${escapeHtml(ref.sample.quote)}”${ref.sample.reading ? ` (haggle's reading: ${escapeHtml(ref.sample.reading)})` : ''}</span>`
    : '<br><span class="note">sample: not stated by the card</span>';
  const readings = ref.readings
    .map(
      (r) =>
        `<br><span class="note">haggle's reading: ${escapeHtml(r.reading)}, because ${escapeHtml(r.why)}</span>`,
    )
    .join('');
  return `${escapeHtml(ref.name)}${row.runModel ? ' <span class="tag">this run’s model</span>' : ''}<br><span class="note">the card: “${escapeHtml(ref.quote)}” (${escapeHtml(ref.where)}); ${escapeHtml(ref.measures)}</span>${sample}${readings}`;
}

/** The run beside a published reference set: a table and a forest plot. */
export function renderReferenceSection(comparison: ReferenceComparison): string {
  const level = `${Math.round(comparison.level * 100)}% CI (exact)`;
  const rows = comparison.rows.map((row) => {
    return `<tr data-reference-row="${escapeHtml(row.reference.id)}" data-published="${row.reference.value}" data-run="${dataNumber(row.run)}" data-low="${dataNumber(row.ci?.[0] ?? null)}" data-high="${dataNumber(row.ci?.[1] ?? null)}" data-verdict="${row.verdict}" data-method="${row.method}" data-difference-low="${dataNumber(row.differenceCi?.[0] ?? null)}" data-difference-high="${dataNumber(row.differenceCi?.[1] ?? null)}" data-margin="${row.margin}"${row.runModel ? ' class="run-model"' : ''}><td>${describeRow(row)}</td><td>${escapeHtml(formatPublishedValue(row.reference))}</td><td>${escapeHtml(formatPublishedSample(row.reference))}</td><td>${row.run === null ? '–' : percent(row.run)}</td><td>${row.ci ? `${percent(row.ci[0])} – ${percent(row.ci[1])}` : '–'}</td><td>${row.n}</td><td>${escapeHtml(formatReferenceDifference(row))}</td><td class="verdict ${row.verdict}">${escapeHtml(referenceVerdict(row))}</td></tr>`;
  });
  const { total, finished } = comparison.sessions;
  const notes = referenceNotes(comparison)
    .map((note) => `<p class="note">${escapeHtml(note)}</p>`)
    .join('\n');
  return `<p class="note">${escapeHtml(comparison.set.title)} (<code>${escapeHtml(comparison.set.id)}</code>). Source: ${escapeHtml(comparison.set.source)}.</p>
<table class="metrics references" data-table="references"><thead><tr><th>card value</th><th>card</th><th>card n</th><th>this run</th><th>${level}</th><th>n</th><th>difference [CI]</th><th>verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<figure class="chart" data-chart="references"><figcaption>Published values (diamonds, coloured by verdict) against this run's estimates (dots) and ${level} (lines)</figcaption>${forestPlot(comparison)}</figure>
<p class="note">The run: ${finished} of ${total} sessions finished (errored and aborted ones are left out of these rates).</p>
${notes}`;
}
