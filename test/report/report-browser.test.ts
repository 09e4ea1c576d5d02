import { copyFileSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  byPriceTier,
  compareToReferences,
  dealRate,
  priceRatioHistogram,
  sessionLengthDistribution,
} from '../../src/entries/metrics.js';
import {
  boulware,
  generateContexts,
  loadSessions,
  type Negotiator,
  PopulationAgent,
  type SessionResult,
  simulate,
} from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';
import { CHROMIUM, CHROMIUM_MISSING, launchChromium, renderedTextWidths } from './browser.js';

// The report opened in Debian's headless Chromium through playwright-core. Without Chromium this
// test fails on purpose, saying how to install it: a skipped browser test would pass CI unseen.
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'">';

describe('the HTML report in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-report-browser-'));
  const runPath = join(dir, 'model.jsonl');
  const referencePath = join(dir, 'source.jsonl');
  const htmlPath = join(dir, 'report.html');
  const llmPath = join(dir, 'llm-like.jsonl');
  const cardHtmlPath = join(dir, 'card.html');
  let run: SessionResult[];
  let llmLike: SessionResult[];

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

    // A run with failures in it, set beside the card's numbers: one in 40 buyer decisions throws.
    const population = new PopulationAgent();
    const flaky: Negotiator = {
      describe: () => ({ kind: 'flaky-population', failsEvery: 40 }),
      async predict(input, options) {
        if ((options?.seed ?? 0) % 40 === 0) throw new Error('the model server went away');
        return population.predict(input, options);
      },
    };
    await simulate({ buyer: flaky, seller: population, contexts, seed: 3, out: llmPath }).done();
    const cardIo = captureIo();
    const cardCode = await runCli(
      [
        'report',
        llmPath,
        '--reference',
        'card:qwen3-4b-negotiation-50k-ep3',
        '--out',
        cardHtmlPath,
        '--resamples',
        '200',
        '--run-name',
        'population vs flaky population',
      ],
      cardIo,
    );
    expect(cardCode, cardIo.err()).toBe(0);
    expect(cardIo.out()).toContain('source population: deal rate');
    llmLike = loadSessions(llmPath);
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
      // Text is drawn: with no font found (fontconfig reading a folder an earlier run left in /tmp),
      // every glyph has width 0 and the page is charts without words.
      const widths = await renderedTextWidths(page);
      expect(widths.phrase).toBeGreaterThan(40);
      expect(widths.wide).toBeGreaterThan(widths.narrow * 2);
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

  it('shows the card’s numbers beside the run, outcomes, whiskers, transcripts, in a layout that uses the width', async () => {
    const context = await launchChromium();
    try {
      await context.route(/^(?!file:)/, (route) => route.abort());
      const page = await context.newPage();
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(pathToFileURL(cardHtmlPath).href);

      // Published references: each row's verdict and exact interval are the comparison's, the numbers the run's.
      const expected = compareToReferences(llmLike, 'card:qwen3-4b-negotiation-50k-ep3');
      const rows = await page.locator('tr[data-reference-row]').evaluateAll((trs) =>
        trs.map((tr) => ({
          id: tr.getAttribute('data-reference-row'),
          published: Number(tr.getAttribute('data-published')),
          run: Number(tr.getAttribute('data-run')),
          low: Number(tr.getAttribute('data-low')),
          high: Number(tr.getAttribute('data-high')),
          verdict: tr.getAttribute('data-verdict'),
          differenceLow: Number(tr.getAttribute('data-difference-low')),
          differenceHigh: Number(tr.getAttribute('data-difference-high')),
          cell: tr.querySelector('td.verdict')?.textContent ?? '',
        })),
      );
      expect(rows.map((r) => r.id)).toEqual(expected.rows.map((r) => r.reference.id));
      expect(rows.map((r) => r.published)).toEqual([0.43, 0.382, 0.34, 0.452, 0.03]);
      for (const [i, row] of rows.entries()) {
        expect(row.run).toBe(expected.rows[i]?.run);
        expect([row.low, row.high]).toEqual(expected.rows[i]?.ci);
        expect(row.high).toBeGreaterThan(row.low); // exact intervals are never zero-width
        expect(row.verdict).toBe(expected.rows[i]?.verdict);
        expect(row.cell).toMatch(/^(consistent|inconsistent|too few sessions to tell|cannot tell)/);
        // The difference's interval beside the verdict, of positive width.
        expect([row.differenceLow, row.differenceHigh]).toEqual(expected.rows[i]?.differenceCi);
        expect(row.differenceHigh).toBeGreaterThan(row.differenceLow);
      }
      expect(await page.locator('figure[data-chart="references"] path.published').count()).toBe(5);

      // The outcome breakdown counts every ending, the failed sessions included.
      const outcomes = new Map(
        await page
          .locator('table[data-table="outcomes"] tbody tr')
          .evaluateAll((trs) =>
            trs.map(
              (tr) =>
                [
                  tr.getAttribute('data-reason'),
                  Number(tr.querySelector('td[data-sessions]')?.getAttribute('data-sessions')),
                ] as const,
            ),
          ),
      );
      const counts = new Map<string, number>();
      for (const s of llmLike) counts.set(s.outcome.reason, (counts.get(s.outcome.reason) ?? 0) + 1);
      expect(outcomes).toEqual(counts);
      expect(counts.get('error')).toBeGreaterThan(0);

      // Every bar has a whisker that brackets it.
      const bars = await page.locator('figure[data-chart="deal-rate-by-tier"] rect.bar').count();
      const whiskers = await page
        .locator('figure[data-chart="deal-rate-by-tier"] g.whisker')
        .evaluateAll((gs) =>
          gs.map((g) => [Number(g.getAttribute('data-low')), Number(g.getAttribute('data-high'))]),
        );
      expect(whiskers.length).toBe(bars);
      const tiers = byPriceTier(llmLike).filter((t) => t.dealRate !== null);
      tiers.forEach((tier, i) => {
        const [low, high] = whiskers[i] as [number, number];
        expect(low).toBeLessThanOrEqual(tier.dealRate as number);
        expect(high).toBeGreaterThanOrEqual(tier.dealRate as number);
      });
      expect(await page.locator('g.whisker').count()).toBeGreaterThan(20);

      // Transcripts: one per ending before any ending gets a second, each a readable dialogue.
      const shown = await page
        .locator('article.transcript')
        .evaluateAll((articles) => articles.map((a) => a.getAttribute('data-outcome')));
      expect(shown.length).toBe(6);
      expect(new Set(shown)).toEqual(new Set(counts.keys()));
      const failed = page.locator('article.transcript[data-outcome="error"]');
      expect(await failed.locator('.violation').textContent()).toContain('the model server went away');
      const first = page.locator('article.transcript').first();
      expect(await first.locator('li.turn').count()).toBeGreaterThan(0);
      expect(await first.locator('.outcome').textContent()).toMatch(/deal|no deal/);

      // The page uses its width: two charts side by side, and the cards and tables span the window.
      const boxes = await page
        .locator('.charts figure.chart')
        .evaluateAll((figures) =>
          figures
            .slice(0, 2)
            .map((f) => f.getBoundingClientRect().toJSON() as { x: number; y: number; width: number }),
        );
      expect(boxes[1]?.x).toBeGreaterThan((boxes[0]?.x ?? 0) + (boxes[0]?.width ?? 0) - 1);
      expect(Math.abs((boxes[0]?.y ?? 0) - (boxes[1]?.y ?? 1))).toBeLessThan(1);
      const tableWidth = await page
        .locator('table[data-table="references"]')
        .evaluate((t) => t.getBoundingClientRect().width);
      expect(tableWidth).toBeGreaterThan(1200);

      // Provenance in the run card.
      expect(await page.locator('[data-provenance] dd[data-field="Node"]').textContent()).toBe(
        process.version,
      );

      // The picture for docs/report.md: the page down to the metrics table (long, and plain text).
      const metricsTop = await page
        .locator('section[data-section="metrics"]')
        .evaluate(
          (section) =>
            section.getBoundingClientRect().top + (globalThis as unknown as { scrollY: number }).scrollY,
        );
      const shot = join(mkdtempSync(join(tmpdir(), 'haggle-report-shot-')), 'report.png');
      await page.screenshot({
        path: shot,
        fullPage: true,
        clip: { x: 0, y: 0, width: 1400, height: Math.round(metricsTop) },
      });
      expect(statSync(shot).size).toBeGreaterThan(20_000);
      const widths = await renderedTextWidths(page);
      expect(widths.phrase).toBeGreaterThan(40);
      expect(widths.wide).toBeGreaterThan(widths.narrow * 2);
      // HAGGLE_REPORT_SCREENSHOT=docs/report-screenshot.png refreshes the picture in docs/report.md.
      if (process.env.HAGGLE_REPORT_SCREENSHOT) copyFileSync(shot, process.env.HAGGLE_REPORT_SCREENSHOT);
      console.log(`report screenshot: ${shot}`);
    } finally {
      await context.close();
    }
  });
});
