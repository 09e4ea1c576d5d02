import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DOMParser } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { type BarChartSpec, barChartSvg, renderBarChart } from '../../src/report/index.js';

// The one chart module of the HTML reports and the notebooks: a standalone SVG drawn by Observable Plot,
// read back here as XML and counted: axes with ticks and labels, one rect per bar, one whisker (with
// two caps) per interval, a legend entry per series.

const HOSTILE = '</text><script>alert(1)</script>&amp;';
const spec: BarChartSpec = {
  id: 'deal-rate-by-tier',
  title: 'Deal rate by list-price tier',
  categories: ['under-25', '25-100', '100-500', HOSTILE],
  xLabel: 'list price (USD)',
  yLabel: 'deal rate',
  series: [
    {
      key: 'run',
      name: 'model',
      color: '#2563eb',
      values: [0.42, 0.5, null, 0.61],
      intervals: [[0.35, 0.49], [0.41, 0.58], null, [0, 0]],
    },
    { key: 'reference', name: 'source', color: '#f59e0b', values: [0.4, 0.45, 0.3, 0.5] },
  ],
  format: (v) => `${(v * 100).toFixed(0)}%`,
};

type ChartNode = ReturnType<ReturnType<typeof parse>['querySelector']> & object;

function parse(svg: string) {
  return new DOMParser().parseFromString(svg, 'image/svg+xml');
}

describe('barChartSvg', () => {
  const svg = barChartSvg(spec);
  const doc = parse(svg);
  const all = (selector: string) => [...doc.querySelectorAll(selector)];

  it('is one standalone SVG document', () => {
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(all('svg')).toHaveLength(1);
    expect(doc.querySelector('svg')?.getAttribute('aria-label')).toBe(spec.title);
  });

  it('has a y axis with ticks, tick labels and a label, and the categories under the x axis', () => {
    const tickMarks = all('g[aria-label="y-axis tick"] path');
    const tickLabels = all('g[aria-label="y-axis tick label"] text').map((t) => t.textContent);
    expect(tickMarks.length).toBeGreaterThanOrEqual(4);
    expect(tickLabels).toHaveLength(tickMarks.length);
    expect(tickLabels[0]).toBe('0%');
    expect(tickLabels.every((label) => /^\d+%$/.test(label ?? ''))).toBe(true);
    expect(all('g[aria-label="y-grid"] line').length).toBe(tickMarks.length);
    expect(all('text.y-label').map((t) => t.textContent)).toEqual(['deal rate']);
    expect(all('g[aria-label="x-axis tick label"] text').map((t) => t.textContent)).toEqual(spec.categories);
    expect(all('g[aria-label="x-axis label"] text').map((t) => t.textContent)).toEqual(['list price (USD)']);
  });

  it('draws a bar per value, a whisker per interval, two caps per interval of non-zero width', () => {
    const bars = all('rect.bar');
    expect(bars).toHaveLength(7);
    expect(
      bars.map((b) => `${b.getAttribute('data-series')}:${b.getAttribute('data-value')}`).sort(),
    ).toEqual([
      'reference:0.3',
      'reference:0.4',
      'reference:0.45',
      'reference:0.5',
      'run:0.42',
      'run:0.5',
      'run:0.61',
    ]);
    const whiskers = all('g.whisker');
    expect(whiskers.map((w) => [w.getAttribute('data-low'), w.getAttribute('data-high')])).toEqual([
      ['0.35', '0.49'],
      ['0.41', '0.58'],
      ['0', '0'],
    ]);
    for (const whisker of whiskers) expect(whisker.querySelectorAll('line')).toHaveLength(1);
    expect(all('g.whisker-caps line')).toHaveLength(4);
    // A whisker spans its interval: its line's ends are the interval's ends on the y axis, so the
    // longer interval draws the longer line.
    const length = (w: ChartNode) => {
      const line = w.querySelector('line') as ChartNode;
      return Math.abs(Number(line.getAttribute('y2')) - Number(line.getAttribute('y1')));
    };
    expect(length(whiskers[1] as ChartNode)).toBeGreaterThan(length(whiskers[0] as ChartNode));
    expect(all('rect.bar title')[0]?.textContent).toBe('model, under-25: 42% (95% CI 35% – 49%)');
  });

  it('has the title and a legend entry per series inside the SVG; text from the data stays text', () => {
    expect(all('text.chart-title').map((t) => t.textContent)).toEqual([spec.title]);
    const legend = all('g.legend text').map((t) => t.textContent);
    expect(legend).toEqual([spec.title, 'deal rate', 'model', 'source']);
    expect(all('script')).toHaveLength(0);
    expect(svg).not.toContain('<script>');
    // Escaped as XML wants it, attribute and text alike.
    expect(svg).toContain('data-category="&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;"');
    expect(all('g[aria-label="x-axis tick label"] text')[3]?.textContent).toBe(HOSTILE);
  });

  it('in the report, the figure names the chart and leaves the title to its caption', () => {
    const figure = renderBarChart(spec);
    expect(figure).toMatch(/^<figure class="chart" data-chart="deal-rate-by-tier">/);
    expect(figure).not.toContain('class="chart-title"');
    expect(figure).toContain('Whiskers: 95% percentile bootstrap intervals');
  });
});

describe('the chart library is loaded on the first chart, not on import', () => {
  const repoRoot = new URL('../..', import.meta.url).pathname;
  it('importing haggle (the Node build) or haggle/report loads neither Plot nor linkedom; a chart does', async () => {
    const entry = join(repoRoot, 'dist', 'index.js');
    const reportEntry = join(repoRoot, 'dist', 'report.js');
    for (const file of [entry, reportEntry])
      if (!existsSync(file))
        throw new Error('this test imports the built package: run `npm run build` first');
    const script = `
      import { createRequire } from 'node:module';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => /observablehq|linkedom/.test(k)).length;
      await import(${JSON.stringify(entry)});
      const report = await import(${JSON.stringify(reportEntry)});
      const before = loaded();
      report.renderBarChart({ id: 'x', title: 't', categories: ['a'], series: [{ key: 'k', name: 'n', color: '#000', values: [1] }], format: String });
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    const { before, after } = JSON.parse(stdout) as { before: number; after: number };
    expect(before).toBe(0);
    expect(after).toBeGreaterThan(0);
  }, 60_000);
});
