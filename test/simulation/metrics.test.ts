import { describe, expect, it } from 'vitest';
import {
  byCategory,
  byPriceTier,
  compare,
  computeMetrics,
  dealRate,
  labelEffects,
  type MetricEstimate,
  priceRatioHistogram,
  sessionLengthDistribution,
} from '../../src/entries/metrics.js';
import { loadSessions } from '../../src/index.js';

// Four hand-written sessions (see fixtures/small-real-sessions.jsonl), in the record format real
// sessions are loaded in. Every expected number below is worked out by hand in the comments.
const FIXTURE = new URL('./fixtures/small-real-sessions.jsonl', import.meta.url).pathname;
const sessions = loadSessions(FIXTURE);

function metric(estimates: MetricEstimate[], id: string): MetricEstimate {
  const found = estimates.find((m) => m.id === id);
  if (!found) throw new Error(`no metric ${id}`);
  return found;
}

describe('metrics on a small fixed JSONL, against hand-computed values', () => {
  const estimates = computeMetrics(sessions, { resamples: 200, seed: 1 });
  const value = (id: string) => metric(estimates, id).value;

  it('deal rate and session lengths', () => {
    // Deals in sessions 0, 2, 3 of 4.
    expect(dealRate(sessions)).toBe(0.75);
    expect(value('deal-rate')).toBe(0.75);
    // Turns 3, 2, 4, 4.
    expect(value('session-length/mean')).toBe(3.25);
    expect(value('session-length/2')).toBe(0.25);
    expect(value('session-length/3')).toBe(0.25);
    expect(value('session-length/4')).toBe(0.5);
    expect(value('session-length/5-6')).toBe(0);
    expect(sessionLengthDistribution(sessions).counts).toEqual([
      { turns: 1, sessions: 0, share: 0 },
      { turns: 2, sessions: 1, share: 0.25 },
      { turns: 3, sessions: 1, share: 0.25 },
      { turns: 4, sessions: 2, share: 0.5 },
    ]);
  });

  it('first-offer and final price over list price', () => {
    // First buyer offers: 14/20, 120/200, 50/80, 150/200 (session 3 opens with a message).
    expect(value('price/first-offer')).toBeCloseTo((0.7 + 0.6 + 0.625 + 0.75) / 4, 12);
    // Deals: 18/20, 62/80, 150/200.
    expect(value('price/final')).toBeCloseTo((0.9 + 0.775 + 0.75) / 3, 12);
    expect(metric(estimates, 'price/final').n).toBe(3);
    const histogram = priceRatioHistogram(sessions);
    expect(histogram.values).toBe(3);
    expect(histogram.bins).toHaveLength(20);
    expect(histogram.bins[15]).toEqual({ from: 0.75, to: 0.8, count: 2, share: 2 / 3 });
    expect(histogram.bins[18]).toEqual({ from: 0.9, to: 0.95, count: 1, share: 1 / 3 });
    expect(histogram.bins.reduce((sum, b) => sum + b.count, 0)).toBe(3);
    expect(
      priceRatioHistogram(sessions, { price: 'first-offer', binWidth: 0.25 }).bins.map((b) => b.count),
    ).toEqual([0, 0, 3, 1]);
  });

  it('response times', () => {
    // Gaps: [2,4,1], [1,2], [5,5,2,8], [1,2,1,2]: 36 hours over 13 turns.
    expect(value('response-time/mean')).toBeCloseTo(36 / 13, 12);
    expect(metric(estimates, 'response-time/mean').n).toBe(13);
    // The seller's first replies: 4, 2, 5, 2.
    expect(value('response-time/first-reply')).toBe(3.25);
    // Durations 7, 3, 20, 6.
    expect(value('response-time/duration')).toBe(9);
  });

  it('by price tier and by category', () => {
    expect(byPriceTier(sessions)).toEqual([
      { segment: 'under-25', sessions: 1, deals: 1, dealRate: 1, meanFinalPriceRatio: 0.9 },
      { segment: '25-100', sessions: 1, deals: 1, dealRate: 1, meanFinalPriceRatio: 0.775 },
      { segment: '100-500', sessions: 2, deals: 1, dealRate: 0.5, meanFinalPriceRatio: 0.75 },
      { segment: '500-plus', sessions: 0, deals: 0, dealRate: null, meanFinalPriceRatio: null },
    ]);
    expect(value('deal-rate/tier/100-500')).toBe(0.5);
    expect(value('deal-rate/tier/500-plus')).toBeNull();
    expect(metric(estimates, 'deal-rate/tier/500-plus').ci).toBeNull();
    expect(byCategory(sessions).map((r) => [r.segment, r.dealRate])).toEqual([
      ['(none)', 1],
      ['Books', 1],
      ['Electronics', 0.5],
    ]);
    expect(value('deal-rate/category/Electronics')).toBe(0.5);
  });

  it('M6 (deal rate given a label) and M7 (the opponent’s next concession after it)', () => {
    const effects = labelEffects(sessions);
    expect(effects.map((e) => `${e.role}:${e.label}`)).toEqual([
      'buyer:build_rapport',
      'buyer:invoke_compromise',
      'buyer:request_information',
      'seller:build_rapport',
      'seller:declare_cost_limit_seller_firm',
    ]);
    const [rapport, compromise, information, sellerRapport, firm] = effects;
    // build_rapport by the buyer in sessions 0 (deal) and 1 (no deal); without it: sessions 2, 3 (deals).
    // Answers: the seller counters 18 from its list price 20 (0.1 of list), then declines (0).
    expect(rapport).toEqual({
      role: 'buyer',
      label: 'build_rapport',
      sessions: 2,
      uses: 2,
      dealRate: 0.5,
      dealRateWithout: 1,
      answered: 2,
      meanOpponentConcession: 0.05,
    });
    // invoke_compromise twice in session 2 (list 80): the seller counters 70 from 80 (0.125), then
    // accepts the buyer's 62 from its own 70 (0.1).
    expect(compromise?.uses).toBe(2);
    expect(compromise?.meanOpponentConcession).toBeCloseTo(0.1125, 12);
    // A question answered by a message: no movement.
    expect(information?.meanOpponentConcession).toBe(0);
    // The seller's rapport is answered by the buyer's opening offer: nothing to concede from.
    expect(sellerRapport).toMatchObject({ dealRate: 1, answered: 0, meanOpponentConcession: null });
    // The firm seller at 70: the buyer moves from 50 to 62 (0.15 of list).
    expect(firm?.meanOpponentConcession).toBeCloseTo(0.15, 12);

    expect(value('m6/buyer/build_rapport')).toBe(0.5);
    expect(value('m7/buyer/build_rapport')).toBeCloseTo(0.05, 12);
    expect(value('m7/buyer/invoke_compromise')).toBeCloseTo(0.1125, 12);
    expect(metric(estimates, 'm7/buyer/invoke_compromise').n).toBe(2);
    expect(value('m7/seller/build_rapport')).toBeNull();
  });

  it('every interval holds its value, and the same seed gives the same intervals', () => {
    for (const m of estimates) {
      if (m.value === null || m.ci === null) continue;
      expect(m.ci[0]).toBeLessThanOrEqual(m.value + 1e-12);
      expect(m.ci[1]).toBeGreaterThanOrEqual(m.value - 1e-12);
    }
    expect(computeMetrics(sessions, { resamples: 200, seed: 1 })).toEqual(estimates);
  });

  it('compare lines up both runs metric by metric; a run against itself has delta 0', () => {
    const comparison = compare(sessions, sessions.slice(0, 2), { resamples: 100, seed: 3 });
    expect(comparison.labels).toEqual({ run: 'model', reference: 'source' });
    expect(comparison.sessions).toEqual({ run: 4, reference: 2 });
    const deal = comparison.rows.find((r) => r.id === 'deal-rate');
    // Reference: sessions 0 (deal) and 1 (no deal).
    expect(deal).toMatchObject({ reference: 0.5, run: 0.75, delta: 0.25, n: { run: 4, reference: 2 } });
    // Labels used only in the run still get a row, with nothing on the reference side.
    const firm = comparison.rows.find((r) => r.id === 'm6/seller/declare_cost_limit_seller_firm');
    expect(firm).toMatchObject({ reference: null, run: 1, delta: null, ci: null });
    const self = compare(sessions, sessions, { resamples: 100 });
    for (const row of self.rows) if (row.delta !== null) expect(row.delta).toBe(0);
  });
});
