import { describe, expect, it } from 'vitest';
import { clopperPearson } from '../../src/entries/metrics.js';
import {
  generateSuite,
  proportionEstimate,
  runTournament,
  UtilityTitForTatNegotiator,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';

// A deal rate is a proportion of matches: its interval is the exact one, as in the metrics table.
describe("a tournament's deal rate has its exact interval", () => {
  it('proportionEstimate: 16 deals of 16 is [79.4%, 100%], not the zero-width [1, 1] of a bootstrap', () => {
    const estimate = proportionEstimate(Array.from({ length: 16 }, () => true));
    expect(estimate.mean).toBe(1);
    expect(estimate.low).toBeCloseTo(0.025 ** (1 / 16), 10);
    expect(estimate.high).toBe(1);
    expect(Number.isNaN(proportionEstimate([]).mean)).toBe(true);
  });

  it("every score's deal rate is the Clopper-Pearson interval of its deals over its finished matches", async () => {
    const results = await runTournament({
      suite: generateSuite({ seed: 4, scenarios: 2, seedsPerPair: 2 }),
      arms: { linear: utilityLinear() },
      opponents: {
        'utility-conceder': utilityConceder(),
        'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
      },
      earlyStop: 0,
    }).done();
    expect(results.scores.length).toBeGreaterThan(0);
    for (const score of results.scores) {
      const played = results.matches.filter(
        (m) => m.arm === score.arm && (score.opponent === '*' || m.opponent === score.opponent),
      );
      const deals = played.filter((m) => m.metrics.deal).length;
      expect(score.dealRate.n).toBe(score.finished);
      expect([score.dealRate.low, score.dealRate.high]).toEqual(clopperPearson(deals, score.finished));
    }
  });
});
