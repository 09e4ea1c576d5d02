import { dataNumber, escapeHtml } from './html.js';
import { type ChartDocument, type ChartElement, plotRuntime } from './plot-runtime.js';

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
  /** The x axis's label, under the category names (none if omitted). */
  xLabel?: string;
  /** The y axis's label, above its ticks (none if omitted). */
  yLabel?: string;
  /** Caption under the chart. */
  caption?: string;
  /** What the whiskers are, said under the chart when a bar has one (default: a session bootstrap's 95%). */
  whiskers?: string;
}

/** One bar: where it sits (indices, so two equal category names stay two groups) and its value. */
interface Bar {
  category: number;
  series: number;
  value: number;
  interval: [number, number] | null;
}

/** Where one series' bars sit inside a category's band, in pixels (see `seriesSlices`). */
interface Slice {
  left: number;
  right: number;
  width: number;
  centre: number;
}

const WIDTH = 760;
/** The plot's own height, between the heading and the x axis. */
const PLOT_HEIGHT = 218;
/** Room above the plot for the title and the legend. */
const MARGIN_TOP = 62;
/** Under the x axis: the category names, then the axis's label. */
const MARGIN_BOTTOM = 48;
const MARGIN_LEFT = 64;
const MARGIN_RIGHT = 16;
const PLOT_WIDTH = WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
/** Between categories' bands and at both ends, as a share of a band's step. */
const BAND_PADDING = 0.2;
const NUMERIC_ATTRIBUTES = ['x', 'y', 'x1', 'x2', 'y1', 'y2', 'width', 'height', 'transform', 'd'];

/**
 * A grouped bar chart as one standalone SVG document, drawn by Observable Plot: one group per category,
 * one bar per series, a y axis with ticks, gridlines and a label, the categories (and their label) under
 * the x axis, a whisker with caps over every bar that has an interval, the title and a legend on top.
 * Each bar keeps its exact value in `data-value` and a `<title>` tooltip, each whisker its ends in
 * `data-low`/`data-high`, so the page needs no script and a test can read the numbers back. The same
 * function draws the HTML report's charts and the notebooks' (haggle's choice: one chart code to keep
 * right). Text from the spec is untrusted; the DOM escapes it when the SVG is serialised.
 */
