import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  analyseTournament,
  bootstrapDifferenceOfMeans,
  compareArmsByOpponent,
  differenceOfDifferences,
  gainContrast,
  generateSuite,
  holm,
  labelPermutationPValue,
  loadTournament,
  type MatchRecord,
  pairedUnits,
  runTournament,
  signFlipPValue,
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';
import { RunFileError } from '../../src/index.js';

/** A finished seller-side match with the given utilities; `deal` decides whether an agreement exists. */
function match(
  arm: string,
  opponent: string,
  scenario: number,
  armUtility: number,
  options: { opponentUtility?: number; deal?: boolean; rounds?: number; void?: boolean } = {},
): MatchRecord {
  const deal = options.deal ?? true;
  const opponentUtility = options.opponentUtility ?? 0.5;
  return {
    type: 'match',
    index: 0,
    arm,
    armRole: 'seller',
    opponent,
    scenarioId: `scenario-${scenario}`,
    seed: 100 + scenario,
    metrics: {
      deal,
      armUtility,
      opponentUtility,
      distanceToNash: deal ? 0.1 : null,
      distanceToPareto: deal ? 0.05 : null,
      armIrViolation: false,
      rounds: options.rounds ?? 4,
    },
    result: {
      agreement: deal ? { price: 10 } : null,
      reason: options.void ? 'invalid-turn' : deal ? 'accepted' : 'deadline',
      rounds: options.rounds ?? 4,
      utilities: { seller: armUtility, buyer: opponentUtility },
      turns: [],
      ...(options.void ? { failedBy: 'buyer' as const } : {}),
    },
  };
}

// The hand-computed example: a trained arm and its base on three negotiations against each of two
// buyers. Gains (trained - base), negotiation by negotiation:
//   gpt:    0.6-0.3 = 0.3,  0.5-0.4 = 0.1,  0.7-0.5 = 0.2   -> mean 0.2
//   claude: 0.4-0.4 = 0.0,  0.5-0.4 = 0.1,  0.3-0.4 = -0.1  -> mean 0.0
// Interaction (gain on gpt - gain on claude) = 0.2 - 0.0 = 0.2.
const trainedAndBase: MatchRecord[] = [
  match('base', 'gpt', 1, 0.3),
  match('base', 'gpt', 2, 0.4),
  match('base', 'gpt', 3, 0.5),
  match('base', 'claude', 1, 0.4),
  match('base', 'claude', 2, 0.4),
  match('base', 'claude', 3, 0.4),
  match('trained', 'gpt', 1, 0.6),
  match('trained', 'gpt', 2, 0.5),
  match('trained', 'gpt', 3, 0.7),
  match('trained', 'claude', 1, 0.4),
  match('trained', 'claude', 2, 0.5),
  match('trained', 'claude', 3, 0.3),
];

describe('Holm adjustment', () => {
  it('matches the step-down arithmetic by hand, in the input order', () => {
    // Sorted: 0.005 (4th), 0.01 (1st), 0.03 (3rd), 0.04 (2nd); m = 4.
    //   0.005 * 4 = 0.02
    //   0.01  * 3 = 0.03   (max with 0.02 -> 0.03)
    //   0.03  * 2 = 0.06   (-> 0.06)
    //   0.04  * 1 = 0.04   (running max keeps 0.06)
    const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted[0]).toBeCloseTo(0.03, 12);
    expect(adjusted[1]).toBeCloseTo(0.06, 12);
    expect(adjusted[2]).toBeCloseTo(0.06, 12);
    expect(adjusted[3]).toBeCloseTo(0.02, 12);
  });

  it('caps at 1, leaves NaN out of m, and refuses a p outside [0, 1]', () => {
    // m = 2 (the NaN does not count): 0.2 * 2 = 0.4, then 0.7 * 1 = 0.7.
    expect(holm([0.7, Number.NaN, 0.2])).toEqual([0.7, Number.NaN, 0.4]);
    expect(holm([0.6, 0.9])).toEqual([1, 1]); // 0.6 * 2 = 1.2 -> 1
    expect(holm([])).toEqual([]);
    expect(() => holm([1.5])).toThrow(RangeError);
  });
});

