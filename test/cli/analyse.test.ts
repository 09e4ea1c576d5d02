import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  analyseTournament,
  generateSuite,
  holm,
  loadTournament,
  runTournament,
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';
import { captureIo } from '../helpers/capture-io.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-analyse-'));

async function labelledRun(dir: string): Promise<string> {
  const out = join(dir, 't.jsonl');
  await runTournament({
    suite: generateSuite({ seed: 11, scenarios: 3, seedsPerPair: 2 }),
    arms: { boulware: utilityBoulware(), linear: utilityLinear() },
    opponents: {
      'utility-conceder': utilityConceder(),
      'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
    },
    labels: {
      arms: { linear: { base: 'boulware' } },
      opponents: {
        'utility-conceder': { family: 'conceder', trainingPool: true },
        'utility-tit-for-tat': { family: 'tit-for-tat', trainingPool: false },
      },
    },
    out,
  }).done();
  return out;
}

describe('haggle evaluate output', () => {
  it('--json holds scores with welfare, Pareto distance and rounds, and Holm-adjusted comparisons; --report writes the page', async () => {
    const dir = tmp();
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '3', '--seeds-per-pair', '2'], captureIo()),
    ).toBe(0);
    const report = join(dir, 'r.html');
    const io = captureIo();
    const args = ['evaluate', '--suite', suite, '--arm', 'utility-boulware', '--arm', 'utility-linear'];
    expect(await runCli([...args, '--json', '--report', report, '--metrics', 'armUtility,welfare'], io)).toBe(
      0,
    );
    const json = JSON.parse(io.out());
    expect(json.metrics).toEqual(['armUtility', 'welfare']);
    expect(Object.keys(json.scores[0])).toEqual(
      expect.arrayContaining(['welfare', 'distanceToPareto', 'rounds', 'distanceToNash']),
    );
    // Two metrics x (two opponents + pooled) comparisons, all distinct tests.
    expect(json.comparisons).toHaveLength(6);
    expect(json.tests).toBe(6);
    expect(json.comparisons.map((c: { pAdjusted: number }) => c.pAdjusted)).toEqual(
      holm(json.comparisons.map((c: { pValue: number }) => c.pValue)),
    );
    expect(io.err()).toContain(`wrote ${report}`);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('data-table="comparisons"');
    expect(html).toContain('<th>welfare [95% CI]</th>');
    expect(html).toContain('utility-boulware vs utility-linear, arm utility:');

    const text = captureIo();
    expect(await runCli(args, text)).toBe(0);
    expect(text.out()).toMatch(
      /^arm\s+opponent\s+matches\s+deal rate \[95% CI\]\s+arm utility \[95% CI\]\s+opp\. utility\s+welfare\s+dist\. to Nash\s+dist\. to Pareto\s+rounds/,
    );
    expect(text.out()).toContain('Paired comparisons: A - B on the same negotiations');
    expect(text.out()).toMatch(/Holm-adjusted p = \d\.\d{4} over 17 tests/);
  });

  it('--metrics refuses an unknown name', async () => {
    const io = captureIo();
    expect(
      await runCli(['evaluate', '--suite', 'x.json', '--arm', 'utility-linear', '--metrics', 'utility'], io),
    ).toBe(2);
    expect(io.err()).toMatch(/--metrics: unknown utility; choose from armUtility, deal/);
  });
});

describe('haggle analyse', () => {
  it('reanalyses a run file with its labels: gains, interaction and training-pool contrast, as in code', async () => {
    const dir = tmp();
    const run = await labelledRun(dir);
    const io = captureIo();
    const report = join(dir, 'a.html');
    expect(await runCli(['analyse', run, '--json', '--metrics', 'armUtility', '--report', report], io)).toBe(
      0,
    );
    const json = JSON.parse(io.out());
    const inCode = analyseTournament(loadTournament(run), { metrics: ['armUtility'] });
    expect(json.gains).toEqual(JSON.parse(JSON.stringify(inCode.gains)));
    expect(json.interactions).toHaveLength(1);
    expect(json.interactions[0]).toMatchObject({
      arm: 'linear',
      base: 'boulware',
      test: 'label-permutation',
    });
    expect(json.groups.map((g: { by: string }) => g.by)).toEqual(['trainingPool', 'family']);
    expect(json.groups[0].contrasts[0]).toMatchObject({
      first: 'trainingPool=true',
      second: 'trainingPool=false',
    });
    expect(existsSync(report)).toBe(true);
    expect(readFileSync(report, 'utf8')).toContain('data-table="interactions"');

    const text = captureIo();
    expect(await runCli(['analyse', run, '--metrics', 'armUtility'], text)).toBe(0);
    expect(text.out()).toContain('Gains over base');
    expect(text.out()).toContain('Arm × opponent interaction');
    expect(text.out()).toMatch(/linear over its base boulware, arm utility: (no )?detectable difference/);
  });

  it('labels from the command line: a base, families and the training pool', async () => {
    const dir = tmp();
    const out = join(dir, 'plain.jsonl');
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '2', '--seeds-per-pair', '2'], captureIo()),
    ).toBe(0);
    const args = [
      'evaluate',
      '--suite',
      suite,
      '--arm',
      'utility-boulware',
      '--arm',
      'utility-linear',
      '--out',
      out,
    ];
    expect(await runCli(args, captureIo())).toBe(0);
    const plain = captureIo();
    expect(await runCli(['analyse', out, '--json'], plain)).toBe(0);
    expect(JSON.parse(plain.out()).gains).toEqual([]);
    const io = captureIo();
    const labelled = [
      'analyse',
      out,
      '--json',
      '--metrics',
      'deal',
      '--base',
      'utility-linear=utility-boulware',
      '--training-pool',
      'utility-conceder',
    ];
    expect(await runCli(labelled, io)).toBe(0);
    const json = JSON.parse(io.out());
    expect(json.gains).toHaveLength(3);
    expect(json.labels.opponents).toEqual({
      'utility-conceder': { trainingPool: true },
      'utility-tit-for-tat': { trainingPool: false },
    });
    const bad = captureIo();
    expect(await runCli(['analyse', out, '--base', 'gpt=utility-linear'], bad)).toBe(2);
    expect(bad.err()).toMatch(/--base gpt: the file's arms are utility-boulware, utility-linear/);
  });

  it('refuses a file that is not a tournament', async () => {
    const io = captureIo();
    expect(await runCli(['analyse', '/nonexistent.jsonl'], io)).toBe(2);
    expect(io.err()).toMatch(/no such file/);
  });
});
