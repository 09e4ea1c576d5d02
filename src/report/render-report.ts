import {
  formatComparisonVerdict,
  formatInterval,
  formatMargin,
  formatMetricDelta,
  formatMetricValue,
  formatPValue,
} from '../simulation/metrics/format.js';
import { labelMetricCaveats } from '../simulation/metrics/label-caveats.js';
import type { HistogramBin } from '../simulation/metrics/price-ratios.js';
import { labelKey } from '../simulation/metrics/session-facts.js';
import { type BarChartSpec, type BarSeries, renderBarChart } from './bar-chart.js';
import type { Interval } from './chart-intervals.js';
import { renderFailures } from './failures-section.js';
import { escapeHtml } from './html.js';
import { htmlDocument } from './html-document.js';
import { renderOutcomeBreakdown } from './outcome-breakdown.js';
import { renderNegotiator, renderProvenance } from './provenance-section.js';
import { renderReferenceSection } from './reference-section.js';
import type { ReportData, RunFigures } from './report-data.js';
import { renderTranscripts } from './transcript-section.js';

const RUN_COLOR = '#2563eb';
const REFERENCE_COLOR = '#f59e0b';

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;
const percentAxis = (v: number) => `${Math.round(v * 1000) / 10}%`;

function binLabel(bin: HistogramBin, index: number, bins: readonly HistogramBin[]): string {
  // The histogram's last bin gathers every ratio above its regular range; it is wider than the others.
  const width = (bins[0]?.to ?? 0) - (bins[0]?.from ?? 0);
  const isOverflow = index === bins.length - 1 && index > 0 && Math.abs(bin.to - bin.from - width) > 1e-9;
  return isOverflow
    ? `>${Math.round(bin.from * 100)}%`
    : `${Math.round(bin.from * 100)}–${Math.round(bin.to * 100)}%`;
}

/** Series for the run and (when given) the reference, aligned on the union of their categories. */
function series<T>(
  data: ReportData,
  rows: (f: RunFigures) => readonly T[],
  key: (row: T, index: number, all: readonly T[]) => string,
  value: (row: T) => number | null,
  interval: (row: T, index: number, figures: RunFigures) => Interval,
  order?: (a: string, b: string) => number,
): { categories: string[]; series: BarSeries[] } {
  const runs: { key: string; figures: RunFigures; color: string }[] = [
    { key: 'run', figures: data.run, color: RUN_COLOR },
    ...(data.reference ? [{ key: 'reference', figures: data.reference, color: REFERENCE_COLOR }] : []),
  ];
  const categories: string[] = [];
  const intervals: Map<string, Interval>[] = [];
  const maps = runs.map(({ figures }) => {
    const all = rows(figures);
    const map = new Map<string, number | null>();
    const cis = new Map<string, Interval>();
    all.forEach((row, i) => {
      const k = key(row, i, all);
      map.set(k, value(row));
      cis.set(k, interval(row, i, figures));
      if (!categories.includes(k)) categories.push(k);
    });
    intervals.push(cis);
    return map;
  });
  if (order) categories.sort(order);
  return {
    categories,
    series: runs.map((r, i) => ({
      key: r.key,
      name: r.figures.name,
      color: r.color,
      values: categories.map((c) => maps[i]?.get(c) ?? null),
      intervals: categories.map((c) => intervals[i]?.get(c) ?? null),
    })),
  };
}

/**
 * The report's five charts as specs (price ratios, session lengths, deal rate by tier, M6, M7), the run
 * and the reference side by side with their intervals: what the page draws, for a notebook to draw too
 * with `barChartSvg`.
 */
