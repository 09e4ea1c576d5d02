import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareArms,
  generateSuite,
  type MultiIssueNegotiator,
  runTournament,
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';
import { HaggleAbortError, InvalidInputError } from '../../src/index.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-tournament-'));
const suite = generateSuite({ seed: 1 });
const opponents = {
  'utility-conceder': utilityConceder(),
  'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
};

describe('runTournament', () => {
  it('1,152 negotiations per arm, the same results twice, and a difference with its confidence interval', async () => {
    const arms = { boulware: utilityBoulware(), linear: utilityLinear() };
    const first = await runTournament({ suite, arms, opponents }).done();
    const second = await runTournament({ suite, arms, opponents, concurrency: 3 }).done();
    expect(first.matches).toHaveLength(2304);
    expect(second).toEqual(first);
    const pooled = first.scores.filter((s) => s.opponent === '*');
    expect(pooled.map((s) => [s.arm, s.matches])).toEqual([
      ['boulware', 1152],
      ['linear', 1152],
    ]);
    for (const s of first.scores) {
      expect(s.armUtility.low).toBeLessThanOrEqual(s.armUtility.mean);
      expect(s.armUtility.high).toBeGreaterThanOrEqual(s.armUtility.mean);
    }
    const comparison = compareArms(first, 'boulware', 'linear');
    expect(comparison.n).toBe(1152);
    expect(comparison.difference.low).toBeLessThan(comparison.difference.high);
    expect(comparison.verdict).toMatch(/difference at the 5% level: mean difference -?\d/);
    // An arm compared with itself has no detectable difference, stated with its interval.
    const self = compareArms(first, 'linear', 'linear');
    expect(self.verdict).toMatch(/^the same arm on both sides: the difference is 0 by construction/);
    expect(self.difference).toMatchObject({ mean: 0, low: 0, high: 0 });
    // Two arms on the deal metric: a paired difference of proportions with Tango's score interval.
    const deals = compareArms(first, 'boulware', 'linear', 'deal');
    expect(deals.difference.high).toBeGreaterThan(deals.difference.low);
    expect(deals.difference.low).toBeLessThanOrEqual(deals.difference.mean);
    expect(deals.difference.high).toBeGreaterThanOrEqual(deals.difference.mean);
  });

  it('rotates roles, and never lets an arm agree below its reservation', async () => {
    const small = generateSuite({ seed: 2, scenarios: 4, seedsPerPair: 2 });
    const result = await runTournament({
      suite: small,
      arms: { linear: utilityLinear() },
      opponents,
      armRoles: ['seller', 'buyer'],
    }).done();
    expect(result.matches).toHaveLength(4 * 2 * 2 * 2);
    expect(new Set(result.matches.map((m) => m.armRole))).toEqual(new Set(['seller', 'buyer']));
    expect(result.matches.every((m) => !m.metrics.armIrViolation)).toBe(true);
    for (const m of result.matches.filter((x) => x.metrics.deal))
      expect(m.metrics.distanceToPareto).toBeGreaterThanOrEqual(0);
  });

  it('resumes a killed run to exactly the uninterrupted file', async () => {
    const small = generateSuite({ seed: 5, scenarios: 6, seedsPerPair: 3 });
    const dir = tmp();
    const whole = join(dir, 'whole.jsonl');
    const broken = join(dir, 'broken.jsonl');
    const arms = { linear: utilityLinear() };
    await runTournament({ suite: small, arms, opponents, out: whole }).done();
    const controller = new AbortController();
    const run = runTournament({
      suite: small,
      arms,
      opponents,
      out: broken,
      signal: controller.signal,
      concurrency: 2,
    });
    run.on('progress', (p) => {
      if (p.completed === 10) controller.abort();
    });
    await expect(run.done()).rejects.toBeInstanceOf(HaggleAbortError);
    appendFileSync(broken, '{"type":"mat');
    const resumed = await runTournament({ suite: small, arms, opponents, out: broken, resume: true }).done();
    expect(resumed.matches).toHaveLength(36);
    expect(readFileSync(broken, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('times out a stuck negotiator and records the match as no deal', async () => {
    const stuck: MultiIssueNegotiator = {
      describe: () => ({ kind: 'stuck' }),
      predict: (_input, options) =>
        new Promise((_, reject) =>
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
        ),
    };
    const small = generateSuite({ seed: 1, scenarios: 1, opponents: ['x'], seedsPerPair: 2 });
    const result = await runTournament({
      suite: small,
      arms: { stuck },
      opponents: { x: utilityLinear() },
      timeoutMs: 20,
    }).done();
    expect(result.matches.map((m) => m.result.reason)).toEqual(['timeout', 'timeout']);
    expect(result.matches.every((m) => !m.metrics.deal)).toBe(true);
  });

  it('refuses missing opponents and an existing results file', async () => {
    expect(() => runTournament({ suite, arms: { a: utilityLinear() }, opponents: {} })).toThrow(
      InvalidInputError,
    );
    const out = join(tmp(), 'r.jsonl');
    const small = generateSuite({ seed: 1, scenarios: 1, seedsPerPair: 1 });
    await runTournament({ suite: small, arms: { a: utilityLinear() }, opponents, out }).done();
    expect(() => runTournament({ suite: small, arms: { a: utilityLinear() }, opponents, out })).toThrow(
      /resume: true \(--resume\) to continue it or overwrite: true \(--overwrite\)/,
    );
  });
});
