import { dataNumber, escapeHtml } from './html.js';

/** One series of a bar chart: its key, legend and values. */
export interface BarSeries {
  /** Short key for `data-series`, e.g. `run` or `reference`. */
  key: string;
  /** Legend text (untrusted: escaped). */
  name: string;
  /** One value per category; null draws no bar. */
  values: readonly (number | null)[];
  /** A confidence interval per value, drawn as a whisker over its bar; null draws none. */
  intervals?: readonly ([number, number] | null)[];
  color: string;
}

/** A bar chart of the report: id, title, categories, series and axis labels. */
export interface BarChartSpec {
  /** `data-chart` of the figure, e.g. `price-ratio`. */
  id: string;
  title: string;
  /** Category labels along the x axis (untrusted: escaped). */
  categories: readonly string[];
  series: readonly BarSeries[];
  /** How tick labels and tooltips show a value. */
  format: (value: number) => string;
  /** Caption under the chart. */
  caption?: string;
}

const WIDTH = 760;
const HEIGHT = 300;
const BASE_MARGIN = { top: 16, right: 16, bottom: 40, left: 56 };
/** Many categories get slanted labels, which need room below and to the left. */
const SLANTED_MARGIN = { top: 16, right: 16, bottom: 150, left: 150 };

/** A rounded upper bound for the y axis, so ticks fall on readable values. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  // Steps whose quarters are round too: the axis has four gridlines above 0.
  for (const step of [1, 2, 4, 6, 8, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function intervalText(interval: [number, number] | null | undefined, format: (v: number) => string): string {
  return interval ? ` (95% CI ${format(interval[0])} – ${format(interval[1])})` : '';
}

/** A vertical line from the interval's low to its high end, with caps: the bar's 95% interval. */
function whisker(
  series: string,
  category: string,
  [low, high]: [number, number],
  centre: number,
  barWidth: number,
  y: (v: number) => number,
): string {
  const x = round(centre);
  const cap = round(Math.min(6, barWidth / 3));
  const top = round(y(high));
  const bottom = round(y(low));
  return `<g class="whisker" data-series="${escapeHtml(series)}" data-category="${escapeHtml(category)}" data-low="${dataNumber(low)}" data-high="${dataNumber(high)}"><line x1="${x}" x2="${x}" y1="${top}" y2="${bottom}"/><line x1="${round(x - cap)}" x2="${round(x + cap)}" y1="${top}" y2="${top}"/><line x1="${round(x - cap)}" x2="${round(x + cap)}" y1="${bottom}" y2="${bottom}"/></g>`;
}

/**
 * A grouped bar chart as inline SVG: one group per category, one bar per series. Each bar carries
 * its exact value in `data-value` and a `<title>` tooltip, so the page needs no script and a test
 * can read the numbers back.
 */
export function renderBarChart(spec: BarChartSpec): string {
  const rotate = spec.categories.length > 8 || spec.categories.some((c) => c.length > 14);
  const MARGIN = rotate ? SLANTED_MARGIN : BASE_MARGIN;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const values = spec.series.flatMap((s) => [
    ...s.values.filter((v): v is number => v !== null),
    // The axis reaches the top of every whisker, so none is cut off.
    ...(s.intervals ?? []).flatMap((interval) => (interval ? [interval[1]] : [])),
  ]);
  const top = niceMax(Math.max(0, ...values));
  const y = (v: number) => MARGIN.top + plotHeight - (Math.max(0, v) / top) * plotHeight;
  const groupWidth = plotWidth / Math.max(1, spec.categories.length);
  const barWidth = Math.max(1, (groupWidth * 0.8) / Math.max(1, spec.series.length));
  const parts: string[] = [];

  for (let i = 0; i <= 4; i++) {
    const v = (top * i) / 4;
    const at = round(y(v));
    parts.push(
      `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${at}" y2="${at}"/>`,
      `<text class="tick" x="${MARGIN.left - 6}" y="${at + 4}" text-anchor="end">${escapeHtml(spec.format(v))}</text>`,
    );
  }
  spec.categories.forEach((category, c) => {
    const groupX = MARGIN.left + c * groupWidth + groupWidth * 0.1;
    spec.series.forEach((series, s) => {
      const value = series.values[c] ?? null;
      if (value === null) return;
      const x = round(groupX + s * barWidth);
      const top = round(y(value));
      const height = round(MARGIN.top + plotHeight - top);
      parts.push(
        `<rect class="bar" data-series="${escapeHtml(series.key)}" data-category="${escapeHtml(category)}" data-value="${dataNumber(value)}" x="${x}" y="${top}" width="${round(barWidth)}" height="${height}" fill="${series.color}"><title>${escapeHtml(`${series.name}, ${category}: ${spec.format(value)}${intervalText(series.intervals?.[c], spec.format)}`)}</title></rect>`,
      );
      const interval = series.intervals?.[c];
      if (interval) parts.push(whisker(series.key, category, interval, x + barWidth / 2, barWidth, y));
    });
    const labelX = round(MARGIN.left + (c + 0.5) * groupWidth);
    const labelY = MARGIN.top + plotHeight + 14;
    parts.push(
      rotate
        ? `<text class="category" x="${labelX}" y="${labelY}" text-anchor="end" transform="rotate(-40 ${labelX} ${labelY})">${escapeHtml(category)}</text>`
        : `<text class="category" x="${labelX}" y="${labelY}" text-anchor="middle">${escapeHtml(category)}</text>`,
    );
  });
  parts.push(
    `<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${MARGIN.top + plotHeight}" y2="${MARGIN.top + plotHeight}"/>`,
  );
  const legend = spec.series
    .map(
      (s) =>
        `<span class="legend-item"><span class="swatch" style="background:${s.color}"></span>${escapeHtml(s.name)}</span>`,
    )
    .join('');
  return [
    `<figure class="chart" data-chart="${escapeHtml(spec.id)}">`,
    `<figcaption>${escapeHtml(spec.title)}</figcaption>`,
    `<div class="legend">${legend}</div>`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(spec.title)}">`,
    ...parts,
    '</svg>',
    spec.caption ? `<p class="caption">${escapeHtml(spec.caption)}</p>` : '',
    spec.series.some((series) => series.intervals)
      ? '<p class="caption">Whiskers: 95% percentile bootstrap intervals (sessions resampled).</p>'
      : '',
    '</figure>',
  ].join('\n');
}
