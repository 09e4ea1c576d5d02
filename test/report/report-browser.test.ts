import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  boulware,
  byPriceTier,
  dealRate,
  generateContexts,
  loadSessions,
  PopulationAgent,
  priceRatioHistogram,
  type SessionResult,
  sessionLengthDistribution,
  simulate,
} from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';
import { CHROMIUM, CHROMIUM_MISSING, launchChromium } from './browser.js';

// The report opened in Debian's headless Chromium through playwright-core. Without Chromium this
// test fails on purpose, saying how to install it: a skipped browser test would pass CI unseen.
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'">';

describe('the HTML report in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-report-browser-'));
  const runPath = join(dir, 'model.jsonl');
  const referencePath = join(dir, 'source.jsonl');
  const htmlPath = join(dir, 'report.html');
  let run: SessionResult[];

  beforeAll(async () => {
    const contexts = generateContexts({ count: 240, seed: 4 });
    // Untrusted text in the data must reach the page as text, never as markup.
    (contexts[0] as { item: { category?: string } }).item.category = HOSTILE;
    await simulate({
      buyer: new PopulationAgent(),
      seller: boulware(),
      contexts,
      seed: 1,
      out: runPath,
    }).done();
    await simulate({
      buyer: new PopulationAgent(),
      seller: new PopulationAgent(),
      contexts,
      seed: 2,
      out: referencePath,
    }).done();
    const io = captureIo();
    const code = await runCli(
      [
        'report',
        runPath,
        '--reference',
        referencePath,
        '--out',
        htmlPath,
        '--resamples',
        '200',
        '--run-name',
        'model',
        '--reference-name',
        'source',
      ],
      io,
    );
    expect(code, io.err()).toBe(0);
    run = loadSessions(runPath);
  });

  it('Chromium is installed', () => {
    expect(existsSync(CHROMIUM), CHROMIUM_MISSING).toBe(true);
  });

  it('renders the page offline, with charts that hold the run’s numbers, and takes a screenshot', async () => {
    const context = await launchChromium();
    try {
      const requests: string[] = [];
      context.on('request', (request) => requests.push(request.url()));
      // Anything but the file itself would be a request at view time: refuse it, and fail below.
      await context.route(/^(?!file:)/, (route) => route.abort());
      const page = await context.newPage();
      await page.goto(pathToFileURL(htmlPath).href);

      expect(await page.title()).toBe('model against source');
      expect(requests).toEqual([pathToFileURL(htmlPath).href]);

      // The comparison table: one row per metric, the deal rate as computed from the JSONL.
      const dealRow = page.locator('tr[data-metric="deal-rate"]');
      expect(Number(await dealRow.getAttribute('data-run'))).toBe(dealRate(run));
      expect(await page.locator('table[data-table="comparison"] tbody tr').count()).toBeGreaterThan(30);

      const bars = async (chart: string, series = 'run') =>
        page
          .locator(`figure[data-chart="${chart}"] rect[data-series="${series}"]`)
          .evaluateAll((rects) =>
            rects.map(
              (r) => [r.getAttribute('data-category'), Number(r.getAttribute('data-value'))] as const,
            ),
          );

      const tiers = byPriceTier(run).filter((t) => t.dealRate !== null);
      expect(await bars('deal-rate-by-tier')).toEqual(tiers.map((t) => [t.segment, t.dealRate]));

      const lengths = sessionLengthDistribution(run).counts;
      const lengthBars = new Map(await bars('session-length'));
      for (const row of lengths) expect(lengthBars.get(String(row.turns))).toBe(row.share);

      const histogram = priceRatioHistogram(run);
      const priceBars = (await bars('price-ratio')).map(([, value]) => value);
      expect(priceBars).toEqual(histogram.bins.map((b) => b.share));
      expect(priceBars.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);

      // Bars are drawn to scale: the tallest deal-rate bar belongs to the highest rate.
      const heights = await page
        .locator('figure[data-chart="deal-rate-by-tier"] rect[data-series="run"]')
        .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
      const rates = tiers.map((t) => t.dealRate as number);
      expect(heights.indexOf(Math.max(...heights))).toBe(rates.indexOf(Math.max(...rates)));

      for (const chart of [
        'price-ratio',
        'session-length',
        'deal-rate-by-tier',
        'label-deal-rate',
        'label-concession',
      ]) {
        expect(
          await page.locator(`figure[data-chart="${chart}"] svg rect.bar`).count(),
          chart,
        ).toBeGreaterThan(0);
      }

      // The hostile category is shown as text; it made no element.
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('body').textContent()).toContain(HOSTILE);

      const shot = join(mkdtempSync(join(tmpdir(), 'haggle-report-shot-')), 'report.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(20_000);
      console.log(`report screenshot: ${shot}`);
    } finally {
      await context.close();
    }
  });
});