describe('permutation p-values', () => {
  it('sign flip, exhaustively: 2 of the 8 sign vectors of [1, 2, 3] reach |sum| >= 6', () => {
    // Sums of ±1 ±2 ±3: 6, 4, 2, 0, 0, -2, -4, -6; |sum| >= 6 for +++ and ---.
    expect(signFlipPValue([1, 2, 3])).toEqual({ pValue: 2 / 8, method: 'exact', permutations: 8 });
    // [0, 0.1, -0.1] sums to 0: every relabelling is as extreme.
    expect(signFlipPValue([0, 0.1, -0.1]).pValue).toBe(1);
  });

  it('label permutation, exhaustively: 2 of the 6 splits of [3, 4 | 1, 2] reach |difference| >= 2', () => {
    // Splits of {1,2,3,4} into two pairs, |mean A - mean B|: {3,4}:2, {1,2}:2, {1,3}:1, {2,4}:1, {1,4}:0, {2,3}:0.
    expect(labelPermutationPValue([3, 4], [1, 2])).toEqual({
      pValue: 2 / 6,
      method: 'exact',
      permutations: 6,
    });
  });

  it('Monte Carlo agrees with the exact value and repeats with its seed', () => {
    const options = { exactUpTo: 1, permutations: 20_000, seed: 9 };
    const sign = signFlipPValue([1, 2, 3], options);
    expect(sign.method).toBe('monte-carlo');
    expect(Math.abs(sign.pValue - 0.25)).toBeLessThan(0.02);
    expect(signFlipPValue([1, 2, 3], options)).toEqual(sign);
    const label = labelPermutationPValue([3, 4], [1, 2], options);
    expect(Math.abs(label.pValue - 1 / 3)).toBeLessThan(0.02);
  });
});

describe('arm x opponent interaction', () => {
  it('matches the hand-computed example: gains 0.2 and 0.0, interaction 0.2, exact p = 4/20', () => {
    const interaction = gainContrast(trainedAndBase, {
      kind: 'interaction',
      arm: 'trained',
      base: 'base',
      metric: 'armUtility',
      by: 'opponent',
      first: 'gpt',
      second: 'claude',
      firstOpponents: ['gpt'],
      secondOpponents: ['claude'],
    });
    expect(interaction.gainFirst.mean).toBeCloseTo(0.2, 12);
    expect(interaction.gainSecond.mean).toBeCloseTo(0, 12);
    expect(interaction.difference.mean).toBeCloseTo(0.2, 12);
    // Label permutation over the six gains {0.3, 0.1, 0.2 | 0, 0.1, -0.1} (sum 0.6): a split whose first
    // three sum to s has difference (2s - 0.6)/3, as extreme as 0.2 when s >= 0.6 or s <= 0. Of the
    // C(6,3) = 20 triples, four qualify: {0.3,0.1,0.2}, {0.3,0.2,0.1'}, {0.1,0,-0.1}, {0,0.1',-0.1}.
    expect(interaction.test).toBe('label-permutation');
    expect(interaction.method).toBe('exact');
    expect(interaction.pValue).toBeCloseTo(4 / 20, 12);
    expect(interaction.nFirst).toBe(3);
    expect(interaction.nSecond).toBe(3);
    expect(interaction.difference.low).toBeLessThanOrEqual(0.2);
    expect(interaction.difference.high).toBeGreaterThanOrEqual(0.2);
  });

  it('per-opponent paired comparisons: sign flip over the paired negotiations', () => {
    const rows = compareArmsByOpponent(trainedAndBase, 'trained', 'base', ['armUtility']);
    expect(rows.map((r) => r.opponent)).toEqual(['gpt', 'claude', '*']);
    const [gpt, claude, pooled] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    // gpt: gains 0.3, 0.1, 0.2 all positive: only +++ and --- reach |sum| 0.6 of 8 -> 0.25.
    expect(gpt.difference.mean).toBeCloseTo(0.2, 12);
    expect(gpt.pValue).toBeCloseTo(0.25, 12);
    expect(claude.pValue).toBe(1);
    expect(pooled.n).toBe(6);
    expect(pooled.difference.mean).toBeCloseTo(0.1, 12);
  });

  it('pairs only finished matches, and Pareto distance only where both arms dealt', () => {
    const records = [
      match('a', 'x', 1, 0.5),
      match('b', 'x', 1, 0.4),
      match('a', 'x', 2, 0.5, { void: true }), // void for a: no pair
      match('b', 'x', 2, 0.4),
      match('a', 'x', 3, 0.3, { deal: false }),
      match('b', 'x', 3, 0.4),
    ];
    expect(pairedUnits(records, 'a', 'b', 'armUtility').map((u) => u.key)).toEqual([
      'seller|x|scenario-1|101',
      'seller|x|scenario-3|103',
    ]);
    expect(pairedUnits(records, 'a', 'b', 'distanceToPareto')).toHaveLength(1);
    // Welfare is the sum of both sides' utilities: 0.5 + 0.5 against 0.4 + 0.5.
    expect(pairedUnits(records, 'a', 'b', 'welfare')[0]?.diff).toBeCloseTo(0.1, 12);
  });

  it('bootstrap intervals repeat with their seed and move with another', () => {
    const first = [0.3, 0.1, 0.2, 0.25, 0.05];
    const second = [0, 0.1, -0.1, 0.05];
    const a = bootstrapDifferenceOfMeans(first, second, { seed: 5 });
    expect(bootstrapDifferenceOfMeans(first, second, { seed: 5 })).toEqual(a);
    expect(bootstrapDifferenceOfMeans(first, second, { seed: 6 })).not.toEqual(a);
    expect(differenceOfDifferences(first, second, { seed: 5 }).difference).toEqual(a);
  });
});

