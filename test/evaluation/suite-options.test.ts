import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  generateSuite,
  loadSuite,
  runTournament,
  saveSuite,
  UtilityTitForTatNegotiator,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';
import { InvalidInputError } from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-suite-options-'));

describe('suite options', () => {
  it('the defaults draw the suites they always drew: the same ids, and no protocol fields written', () => {
    // The id `haggle suite --seed 2026` printed before the options existed (issue 16 quotes its prefix).
    const suite = generateSuite({ seed: 2026 });
    expect(suite.id).toBe('3e2fb605cd57a09e2f5f32124ca5fd6e24ba35412d8571624472648fba756c77');
    const explicit = generateSuite({
      seed: 2026,
      firstMover: 'seller',
      maxRounds: 10,
      issues: ['shipping_speed', 'warranty', 'returns', 'delivery_days', 'quantity'],
      extraIssueWeights: [1, 3, 3, 2],
      priceSteps: 21,
      reservation: { seller: [0.2, 0.45], buyer: [0.2, 0.45] },
    });
    expect(explicit.id).toBe(suite.id);
    expect(Object.keys(suite)).not.toContain('firstMover');
    expect(Object.keys(suite)).not.toContain('maxRounds');
  });

  it('who moves first and the round limit enter the suite and its id', () => {
    const base = generateSuite({ seed: 1, scenarios: 2, seedsPerPair: 1 });
    const buyerFirst = generateSuite({ seed: 1, scenarios: 2, seedsPerPair: 1, firstMover: 'buyer' });
    const longer = generateSuite({ seed: 1, scenarios: 2, seedsPerPair: 1, maxRounds: 12 });
    expect(buyerFirst.firstMover).toBe('buyer');
    expect(longer.maxRounds).toBe(12);
    expect(new Set([base.id, buyerFirst.id, longer.id]).size).toBe(3);
    expect(buyerFirst.scenarios).toEqual(base.scenarios); // the protocol does not change what is drawn
    const path = join(tmp(), 'suite.json');
    saveSuite(path, buyerFirst);
    expect(loadSuite(path)).toEqual(buyerFirst);
  });

  it('issue space and reservation ranges shape the scenarios (and so the id)', () => {
    const priceOnly = generateSuite({ seed: 2, scenarios: 6, issues: [] });
    expect(priceOnly.scenarios.every((s) => s.space.issues.length === 1)).toBe(true);
    const warranty = generateSuite({
      seed: 2,
      scenarios: 12,
      issues: ['warranty'],
      extraIssueWeights: [0, 1],
    });
    expect(
      warranty.scenarios.every((s) => s.space.issues.map((i) => i.name).join() === 'price,warranty'),
    ).toBe(true);
    const coarse = generateSuite({ seed: 2, scenarios: 3, priceSteps: 5 });
    expect(
      coarse.scenarios.every((s) => s.space.issues[0]?.kind === 'price' && s.space.issues[0].steps === 5),
    ).toBe(true);
    const tough = generateSuite({
      seed: 2,
      scenarios: 12,
      reservation: { seller: [0.5, 0.6], buyer: [0.1, 0.15] },
    });
    for (const s of tough.scenarios) {
      expect(s.seller.reservation).toBeGreaterThanOrEqual(0.5);
      expect(s.seller.reservation).toBeLessThanOrEqual(0.6);
      expect(s.buyer.reservation).toBeLessThanOrEqual(0.15);
    }
    expect(new Set([priceOnly.id, warranty.id, coarse.id, tough.id]).size).toBe(4);
  });

  it('refuses options it cannot honour, saying what to fix', () => {
    expect(() => generateSuite({ issues: ['colour'] })).toThrow(/unknown colour; choose from shipping_speed/);
    expect(() => generateSuite({ issues: ['warranty'], extraIssueWeights: [1, 1, 1] })).toThrow(
      /needs 1 to 2 weights/,
    );
    expect(() => generateSuite({ reservation: { seller: [0.6, 0.2] } })).toThrow(InvalidInputError);
    expect(() => generateSuite({ maxRounds: 0 })).toThrow(/maxRounds/);
    // Both sides asking for nearly everything: no zone of agreement can be drawn.
    expect(() =>
      generateSuite({ scenarios: 1, issues: [], reservation: { seller: [0.97, 0.99], buyer: [0.97, 0.99] } }),
    ).toThrow(/zone of agreement .* lower the reservation ranges/);
  });

  it('a tournament plays the suite protocol: the buyer opens, at most the suite round limit', async () => {
    const suite = generateSuite({
      seed: 3,
      scenarios: 2,
      seedsPerPair: 2,
      firstMover: 'buyer',
      maxRounds: 3,
    });
    const opponents = {
      'utility-conceder': utilityConceder(),
      'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
    };
    const results = await runTournament({ suite, arms: { linear: utilityLinear() }, opponents }).done();
    expect(results.matches.every((m) => m.result.turns[0]?.role === 'buyer')).toBe(true);
    expect(Math.max(...results.matches.map((m) => m.result.rounds))).toBeLessThanOrEqual(3);
    expect(results.header?.config).toMatchObject({ maxRounds: 3, firstMover: 'buyer' });
    expect(() =>
      runTournament({ suite, arms: { linear: utilityLinear() }, opponents, maxRounds: 5 }),
    ).toThrow(/the suite fixes 3 turns/);
  });

  it('haggle suite flags give the suite generateSuite gives with the same options', async () => {
    const out = join(tmp(), 'suite.json');
    const io = captureIo();
    const args = ['suite', '--out', out, '--seed', '2026', '--scenarios', '4', '--first-mover', 'buyer'];
    const more = ['--max-rounds', '12', '--issues', 'warranty,returns', '--extra-issue-weights', '1,2,1'];
    const ranges = [
      '--price-steps',
      '11',
      '--seller-reservation',
      '0.25,0.4',
      '--buyer-reservation',
      '0.1,0.3',
    ];
    expect(await runCli([...args, ...more, ...ranges], io)).toBe(0);
    const inCode = generateSuite({
      seed: 2026,
      scenarios: 4,
      firstMover: 'buyer',
      maxRounds: 12,
      issues: ['warranty', 'returns'],
      extraIssueWeights: [1, 2, 1],
      priceSteps: 11,
      reservation: { seller: [0.25, 0.4], buyer: [0.1, 0.3] },
    });
    expect(JSON.parse(readFileSync(out, 'utf8')).id).toBe(inCode.id);
    expect(io.out()).toContain(inCode.id);
    const priceOnly = join(tmp(), 'p.json');
    expect(
      await runCli(['suite', '--out', priceOnly, '--scenarios', '2', '--issues', 'none'], captureIo()),
    ).toBe(0);
    expect(loadSuite(priceOnly).id).toBe(generateSuite({ scenarios: 2, issues: [] }).id);
  });

  it.each([
    [['--seller-reservation', '0.3'], /--seller-reservation 0.3: write LOW,HIGH/],
    [['--issues', 'colour'], /unknown colour/],
    [['--first-mover', 'both'], /first-mover/],
  ])('bad flags %j exit 2', async (flags, message) => {
    const io = captureIo();
    expect(await runCli(['suite', '--out', join(tmp(), 's.json'), ...flags], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});
