import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  compare,
  computeMetrics,
  formatComparison,
  proportionDifferenceInterval,
} from '../../src/entries/metrics.js';
import { loadSessions, type SessionResult } from '../../src/index.js';
import { Random } from '../../src/internal/random.js';
import { chartIntervals } from '../../src/report/chart-intervals.js';
import { labelKey } from '../../src/simulation/metrics/session-facts.js';
import { priceTier } from '../../src/simulation/synthetic-contexts.js';
import { captureIo } from '../helpers/capture-io.js';
import { writeCountedRun } from '../helpers/counted-run.js';

// Reference values from scipy 1.17: each side's stats.binomtest(k, n).proportion_ci(method='exact')
// combined by Newcombe's square-and-add, and stats.fisher_exact, computed outside this repository.

function countedRun(sessions: number, deals: number, messages = 0): SessionResult[] {
  const file = join(mkdtempSync(join(tmpdir(), 'haggle-exact-')), 'run.jsonl');
  writeCountedRun(file, { sessions, deals, messages });
  return loadSessions(file);
}

describe('exact intervals for proportions in the metrics table', () => {
  it('19 of 19 sessions with a message: [82.4%, 100%], not the zero-width [100%, 100%] of a bootstrap', () => {
    const estimates = computeMetrics(countedRun(19, 3, 19), { resamples: 200, seed: 1 });
    const share = estimates.find((m) => m.id === 'message-session-rate');
    expect(share).toMatchObject({ value: 1, n: 19, interval: 'clopper-pearson' });
    expect(share?.ci?.[0]).toBeCloseTo(0.823533088, 8);
    expect(share?.ci?.[1]).toBe(1);
    const deals = estimates.find((m) => m.id === 'deal-rate');
    expect(deals?.ci?.[0]).toBeCloseTo(0.033826249, 8);
    expect(deals?.ci?.[1]).toBeCloseTo(0.395784551, 8);
    // Means keep the bootstrap: no closed form fits them.
    expect(estimates.find((m) => m.id === 'session-length/mean')?.interval).toBe('bootstrap');
    // Every share of sessions is exact and of non-zero width.
    for (const m of estimates.filter((e) => e.unit === 'share' && e.ci !== null)) {
      expect(m.interval).toBe('clopper-pearson');
      expect((m.ci as [number, number])[1] - (m.ci as [number, number])[0]).toBeGreaterThan(0);
    }
  });
});

describe("the report's charts of shares draw the same exact intervals", () => {
  it('a tier of 19 sessions, all deals, gets [82.4%, 100%] as its whisker; M7 (a mean) keeps the bootstrap', () => {
    const sessions = countedRun(19, 19, 19);
    const tierOf = priceTier(100); // the counted sessions' list price
    const intervals = chartIntervals(
      sessions,
      { bins: [], lengths: [2], tiers: [tierOf], labels: [{ role: 'buyer', label: 'build_rapport' }] },
      { resamples: 200, seed: 1 },
    );
    const tier = intervals.tiers.get(tierOf);
    expect(tier?.[0]).toBeCloseTo(0.823533088, 8);
    expect(tier?.[1]).toBe(1);
    expect(intervals.sessionLength.get(2)?.[0]).toBeCloseTo(0.823533088, 8);
    expect(intervals.labelDealRate.get(labelKey('buyer', 'build_rapport'))?.[0]).toBeCloseTo(0.823533088, 8);
  });
});

describe('run against run: exact pieces and Fisher for proportions', () => {
  it('the delta interval of two shares is Newcombe’s on Clopper-Pearson, matching scipy', () => {
    const [low, high] = proportionDifferenceInterval(3, 19, 7, 19);
    expect(low).toBeCloseTo(-0.487830296, 8);
    expect(high).toBeCloseTo(0.103856054, 8);
    const [same0, same1] = proportionDifferenceInterval(19, 19, 19, 19);
    expect(same0).toBeCloseTo(-0.176466912, 8);
    expect(same1).toBeCloseTo(0.176466912, 8);
    const [big0, big1] = proportionDifferenceInterval(400, 1000, 300, 1000);
    expect(big0).toBeCloseTo(0.057572023, 8);
    expect(big1).toBeCloseTo(0.142050525, 8);
  });

  it('covers the true difference in at least 95% of samples (it is conservative)', () => {
    const random = new Random(17);
    let covered = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const a = Array.from({ length: 30 }, () => random.bernoulli(0.2)).filter(Boolean).length;
      const b = Array.from({ length: 40 }, () => random.bernoulli(0.35)).filter(Boolean).length;
      const [low, high] = proportionDifferenceInterval(a, 30, b, 40);
      if (low <= -0.15 && -0.15 <= high) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.94);
  });

  it('compare gives the deal-rate row its exact interval and Fisher’s p; a mean keeps the bootstrap', () => {
    const comparison = compare(countedRun(19, 3), countedRun(19, 7), { resamples: 200, seed: 1 });
    const row = comparison.rows.find((r) => r.id === 'deal-rate');
    expect(row).toMatchObject({ interval: 'newcombe-clopper-pearson' });
    expect(row?.ci?.[0]).toBeCloseTo(-0.487830296, 8);
    expect(row?.ci?.[1]).toBeCloseTo(0.103856054, 8);
    expect(row?.pValue).toBeCloseTo(0.269065, 6);
    const mean = comparison.rows.find((r) => r.id === 'session-length/mean');
    expect(mean).toMatchObject({ interval: 'bootstrap', pValue: null });
    // 19 of 19 against 19 of 19: an interval of non-zero width around 0, and p = 1.
    const all = compare(countedRun(19, 19, 19), countedRun(19, 19, 19)).rows.find(
      (r) => r.id === 'message-session-rate',
    );
    expect(all?.ci?.[0]).toBeCloseTo(-0.176466912, 8);
    expect(all?.pValue).toBe(1);
    const text = formatComparison(comparison);
    expect(text.split('\n')[0]).toMatch(/^metric\s+source\s+model\s+delta\s+95% CI\s+Fisher p\s+verdict$/);
    // 3 of 19 against 7 of 19: the interval reaches 0 and far past ±2.5 pp, and the reference run's
    // own 19 sessions are wider than the margin, so no size of the run could tell.
    expect(row).toMatchObject({ verdict: 'cannot-tell', margin: 0.025, needed: null });
    expect(text).toMatch(
      /^deal rate\s+36\.8%\s+15\.8%\s+−21\.1 pp\s+\[−48\.8, \+10\.4\] pp\s+0\.269\s+cannot tell: the reference run alone is wider than ±2\.5 pp$/m,
    );
    expect(text).toMatch(/Shares: exact intervals \(Clopper-Pearson per side/);
  });

  it('haggle compare RUN -r RUN --json carries the p-value and the interval method', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-exact-cli-'));
    writeCountedRun(join(dir, 'a.jsonl'), { sessions: 1000, deals: 400 });
    writeCountedRun(join(dir, 'b.jsonl'), { sessions: 1000, deals: 300 });
    const io = captureIo();
    expect(await runCli(['compare', join(dir, 'a.jsonl'), '-r', join(dir, 'b.jsonl'), '--json'], io)).toBe(0);
    const row = JSON.parse(io.out()).rows.find((r: { id: string }) => r.id === 'deal-rate');
    expect(row.interval).toBe('newcombe-clopper-pearson');
    expect(row.pValue).toBeCloseTo(0.000003372, 8);
    expect(row.ci[0]).toBeCloseTo(0.057572023, 8);
  });
});