describe('analyseTournament', () => {
  const header = {
    type: 'tournament' as const,
    format: 'haggle-tournament' as const,
    version: 1 as const,
    suiteId: 'x'.repeat(64),
    matches: trainedAndBase.length,
    config: {},
    labels: {
      arms: { trained: { base: 'base' } },
      opponents: {
        gpt: { family: 'gpt', trainingPool: true },
        claude: { family: 'claude', trainingPool: false },
      },
    },
  };

  it('reports comparisons, gains, the interaction and grouped gains, all Holm-adjusted together', () => {
    const analysis = analyseTournament({ header, records: trainedAndBase }, { metrics: ['armUtility'] });
    // base is the first arm: base - trained per gpt, claude and pooled.
    expect(analysis.comparisons.map((c) => [c.armA, c.armB, c.opponent])).toEqual([
      ['base', 'trained', 'gpt'],
      ['base', 'trained', 'claude'],
      ['base', 'trained', '*'],
    ]);
    expect(analysis.gains.map((g) => g.opponent)).toEqual(['gpt', 'claude', '*']);
    expect(analysis.interactions).toHaveLength(1);
    expect(analysis.interactions[0]?.pValue).toBeCloseTo(0.2, 12);
    // The preprint's contrast: gain on the opponents in the training pool's family minus the others.
    const pool = analysis.groups.find((g) => g.by === 'trainingPool');
    expect(pool?.contrasts[0]).toMatchObject({ first: 'trainingPool=true', second: 'trainingPool=false' });
    expect(pool?.contrasts[0]?.difference.mean).toBeCloseTo(0.2, 12);
    expect(analysis.groups.map((g) => g.by)).toEqual(['trainingPool', 'family']);
    const all = [
      ...analysis.comparisons,
      ...analysis.gains,
      ...analysis.interactions,
      ...analysis.groups.flatMap((g) => [...g.gains, ...g.contrasts]),
    ];
    // 13 rows but 4 distinct tests: base - trained is the gain turned round, a group of one opponent
    // is that opponent, and the group contrasts are the interaction. Their p-values:
    //   gain on gpt:    0.25 (above)
    //   gain on claude: 1    (above)
    //   pooled gain:    diffs (tenths) 3, 1, 2, 0, 1, -1; the 0 doubles every count, so take the 32 sign
    //                   vectors of 3, 1, 2, 1, 1 (total 8, and -1 is 1 flipped): |sum| = |8 - 2 x flipped|
    //                   >= 6 when the flipped part sums to <= 1 (none, or one of the three 1s: 4) or >= 7
    //                   (the mirror images: 4), so 8 of 32 = 0.25
    //   interaction:    0.2 (above)
    // Holm over m = 4: 0.2 x 4 = 0.8; 0.25 x 3 = 0.75 -> 0.8; 0.25 x 2 = 0.5 -> 0.8; 1 x 1 = 1.
    expect(analysis.tests).toBe(4);
    expect(all).toHaveLength(13);
    const gain = (opponent: string) => analysis.gains.find((g) => g.opponent === opponent);
    expect(gain('*')?.pValue).toBeCloseTo(0.25, 12);
    expect(analysis.interactions[0]?.pAdjusted).toBeCloseTo(0.8, 12);
    expect(gain('gpt')?.pAdjusted).toBeCloseTo(0.8, 12);
    expect(gain('*')?.pAdjusted).toBeCloseTo(0.8, 12);
    expect(gain('claude')?.pAdjusted).toBe(1);
    // A row that repeats a test has its numbers (turned round where A and B are) and its adjusted p.
    const comparison = analysis.comparisons.find((c) => c.opponent === 'gpt');
    expect(comparison?.difference.mean).toBeCloseTo(-0.2, 12);
    expect(comparison?.difference.low).toBeCloseTo(-(gain('gpt')?.difference.high as number), 12);
    expect(comparison?.pAdjusted).toBe(gain('gpt')?.pAdjusted);
    expect(pool?.contrasts[0]?.difference).toEqual(analysis.interactions[0]?.difference);
    // Scores carry welfare, Pareto distance and rounds.
    const pooled = analysis.scores.find((s) => s.arm === 'trained' && s.opponent === '*');
    expect(pooled?.welfare.mean).toBeCloseTo(0.5 + 1 / 2, 12); // mean arm utility 0.5 + opponent 0.5
    expect(pooled?.rounds.mean).toBe(4);
    expect(pooled?.distanceToPareto.mean).toBeCloseTo(0.05, 12);
  });

  it('labels given to the analysis replace the header, and no base means no gains', () => {
    const analysis = analyseTournament({ records: trainedAndBase }, { metrics: ['deal'] });
    expect(analysis.gains).toEqual([]);
    expect(analysis.interactions).toEqual([]);
    const relabelled = analyseTournament(
      { records: trainedAndBase },
      { metrics: ['armUtility'], labels: { arms: { trained: { base: 'base' } } } },
    );
    expect(relabelled.gains).toHaveLength(3);
    expect(relabelled.groups).toEqual([]); // no opponent labels: nothing to group by
    expect(relabelled.warnings).toEqual([]);
    // A base that did not play is said, not silently skipped.
    const missing = analyseTournament(
      { records: trainedAndBase },
      { metrics: ['deal'], labels: { arms: { trained: { base: 'qwen3-0.6b' } } } },
    );
    expect(missing.gains).toEqual([]);
    expect(missing.warnings).toEqual([
      'arm trained names base qwen3-0.6b, which played no matches here: no gains over base for trained',
    ]);
  });

  it('repeats exactly with the same seed', () => {
    const options = { seed: 3, exactUpTo: 1, permutations: 500, resamples: 200 };
    expect(analyseTournament({ header, records: trainedAndBase }, options)).toEqual(
      analyseTournament({ header, records: trainedAndBase }, options),
    );
  });
});

