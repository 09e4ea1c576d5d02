import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  checkOutcome,
  generateSuite,
  loadSuite,
  SuiteFileError,
  saveSuite,
  scenarioGeometry,
  scoreTrade,
  suiteMatches,
} from '../../src/evaluation/index.js';
import { InvalidInputError } from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';

describe('suites', () => {
  const suite = generateSuite({ seed: 3 });

  it('48 scenarios x 2 opponents x 12 seeds = 1,152 negotiations, each with a zone of agreement', () => {
    expect(suite.scenarios).toHaveLength(48);
    const matches = suiteMatches(suite);
    expect(matches).toHaveLength(1152);
    expect(new Set(matches.map((m) => m.seed)).size).toBe(1152);
    for (const scenario of suite.scenarios) expect(scenarioGeometry(scenario).nash).not.toBeNull();
    const issueCounts = new Set(suite.scenarios.map((s) => s.space.issues.length));
    expect(issueCounts.size).toBeGreaterThan(1); // single- and multi-issue scenarios both occur
  });

  it('the suite `haggle suite --seed 2026` writes is the one the docs and the example generate in code', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-suite-cli-')), 'suite.json');
    expect(await runCli(['suite', '--seed', '2026', '--out', out], captureIo())).toBe(0);
    const fromCli = JSON.parse(readFileSync(out, 'utf8')) as { id: string };
    const inCode = generateSuite({ seed: 2026, opponents: ['utility-conceder', 'utility-tit-for-tat'] });
    expect(fromCli.id).toBe(inCode.id);
    // The defaults agree too: `generateSuite({ seed: 2026 })` is that suite.
    expect(generateSuite({ seed: 2026 }).id).toBe(fromCli.id);
    expect(readFileSync(new URL('../../examples/evaluate-arms.ts', import.meta.url), 'utf8')).toContain(
      "generateSuite({ seed: 2026, opponents: ['utility-conceder', 'utility-tit-for-tat'] })",
    );
  });

  it('has a content identity: same seed same id, another seed another id', () => {
    expect(generateSuite({ seed: 3 }).id).toBe(suite.id);
    expect(generateSuite({ seed: 4 }).id).not.toBe(suite.id);
    expect(generateSuite({ seed: 3, seedsPerPair: 2 }).scenarios).toEqual(suite.scenarios);
  });

  it('saves and loads unchanged, and refuses an edited file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-suite-'));
    const path = join(dir, 'suite.json');
    saveSuite(path, suite);
    expect(loadSuite(path)).toEqual(suite);
    const edited = JSON.parse(readFileSync(path, 'utf8'));
    edited.scenarios[0].seller.reservation = 0.99;
    writeFileSync(path, JSON.stringify(edited));
    expect(() => loadSuite(path)).toThrow(SuiteFileError);
    expect(() => loadSuite(path)).toThrow(/does not match its id/);
    writeFileSync(path, '{"format":"other"}');
    expect(() => loadSuite(path)).toThrow(/not a haggle suite/);
  });

  it('checks options and outcomes', () => {
    expect(() => generateSuite({ scenarios: 0 })).toThrow(InvalidInputError);
    expect(() => generateSuite({ opponents: ['a', 'a'] })).toThrow(/distinct/);
    const scenario = suite.scenarios[0];
    if (!scenario) throw new Error('no scenario');
    expect(() => checkOutcome(scenario.space, { price: -1 })).toThrow(InvalidInputError);
  });
});

describe('bilateral trade with private values', () => {
  it('splits the surplus and flags individual-rationality violations', () => {
    expect(scoreTrade(70, { sellerCost: 50, buyerValue: 100 })).toEqual({
      sellerSurplusShare: 0.4,
      buyerSurplusShare: 0.6,
      sellerIrViolation: false,
      buyerIrViolation: false,
    });
    expect(scoreTrade(40, { sellerCost: 50, buyerValue: 100 }).sellerIrViolation).toBe(true);
    expect(scoreTrade(120, { sellerCost: 50, buyerValue: 100 }).buyerIrViolation).toBe(true);
    expect(() => scoreTrade(70, { sellerCost: 100, buyerValue: 50 })).toThrow(/zone of agreement/);
  });
});
