import { describe, expect, it } from 'vitest';
import {
  bargainingReward,
  generateSuite,
  grpoGroups,
  runTournament,
  utilityLinear,
  utilityOf,
} from '../../src/evaluation/index.js';

const suite = generateSuite({ seed: 6, scenarios: 3, seedsPerPair: 4, opponents: ['x'] });
const scenario = suite.scenarios[0];
if (!scenario) throw new Error('no scenario');

describe('bargainingReward', () => {
  const agreement = Object.fromEntries(
    scenario.space.issues.map((i) => [i.name, i.kind === 'options' ? (i.options[0] as string) : i.min]),
  );
  const base = { turns: [], utilities: { buyer: 0, seller: 0 } };

  it('is the side utility of the agreement, discounted by its round', () => {
    const result = { ...base, agreement, reason: 'accepted' as const, rounds: 3 };
    expect(bargainingReward(scenario, result, 'seller')).toBeCloseTo(
      utilityOf(scenario.space, scenario.seller, agreement, 2),
      12,
    );
  });

  it('pays the reservation (or a chosen amount) without a deal, and -1 for an invalid turn', () => {
    const noDeal = { ...base, agreement: null, reason: 'deadline' as const, rounds: 10 };
    expect(bargainingReward(scenario, noDeal, 'buyer')).toBe(scenario.buyer.reservation);
    expect(bargainingReward(scenario, noDeal, 'buyer', { noDeal: 0 })).toBe(0);
    expect(bargainingReward(scenario, { ...noDeal, reason: 'invalid-turn' }, 'buyer')).toBe(-1);
  });

  it("is -1 for a side's own failure and void (null) when the other side broke the negotiation", () => {
    const broken = { ...base, agreement: null, rounds: 2 };
    for (const reason of ['invalid-turn', 'error'] as const) {
      expect(bargainingReward(scenario, { ...broken, reason, failedBy: 'buyer' }, 'buyer')).toBe(-1);
      // The seller did nothing wrong: a 503 of the buyer's backend says nothing about its policy.
      expect(bargainingReward(scenario, { ...broken, reason, failedBy: 'buyer' }, 'seller')).toBeNull();
    }
  });
});

describe('grpoGroups', () => {
  it("leaves out the matches an opponent broke: its failures are no rollout of the arm's policy", async () => {
    let calls = 0;
    const linear = utilityLinear();
    // Fails on every other match it opens: as a flaky backend of the opponent would.
    const flaky = {
      describe: () => ({ kind: 'flaky' }),
      predict: async (...args: Parameters<typeof linear.predict>) => {
        if (args[0].round <= 1 && calls++ % 2 === 0) throw new Error('HTTP 503 from the opponent backend');
        return linear.predict(...args);
      },
    };
    const results = await runTournament({
      suite,
      arms: { linear: utilityLinear() },
      opponents: { x: flaky },
      concurrency: 1,
      earlyStop: 0,
    }).done();
    const failed = results.matches.filter((m) => m.result.reason === 'error');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((m) => m.result.failedBy === 'buyer')).toBe(true);
    // The tournament agrees: void for the arm, counted apart, out of its scores.
    expect(results.void).toBe(failed.length);
    const pooled = results.scores.find((score) => score.opponent === '*');
    expect(pooled?.void).toBe(failed.length);
    expect(pooled?.errors).toBe(0);
    expect(pooled?.finished).toBe(results.matches.length - failed.length);
    const rollouts = grpoGroups(suite, results.matches).flatMap((g) => g.rollouts);
    expect(rollouts).toHaveLength(results.matches.length - failed.length);
    expect(rollouts.every((r) => r.reason !== 'error' && r.reward >= 0)).toBe(true);
  });

  it('groups the rollouts of one setting across seeds, with rewards and their mean', async () => {
    const results = await runTournament({
      suite,
      arms: { linear: utilityLinear() },
      opponents: { x: utilityLinear() },
    }).done();
    const groups = grpoGroups(suite, results.matches);
    expect(groups).toHaveLength(3);
    for (const group of groups) {
      expect(group.rollouts).toHaveLength(4);
      expect(new Set(group.rollouts.map((r) => r.seed)).size).toBe(4);
      const mean = group.rollouts.reduce((a, r) => a + r.reward, 0) / 4;
      expect(group.meanReward).toBeCloseTo(mean, 12);
      expect(group.groupId).toContain(group.scenarioId);
    }
  });
});

describe('void matches', () => {
  // An offer outside the issue space: an invalid turn of whoever makes it.
  const invalid = { action: 'offer' as const, offer: { 'no-such-issue': 1 }, message: '' };
  const breaks = { describe: () => ({ kind: 'breaks' }), predict: async () => invalid };

  it("an opponent's invalid turn is void for the arm; the arm's own invalid turn still costs it", async () => {
    const results = await runTournament({
      suite,
      arms: { linear: utilityLinear(), broken: breaks },
      opponents: { x: breaks },
      earlyStop: 0,
    }).done();
    const linear = results.matches.filter((m) => m.arm === 'linear');
    const broken = results.matches.filter((m) => m.arm === 'broken');
    // The seller (the arm) opens: a broken arm breaks the match first; against linear, the buyer does.
    expect(broken.every((m) => m.result.reason === 'invalid-turn' && m.result.failedBy === 'seller')).toBe(
      true,
    );
    expect(linear.every((m) => m.result.reason === 'invalid-turn' && m.result.failedBy === 'buyer')).toBe(
      true,
    );
    const pooled = (arm: string) => results.scores.find((s) => s.arm === arm && s.opponent === '*');
    expect(pooled('linear')).toMatchObject({ void: linear.length, finished: 0, errors: 0 });
    expect(pooled('broken')).toMatchObject({ void: 0, finished: broken.length });
    expect(grpoGroups(suite, linear)).toEqual([]);
    const own = grpoGroups(suite, broken).flatMap((g) => g.rollouts);
    expect(own).toHaveLength(broken.length);
    expect(own.every((r) => r.reward === -1)).toBe(true);
  });
});