describe('loadTournament', () => {
  it('reads a run file back: header with labels, matches, scores and the same analyses', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-load-tournament-')), 't.jsonl');
    const suite = generateSuite({ seed: 5, scenarios: 2, seedsPerPair: 2 });
    const labels = {
      arms: { linear: { base: 'boulware', family: 'baseline' } },
      opponents: {
        'utility-conceder': { trainingPool: true },
        'utility-tit-for-tat': { trainingPool: false },
      },
    };
    const results = await runTournament({
      suite,
      arms: { boulware: utilityBoulware(), linear: utilityLinear() },
      opponents: {
        'utility-conceder': utilityConceder(),
        'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
      },
      labels,
      out,
    }).done();
    const loaded = loadTournament(out);
    expect(loaded.header.labels).toEqual(labels);
    expect(loaded.header.suiteId).toBe(suite.id);
    expect(loaded.records).toEqual(results.matches);
    expect(loaded.results).toEqual(results);
    expect({ expected: loaded.expected, missing: loaded.missing }).toEqual({ expected: 16, missing: 0 });
    const options = { metrics: ['armUtility' as const], resamples: 200 };
    expect(analyseTournament(loaded, options)).toEqual(
      analyseTournament({ header: results.header, records: results.matches }, options),
    );
    expect(analyseTournament(loaded, options).gains).toHaveLength(3);
  });

  it('refuses a file without a tournament header', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'haggle-load-tournament-')), 'other.jsonl');
    writeFileSync(path, '{"type":"match","index":0}\n');
    expect(() => loadTournament(path)).toThrow(RunFileError);
    expect(() => loadTournament(path)).toThrow(/no tournament header/);
  });
});
