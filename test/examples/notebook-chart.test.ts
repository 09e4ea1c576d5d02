import { copyFileSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../onnx/fixture-model.js';
import { launchChromium } from '../report/browser.js';
import { readNotebook } from './notebook-harness.js';

// The chart saved in simulate-and-compare.ipynb (what GitHub shows under its cell), rendered by the
// tests' Chromium as a viewer renders an image/svg+xml output: the SVG must lay out with visible axes,
// ticks and whiskers. HAGGLE_CHART_SCREENSHOT=docs/notebook-chart.png refreshes the picture in
// docs/report.md.

const notebook = join(repoRoot, 'examples', 'notebooks', 'simulate-and-compare.ipynb');

function savedSvg(): string {
  for (const cell of readNotebook(notebook).cells)
    for (const output of (cell.outputs ?? []) as { data?: Record<string, string | string[]> }[]) {
      const svg = output.data?.['image/svg+xml'];
      if (svg) return Array.isArray(svg) ? svg.join('') : svg;
    }
  throw new Error(`${notebook} holds no saved chart: HAGGLE_NOTEBOOK_OUTPUTS=1 npx vitest run test/examples`);
}

describe('the notebook chart in a browser', () => {
  it('lays out with its axes, ticks, bars and whiskers visible', async () => {
    const svg = savedSvg();
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 800, height: 480 });
      // As an image, the way a notebook viewer shows an image/svg+xml output.
      await page.setContent(
        `<body style="margin:0;background:#fff"><img id="chart" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body>`,
      );
      // Page code as text: this project compiles without the DOM's types.
      const size = (await page.evaluate(`(async () => {
        const img = document.getElementById('chart');
        await img.decode();
        return { width: img.naturalWidth, height: img.naturalHeight };
      })()`)) as { width: number; height: number };
      expect(size.width).toBe(760);
      expect(size.height).toBeGreaterThan(300);
      // And inline, to measure what was drawn: whiskers with a height, ticks with their labels.
      await page.setContent(`<body style="margin:0">${svg}</body>`);
      const drawn = (await page.evaluate(`(() => {
        const boxes = (selector) => [...document.querySelectorAll(selector)].map((e) => e.getBBox());
        return {
          tickLabels: boxes('g[aria-label="y-axis tick label"] text').filter((b) => b.width > 0).length,
          categoryLabels: boxes('g[aria-label="x-axis tick label"] text').filter((b) => b.width > 0).length,
          bars: boxes('rect.bar').length,
          tallWhiskers: boxes('g.whisker line').filter((b) => b.height > 2).length,
          legend: boxes('g.legend text').filter((b) => b.width > 0).length,
        };
      })()`)) as Record<'tickLabels' | 'categoryLabels' | 'bars' | 'tallWhiskers' | 'legend', number>;
      expect(drawn.tickLabels).toBeGreaterThanOrEqual(4);
      expect(drawn.categoryLabels).toBeGreaterThanOrEqual(20);
      expect(drawn.bars).toBeGreaterThan(20);
      expect(drawn.tallWhiskers).toBeGreaterThan(5);
      expect(drawn.legend).toBe(4); // title, y label, two runs
      const shot = join(mkdtempSync(join(tmpdir(), 'haggle-chart-shot-')), 'notebook-chart.png');
      await page.locator('svg').first().screenshot({ path: shot });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      if (process.env.HAGGLE_CHART_SCREENSHOT) copyFileSync(shot, process.env.HAGGLE_CHART_SCREENSHOT);
      console.log(`notebook chart screenshot: ${shot}`);
    } finally {
      await context.close();
    }
  }, 60_000);
});