export function reportChartSpecs(data: ReportData): BarChartSpec[] {
  const price = series(
    data,
    (f) => f.priceRatio.bins,
    binLabel,
    (b) => b.share,
    (_b, i, f) => f.intervals.priceBins[i] ?? null,
  );
  // Runs may differ in their longest session: the union of lengths, in numeric order.
  const lengths = series(
    data,
    (f) => f.sessionLength.counts,
    (r) => String(r.turns),
    (r) => r.share,
    (r, _i, f) => f.intervals.sessionLength.get(r.turns) ?? null,
    (a, b) => Number(a) - Number(b),
  );
  const tiers = series(
    data,
    (f) => f.byTier,
    (r) => r.segment,
    (r) => r.dealRate,
    (r, _i, f) => f.intervals.tiers.get(r.segment) ?? null,
  );
  const m6 = series(
    data,
    (f) => f.labels,
    (r) => `${r.role}: ${r.label}`,
    (r) => r.dealRate,
    (r, _i, f) => f.intervals.labelDealRate.get(labelKey(r.role, r.label)) ?? null,
  );
  const m7 = series(
    data,
    (f) => f.labels,
    (r) => `${r.role}: ${r.label}`,
    (r) => r.meanOpponentConcession,
    (r, _i, f) => f.intervals.labelConcession.get(labelKey(r.role, r.label)) ?? null,
  );
  return [
    {
      id: 'price-ratio',
      xLabel: 'final price / list price',
      yLabel: 'share of deals',
      title: 'Final price / list price (share of deals)',
      ...price,
      format: percentAxis,
      whiskers: EXACT_WHISKERS,
      caption:
        'Agreed price over list price, in bins of 5% of the list price; each run sums to 100% of its deals.',
    },
    {
      id: 'session-length',
      xLabel: 'turns',
      yLabel: 'share of sessions',
      title: 'Session length (share of sessions by number of turns)',
      ...lengths,
      format: percentAxis,
      whiskers: EXACT_WHISKERS,
    },
    {
      id: 'deal-rate-by-tier',
      xLabel: 'list price (USD)',
      yLabel: 'deal rate',
      title: 'Deal rate by list-price tier (USD)',
      ...tiers,
      format: percentAxis,
      whiskers: EXACT_WHISKERS,
    },
    {
      id: 'label-deal-rate',
      yLabel: 'deal rate',
      title: "M6 (haggle's definition): deal rate of sessions in which a side used a label",
      ...m6,
      format: percentAxis,
      whiskers: EXACT_WHISKERS,
    },
    {
      id: 'label-concession',
      yLabel: 'next concession / list price',
      title: "M7 (haggle's definition): the opponent's next concession after a label (share of list price)",
      ...m7,
      format: percentAxis,
    },
  ];
}

/** The whiskers of a chart of shares: each bar is a proportion of sessions or deals (docs/metrics.md). */
const EXACT_WHISKERS = '95% exact (Clopper-Pearson) intervals of each share.';

function metricsTable(data: ReportData): string {
  if (data.comparison) {
    const c = data.comparison;
    const head = `<tr><th>metric</th><th>${escapeHtml(c.labels.reference)}</th><th>${escapeHtml(c.labels.run)}</th><th>delta</th><th>${Math.round(c.level * 100)}% CI of delta</th><th>Fisher p</th><th>verdict</th><th>n (${escapeHtml(c.labels.reference)} / ${escapeHtml(c.labels.run)})</th></tr>`;
    const rows = c.rows.map((r) => {
      const significant = r.ci !== null && (r.ci[0] > 0 || r.ci[1] < 0);
      return `<tr data-metric="${escapeHtml(r.id)}" data-reference="${r.reference ?? ''}" data-run="${r.run ?? ''}" data-delta="${r.delta ?? ''}"${significant ? ' class="significant"' : ''}><td>${escapeHtml(r.name)}</td><td>${formatMetricValue(r.reference, r.unit)}</td><td>${formatMetricValue(r.run, r.unit)}</td><td>${escapeHtml(formatMetricDelta(r.delta, r.unit))}</td><td>${escapeHtml(formatInterval(r.ci, r.unit))}</td><td>${escapeHtml(formatPValue(r.pValue))}</td><td class="verdict ${r.verdict ?? 'none'}" data-verdict="${r.verdict ?? ''}">${escapeHtml(formatComparisonVerdict(r))}</td><td>${r.n.reference} / ${r.n.run}</td></tr>`;
    });
    return `<table class="metrics" data-table="comparison"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>
<p class="note">Delta is ${escapeHtml(c.labels.run)} minus ${escapeHtml(c.labels.reference)}; percentages differ in percentage points (pp). Intervals: for shares, exact (Clopper-Pearson per side, combined by Newcombe's square-and-add), with Fisher's exact test; for means, percentile bootstrap over sessions, ${c.resamples} resamples, seed ${c.seed}; rows whose interval excludes 0 are marked. Verdicts (haggle's choice of margin, ${escapeHtml(formatMargin(c.margins.share, 'share'))} for shares, docs/metrics.md#verdicts): inconsistent when the interval excludes 0, consistent only when it lies inside the margin, otherwise too few to tell (or cannot tell, where the reference alone is wider than the margin). n counts sessions, turns or label uses, as the metric is defined (docs/metrics.md).</p>${c.labelCaveats.map((line) => `<p class="note label-caveat">${escapeHtml(line)}</p>`).join('')}`;
  }
  const estimates = data.estimates ?? [];
  const rows = estimates.map(
    (m) =>
      `<tr data-metric="${escapeHtml(m.id)}" data-run="${m.value ?? ''}"><td>${escapeHtml(m.name)}</td><td>${formatMetricValue(m.value, m.unit)}</td><td>${m.ci ? `${formatMetricValue(m.ci[0], m.unit)} – ${formatMetricValue(m.ci[1], m.unit)}` : '–'}</td><td>${m.n}</td></tr>`,
  );
  const labelNotes = estimates.some((m) => m.family === 'label')
    ? labelMetricCaveats(negotiatorProfiles(data.run))
        .map((line) => `<p class="note label-caveat">${escapeHtml(line)}</p>`)
        .join('')
    : '';
  return `<table class="metrics" data-table="metrics"><thead><tr><th>metric</th><th>${escapeHtml(data.run.name)}</th><th>95% CI</th><th>n</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="note">Intervals: exact (Clopper-Pearson) for shares of sessions, never zero-width; percentile bootstrap over sessions for means (none where every resample agrees).</p>${labelNotes}`;
}

