import { describe, expect, it } from 'vitest';
import { bootstrapCi, compare } from '../../src/entries/metrics.js';
import { InvalidInputError, type SessionResult } from '../../src/index.js';
import { Random } from '../../src/internal/random.js';

/** A minimal session: one buyer offer, then accept (a deal) or decline. */
function session(index: number, deal: boolean): SessionResult {
  const offer = { action: 'offer' as const, price: 80, message_labels: [], message: '', response_time: 1 };
  const answer = {
    action: deal ? ('accept' as const) : ('decline' as const),
    price: null,
    message_labels: [],
    message: '',
    response_time: 1,
  };
  return {
    sessionId: `s${index}`,
    seed: index,
    context: { item: { title: 'Item' }, listPrice: 100, currency: 'USD' },
    turns: [
      { role: 'buyer', turn: offer, elapsedHours: 1 },
      { role: 'seller', turn: answer, elapsedHours: 2 },
    ],
    outcome: {
      status: deal ? 'deal' : 'no-deal',
      reason: deal ? 'accepted' : 'declined',
      price: deal ? 80 : null,
      turns: 2,
      elapsedHours: 2,
    },
    negotiators: { buyer: { kind: 'test' }, seller: { kind: 'test' } },
    rules: {},
  };
}

function bernoulliRun(random: Random, n: number, p: number): SessionResult[] {
  return Array.from({ length: n }, (_, i) => session(i, random.bernoulli(p)));
}

describe('bootstrap intervals against known distributions', () => {
  it('the interval of a normal mean matches mean ± 1.96 σ/√n', () => {
    const random = new Random(42);
    const values = Array.from({ length: 400 }, () => random.normal(10, 2));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
    const halfWidth = (1.96 * sd) / Math.sqrt(values.length); // about 0.196
    const { value, ci } = bootstrapCi(
      values.map((v) => [v, 1] as const),
      { resamples: 4000, seed: 7 },
    );
    expect(value).toBeCloseTo(mean, 12);
    if (!ci) throw new Error('no interval');
    expect(ci[0]).toBeGreaterThan(mean - halfWidth * 1.1);
    expect(ci[0]).toBeLessThan(mean - halfWidth * 0.9);
    expect(ci[1]).toBeGreaterThan(mean + halfWidth * 0.9);
    expect(ci[1]).toBeLessThan(mean + halfWidth * 1.1);
  });

  it('95% intervals of a deal rate cover the true rate in about 95% of samples', () => {
    const random = new Random(5);
    const trials = 300;
    let covered = 0;
    for (let t = 0; t < trials; t++) {
      const deals = Array.from({ length: 120 }, () => (random.bernoulli(0.4) ? 1 : 0));
      const { ci } = bootstrapCi(
        deals.map((d) => [d, 1] as const),
        { resamples: 400, seed: t },
      );
      if (ci && ci[0] <= 0.4 && 0.4 <= ci[1]) covered++;
    }
    // Binomial(300, 0.95) lies in this band with probability above 0.999; the percentile bootstrap
    // at n = 120 runs a little below nominal, hence the lower edge.
    expect(covered / trials).toBeGreaterThan(0.9);
    expect(covered / trials).toBeLessThan(0.99);
  });

  it("compare's delta interval for two deal rates (exact pieces, Newcombe) matches the normal approximation at n = 1000", () => {
    const random = new Random(11);
    const run = bernoulliRun(random, 1000, 0.4);
    const reference = bernoulliRun(random, 1000, 0.3);
    const row = compare(run, reference, { resamples: 2000, seed: 2 }).rows.find((r) => r.id === 'deal-rate');
    if (!row?.ci || row.delta === null || row.run === null || row.reference === null)
      throw new Error('no row');
    const p1 = row.run;
    const p2 = row.reference;
    const halfWidth = 1.96 * Math.sqrt((p1 * (1 - p1)) / 1000 + (p2 * (1 - p2)) / 1000); // about 0.042
    expect(row.delta).toBeCloseTo(p1 - p2, 12);
    expect(row.ci[1] - row.ci[0]).toBeGreaterThan(2 * halfWidth * 0.9);
    expect(row.ci[1] - row.ci[0]).toBeLessThan(2 * halfWidth * 1.1);
    expect((row.ci[0] + row.ci[1]) / 2).toBeCloseTo(row.delta, 2);
    // A true difference of 0.1 is far outside the noise: the interval excludes 0.
    expect(row.ci[0]).toBeGreaterThan(0);
  });

  it('is seeded: the same seed repeats, another seed differs; bad options are refused', () => {
    const random = new Random(1);
    const pairs = Array.from({ length: 50 }, () => [random.next(), 1] as const);
    expect(bootstrapCi(pairs, { seed: 3 })).toEqual(bootstrapCi(pairs, { seed: 3 }));
    expect(bootstrapCi(pairs, { seed: 3 }).ci).not.toEqual(bootstrapCi(pairs, { seed: 4 }).ci);
    expect(() => bootstrapCi(pairs, { resamples: 1 })).toThrow(InvalidInputError);
    expect(() => bootstrapCi(pairs, { level: 1 })).toThrow(/level/);
    expect(bootstrapCi([])).toEqual({ value: null, ci: null });
  });
});
