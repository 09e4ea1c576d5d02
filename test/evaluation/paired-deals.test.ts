import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { pairedProportionInterval } from '../../src/entries/metrics.js';
import {
  compareArms,
  generateSuite,
  loadTournament,
  pairedComparison,
  runTournament,
  tabulateTournament,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';
import { Random } from '../../src/internal/random.js';
import { captureIo } from '../helpers/capture-io.js';

// Two arms that both reach a deal in every one of their 16 negotiations with a conceding buyer.
async function allDeals(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'haggle-paired-deals-')), 't.jsonl');
  const result = await runTournament({
    suite: generateSuite({ seed: 3, scenarios: 8, seedsPerPair: 2, opponents: ['utility-conceder'] }),
    arms: { conceder: utilityConceder(), linear: utilityLinear() },
    opponents: { 'utility-conceder': utilityConceder() },
    out,
  }).done();
  for (const arm of ['conceder', 'linear']) {
    const played = result.matches.filter((m) => m.arm === arm);
    expect(played).toHaveLength(16);
    expect(played.every((m) => m.metrics.deal)).toBe(true);
  }
  return out;
}

describe("paired deal rates: Tango's score interval", () => {
  it('keeps its width when every pair agrees: ±z²/(n + z²), 16 pairs give ±0.194', () => {
    const z2 = 1.959963984540054 ** 2;
    const [low, high] = pairedProportionInterval(0, 0, 16);
    expect(high).toBeCloseTo(z2 / (16 + z2), 9);
    expect(low).toBeCloseTo(-z2 / (16 + z2), 9);
    // All pairs discordant one way: the interval ends at 1 and still has width.
    const [l16, h16] = pairedProportionInterval(16, 0, 16);
    expect(h16).toBe(1);
    expect(l16).toBeGreaterThan(0.5);
    expect(l16).toBeLessThan(1);
    // Symmetric in the two arms, and the estimate lies inside.
    const [a, b] = pairedProportionInterval(5, 2, 50);
    const [c, d] = pairedProportionInterval(2, 5, 50);
    expect(a).toBeCloseTo(-d, 12);
    expect(b).toBeCloseTo(-c, 12);
    expect(a).toBeLessThan(3 / 50);
    expect(b).toBeGreaterThan(3 / 50);
    expect(() => pairedProportionInterval(10, 10, 16)).toThrow(RangeError);
  });

  it('covers the true paired difference in about 95% of samples', () => {
    const random = new Random(42);
    // P(A only) = 0.15, P(B only) = 0.05: the true difference is 0.10; 40 pairs a sample.
    let covered = 0;
    const samples = 2000;
    for (let s = 0; s < samples; s++) {
      let onlyA = 0;
      let onlyB = 0;
      for (let i = 0; i < 40; i++) {
        const u = random.next();
        if (u < 0.15) onlyA++;
        else if (u < 0.2) onlyB++;
      }
      const [low, high] = pairedProportionInterval(onlyA, onlyB, 40);
      if (low <= 0.1 && 0.1 <= high) covered++;
    }
    expect(covered / samples).toBeGreaterThan(0.93);
    expect(covered / samples).toBeLessThan(0.99);
  });

  it('two arms that deal 16 of 16: compareArms and `haggle analyse --metrics deal` give a difference of positive width', async () => {
    const file = await allDeals();
    const io = captureIo();
    expect(await runCli(['analyse', file, '--metrics', 'deal', '--json'], io)).toBe(0);
    const analysis = JSON.parse(io.out());
    expect(analysis.comparisons.length).toBeGreaterThan(0);
    for (const row of analysis.comparisons) {
      expect(row.difference.mean).toBe(0);
      expect(row.difference.low).toBeCloseTo(-0.1936, 4);
      expect(row.difference.high).toBeCloseTo(0.1936, 4);
    }
    const text = captureIo();
    expect(await runCli(['analyse', file, '--metrics', 'deal'], text)).toBe(0);
    expect(text.out()).not.toMatch(/\[0\.000, 0\.000\]|\[0\.0000, 0\.0000\]/);

    const results = tabulateTournament([...loadTournament(file).records]);
    const deals = compareArms(results, 'conceder', 'linear', 'deal');
    expect(deals.difference.high - deals.difference.low).toBeGreaterThan(0.3);
    expect(deals.verdict).toMatch(/95% CI \[-0\.1936, 0\.1936\]/);
    // pairedComparison on 0/1 outcomes says the same when told they are binary.
    const ones = Array.from({ length: 16 }, () => 1);
    expect(pairedComparison(ones, ones, { outcomes: 'binary' }).difference.high).toBeCloseTo(0.1936, 4);
  });
});