export function barChartSvg(spec: BarChartSpec, options: { title?: boolean } = {}): string {
  const { Plot, document } = plotRuntime();
  const bars: Bar[] = spec.series.flatMap((series, s) =>
    spec.categories.flatMap((_category, c) => {
      const value = series.values[c] ?? null;
      return value === null
        ? []
        : [{ category: c, series: s, value, interval: series.intervals?.[c] ?? null }];
    }),
  );
  const withInterval = bars.filter((bar) => bar.interval !== null);
  // The axis reaches the top of every whisker, so none is cut off.
  const top = Math.max(0, ...bars.map((bar) => Math.max(bar.value, bar.interval?.[1] ?? 0)));
  // Many categories or long names are slanted, and the margin grows with the longest (about 6.5 px a
  // character at 11 px, 40 degrees: sin 40° of it downwards).
  const rotate = spec.categories.length > 8 || spec.categories.some((c) => c.length > 14);
  const longest = Math.max(0, ...spec.categories.map((c) => c.length));
  const marginBottom = rotate
    ? Math.ceil(MARGIN_BOTTOM + longest * 6.5 * Math.sin((40 * Math.PI) / 180))
    : MARGIN_BOTTOM;
  const slices = seriesSlices(spec);
  const describe = (bar: Bar) => {
    const series = spec.series[bar.series] as BarSeries;
    const interval = bar.interval
      ? ` (95% CI ${spec.format(bar.interval[0])} – ${spec.format(bar.interval[1])})`
      : '';
    return `${series.name}, ${spec.categories[bar.category]}: ${spec.format(bar.value)}${interval}`;
  };
  const svg = Plot.plot({
    // Plot's types name the browser's Document; linkedom's has what Plot calls.
    document: document as never,
    className: 'haggle-chart',
    width: WIDTH,
    height: MARGIN_TOP + PLOT_HEIGHT + marginBottom,
    marginTop: MARGIN_TOP,
    marginLeft: MARGIN_LEFT,
    marginRight: MARGIN_RIGHT,
    marginBottom,
    style: { fontSize: '11px', fontFamily: 'system-ui, sans-serif', background: 'white', color: '#374151' },
    x: {
      domain: spec.categories.map((_c, c) => c),
      tickFormat: (c: number) => spec.categories[c] ?? '',
      tickRotate: rotate ? -40 : 0,
      label: spec.xLabel ?? null,
      labelAnchor: 'center',
      labelArrow: 'none',
      padding: BAND_PADDING,
    },
    y: {
      domain: [0, top > 0 ? top : 1],
      nice: true,
      grid: true,
      ticks: 5,
      tickFormat: spec.format,
      // Drawn by `heading`, under the title: Plot puts it at the very top, where the title is.
      label: null,
    },
    // One mark per series, each bar a slice of its category's band (insets), rather than Plot's facets:
    // a facet per category draws its own axes and grid and made a chart several times slower.
    marks: spec.series
      .flatMap((series, s) => {
        const slice = slices[s] as Slice;
        const mine = { filter: (bar: Bar) => bar.series === s };
        const whisker = { x: 'category', stroke: '#111827', strokeWidth: 1.2, ...mine };
        return [
          Plot.barY(bars, {
            x: 'category',
            y: 'value',
            fill: series.color,
            title: describe,
            insetLeft: slice.left + 1,
            insetRight: slice.right + 1,
            className: 'bars',
            ...mine,
          }),
          Plot.ruleX(withInterval, {
            ...whisker,
            y1: (bar: Bar) => bar.interval?.[0],
            y2: (bar: Bar) => bar.interval?.[1],
            dx: slice.centre,
            className: 'whiskers',
          }),
          // Caps a third of the bar wide, centred on it; none on an interval of zero width (a share of
          // 0 with every resample 0), which would draw a dash on the axis.
          ...[0, 1].map((end) =>
            Plot.tickY(withInterval, {
              ...whisker,
              filter: (bar: Bar) => bar.series === s && bar.interval?.[0] !== bar.interval?.[1],
              y: (bar: Bar) => bar.interval?.[end],
              insetLeft: slice.left + slice.width / 3,
              insetRight: slice.right + slice.width / 3,
              className: 'whisker-caps',
            }),
          ),
        ];
      })
      .concat(Plot.ruleY([0], { stroke: '#9ca3af' })),
  }) as unknown as ChartElement;

  for (const rect of svg.querySelectorAll('g.bars rect')) {
    const bar = bars[(rect as unknown as { __data__: number }).__data__] as Bar;
    rect.setAttribute('data-value', dataNumber(bar.value));
    rect.setAttribute('data-category', spec.categories[bar.category] as string);
    rect.setAttribute('data-series', (spec.series[bar.series] as BarSeries).key);
    rect.setAttribute('class', 'bar');
  }
  // Each whisker's line in a group that names its bar and its ends, in the line's own coordinates.
  for (const line of svg.querySelectorAll('g.whiskers line')) {
    const bar = withInterval[(line as unknown as { __data__: number }).__data__] as Bar;
    const [low, high] = bar.interval as [number, number];
    const group = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    group.setAttribute('class', 'whisker');
    group.setAttribute('data-series', (spec.series[bar.series] as BarSeries).key);
    group.setAttribute('data-category', spec.categories[bar.category] as string);
    group.setAttribute('data-low', dataNumber(low));
    group.setAttribute('data-high', dataNumber(high));
    line.replaceWith(group);
    group.appendChild(line);
  }
  svg.insertBefore(heading(document, spec, options.title ?? true), svg.querySelector('g'));
  svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', spec.title);
  for (const element of svg.querySelectorAll('*')) {
    for (const name of NUMERIC_ATTRIBUTES) {
      const value = element.getAttribute(name);
      // Two decimals of a pixel: the same picture in a third of the bytes.
      if (value)
        element.setAttribute(
          name,
          value.replace(/-?\d+\.\d{3,}/g, (n: string) => String(Number(Number(n).toFixed(2)))),
        );
    }
  }
  return svg.outerHTML;
}

