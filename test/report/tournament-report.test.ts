import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';
import { launchChromium } from './browser.js';

describe('haggle report on tournament results', () => {
  it('writes a tournament page whose table and bars hold the scores, and it renders in Chromium', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-tournament-report-'));
    const suite = join(dir, 'suite.json');
    const matches = join(dir, 'matches.jsonl');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '4', '--seeds-per-pair', '3'], captureIo()),
    ).toBe(0);
    const evaluate = captureIo();
    const args = [
      'evaluate',
      '--suite',
      suite,
      '--arm',
      'utility-boulware',
      '--arm',
      'utility-linear',
      '--out',
      matches,
      '--json',
    ];
    expect(await runCli(args, evaluate)).toBe(0);
    const scores = JSON.parse(evaluate.out()).scores as {
      arm: string;
      opponent: string;
      armUtility: { mean: number };
    }[];

    const io = captureIo();
    expect(await runCli(['report', matches], io)).toBe(0);
    expect(io.out()).toMatch(/matches\.html \(48 tournament matches\)/);
    const html = readFileSync(join(dir, 'matches.html'), 'utf8');
    expect(html).toContain('utility-boulware vs utility-linear, arm utility:');
    // The tournament file's header says what produced it, and the page shows it.
    const header = JSON.parse(readFileSync(matches, 'utf8').split('\n')[0] as string);
    expect(header.provenance).toMatchObject({ node: process.version, platform: process.platform });
    expect(html).toContain(`<dd data-field="Node">${process.version}</dd>`);
    expect(html).toContain('data-negotiator="arm utility-boulware"');

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(join(dir, 'matches.html')).href);
      const rows = await page.$$eval('table[data-table="tournament"] tbody tr', (trs) =>
        trs.map((tr) => [
          tr.getAttribute('data-arm'),
          tr.getAttribute('data-opponent'),
          Number(tr.getAttribute('data-arm-utility')),
        ]),
      );
      expect(rows).toEqual(scores.map((s) => [s.arm, s.opponent, s.armUtility.mean]));
      const bars = await page.$$eval('figure[data-chart="arm-utility"] rect.bar', (rects) =>
        rects.map((r) => Number(r.getAttribute('data-value'))),
      );
      expect(bars.sort()).toEqual(scores.map((s) => s.armUtility.mean).sort());
      await page.screenshot({
        path: process.env.HAGGLE_SCREENSHOT ?? join(dir, 'tournament.png'),
        fullPage: true,
      });
      expect(requests).toEqual([pathToFileURL(join(dir, 'matches.html')).href]);
    } finally {
      await browser.close();
    }
  });
});