/** The built-in profiles of a run's negotiators, for the card's caveats beside M6 and M7. */
function negotiatorProfiles(figures: RunFigures): string[] {
  const sides = figures.negotiators ? [figures.negotiators.buyer, figures.negotiators.seller] : [];
  return sides.flatMap((side) => {
    const profile = (side as { profile?: unknown } | undefined)?.profile;
    return typeof profile === 'string' ? [profile] : [];
  });
}

function labelTable(figures: RunFigures): string {
  if (figures.labels.length === 0)
    return `<p class="note">${escapeHtml(figures.name)}: no message labels.</p>`;
  const rows = figures.labels.map(
    (l) =>
      `<tr><td>${escapeHtml(l.role)}</td><td>${escapeHtml(l.label)}</td><td>${l.sessions}</td><td>${l.uses}</td><td>${l.dealRate === null ? '–' : percent(l.dealRate)}</td><td>${l.dealRateWithout === null ? '–' : percent(l.dealRateWithout)}</td><td>${l.answered}</td><td>${l.meanOpponentConcession === null ? '–' : percent(l.meanOpponentConcession)}</td></tr>`,
  );
  const caveats = labelMetricCaveats(negotiatorProfiles(figures))
    .map((line) => `<p class="note label-caveat">${escapeHtml(line)}</p>`)
    .join('');
  return `<h3>${escapeHtml(figures.name)}</h3>${caveats}<table class="labels"><thead><tr><th>role</th><th>label</th><th>sessions</th><th>uses</th><th>M6 deal rate with</th><th>without</th><th>answered</th><th>M7 next concession</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function runCard(figures: RunFigures, role: string): string {
  const negotiators = figures.negotiators
    ? `<dl class="negotiators">${renderNegotiator('buyer', figures.negotiators.buyer)}${renderNegotiator('seller', figures.negotiators.seller)}</dl>`
    : '';
  // The deal rate stands on finished sessions; a run where none finished shows no rate at all.
  const unfinished = figures.sessions - figures.finished;
  const rate =
    figures.finished === 0
      ? `<span class="big" data-field="deal-rate">—</span> deals: all ${figures.sessions} sessions failed`
      : `<span class="big" data-field="deal-rate">${percent(figures.deals / figures.finished)}</span> deals${unfinished > 0 ? ` of ${figures.finished} finished` : ''}`;
  const failed =
    unfinished > 0 ? ` · <span class="big failed" data-field="failed">${unfinished}</span> failed` : '';
  return `<section class="card" data-run-role="${role}"><h2>${escapeHtml(figures.name)}</h2><p><span class="big" data-field="sessions">${figures.sessions}</span> sessions · ${rate}${failed}</p>${negotiators}<h3>Provenance</h3>${renderProvenance(figures.provenance)}</section>`;
}

/** Sessions by end reason (kind and share), then each run's failures with their distinct errors. */
function outcomesSection(data: ReportData): string {
  const runs = [data.run, ...(data.reference ? [data.reference] : [])];
  const named = runs.length > 1;
  return `${renderOutcomeBreakdown(runs.map((r) => ({ name: r.name, rows: r.breakdown })))}${runs
    .map((r) =>
      renderFailures(
        r.sessions,
        r.sessions - r.finished,
        r.errorMessages,
        'sessions',
        named ? r.name : undefined,
      ),
    )
    .join('\n')}`;
}

/** The whole report as one HTML document: inline CSS and SVG, no script, nothing fetched at view time. */
export function renderReport(data: ReportData): string {
  return htmlDocument(
    data.title,
    'haggle report',
    `<div class="cards">${runCard(data.run, 'run')}${data.reference ? runCard(data.reference, 'reference') : ''}</div>
<section data-section="outcomes"><h2 id="outcomes">Outcomes and failures</h2>
${outcomesSection(data)}</section>
${data.published ? `<section data-section="references"><h2>Published references</h2>\n${renderReferenceSection(data.published)}</section>` : ''}
<section data-section="charts"><h2>Charts</h2>
<div class="charts">${reportChartSpecs(data).map(renderBarChart).join('\n')}</div></section>
<section data-section="transcripts"><h2>Sample sessions</h2>
${renderTranscripts(data.transcripts, { seed: data.transcriptSeed, of: data.run.sessions })}</section>
<section data-section="metrics"><h2>Metrics</h2>
${metricsTable(data)}</section>
<section data-section="labels"><h2>Label effects</h2>
${labelTable(data.run)}${data.reference ? labelTable(data.reference) : ''}</section>`,
  );
}