/**
 * Where each series' bar sits in its category's band, in pixels: what to cut from the band's left and
 * right (Plot's insets), its width, and its centre's offset from the band's centre (the whisker's `dx`).
 * The band follows Plot's band scale: `BAND_PADDING` of a step between bands and at both ends.
 */
function seriesSlices(spec: BarChartSpec): Slice[] {
  const step = PLOT_WIDTH / (Math.max(1, spec.categories.length) + BAND_PADDING);
  const band = step * (1 - BAND_PADDING);
  const count = Math.max(1, spec.series.length);
  const width = band / count;
  return spec.series.map((_series, s) => ({
    left: s * width,
    right: (count - 1 - s) * width,
    width,
    centre: (s + 0.5) * width - band / 2,
  }));
}

/**
 * The title and, under it, the y axis's label at the left; one swatch and name per series at the
 * right; inside the SVG, so it stands alone.
 */
function heading(document: ChartDocument, spec: BarChartSpec, withTitle: boolean): ChartElement {
  const ns = 'http://www.w3.org/2000/svg';
  const group = document.createElementNS(ns, 'g');
  group.setAttribute('class', 'legend');
  group.setAttribute('text-anchor', 'start');
  const title = document.createElementNS(ns, 'text');
  title.setAttribute('class', 'chart-title');
  title.setAttribute('x', '8');
  title.setAttribute('y', '14');
  title.setAttribute('font-size', '13');
  title.setAttribute('font-weight', '600');
  title.textContent = spec.title;
  if (withTitle) group.appendChild(title);
  if (spec.yLabel) {
    const label = document.createElementNS(ns, 'text');
    label.setAttribute('class', 'y-label');
    label.setAttribute('x', '8');
    label.setAttribute('y', String(MARGIN_TOP - 16));
    label.textContent = spec.yLabel;
    group.appendChild(label);
  }
  // About 6.5 px a character at 11 px: room for each name, then a gap.
  const widths = spec.series.map((series) => 14 + Math.ceil(series.name.length * 6.5) + 18);
  let x = Math.max(8, WIDTH - 16 - widths.reduce((a, b) => a + b, 0) + 18);
  for (const series of spec.series) {
    const swatch = document.createElementNS(ns, 'rect');
    for (const [name, value] of [
      ['x', x],
      ['y', 8],
      ['width', 10],
      ['height', 10],
      ['fill', series.color],
    ] as const)
      swatch.setAttribute(name, String(value));
    const name = document.createElementNS(ns, 'text');
    name.setAttribute('x', String(x + 14));
    name.setAttribute('y', '17');
    name.textContent = series.name;
    group.append(swatch, name);
    x += widths.shift() ?? 0;
  }
  return group;
}

/**
 * A bar chart for the HTML report: `barChartSvg` in a `<figure>` that names the chart (`data-chart`),
 * its title in the caption above rather than inside the SVG, its captions under it.
 */
export function renderBarChart(spec: BarChartSpec): string {
  return [
    `<figure class="chart" data-chart="${escapeHtml(spec.id)}">`,
    `<figcaption>${escapeHtml(spec.title)}</figcaption>`,
    barChartSvg(spec, { title: false }),
    spec.caption ? `<p class="caption">${escapeHtml(spec.caption)}</p>` : '',
    spec.series.some((series) => series.intervals?.some(Boolean))
      ? `<p class="caption">Whiskers: ${escapeHtml(spec.whiskers ?? '95% percentile bootstrap intervals (sessions resampled).')}</p>`
      : '',
    '</figure>',
  ].join('\n');
}
