import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGE_TOURNAMENT_MATCHES } from '../../src/cli/large-run.js';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';

// What `haggle evaluate` refuses in an experiment file before anything runs: prototype keys, an `out`
// outside the file's folder or on a device, a tournament of millions of matches; and resumes onto a
// file of the other kind.

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-evaluate-guards-'));

/** A small baseline experiment (no server): two arms, one opponent, 2 scenarios. */
const experiment = (extra: Record<string, unknown> = {}) => ({
  suite: { generate: { seed: 3, scenarios: 2, seedsPerPair: 1 } },
  arms: { a: { baseline: 'utility-linear' }, b: { baseline: 'utility-boulware' } },
  opponents: { buyer: { baseline: 'utility-conceder' } },
  ...extra,
});

async function evaluate(args: string[]): Promise<{ code: number; err: string }> {
  const io = captureIo();
  const code = await runCli(['evaluate', '--no-progress', ...args], io);
  return { code, err: io.err() };
}

function writeExperiment(dir: string, text: string): string {
  const file = join(dir, 'experiment.json');
  writeFileSync(file, text);
  return file;
}

describe('haggle evaluate --experiment: what the file may not do', () => {
  it.each([
    [
      'an arm named __proto__',
      '"arms": {"__proto__": {"baseline": "utility-linear"}, "a": {"baseline": "utility-linear"}}',
      'arms.__proto__',
    ],
    [
      'constructor deep in an arm',
      '"arms": {"a": {"baseline": "utility-linear", "constructor": {"x": 1}}}',
      'arms.a.constructor',
    ],
    ['prototype at the top', '"prototype": {}, "arms": {"a": {"baseline": "utility-linear"}}', 'prototype'],
  ])('refuses %s, naming its JSON path (exit 2, nothing written)', async (_, arms, path) => {
    const dir = tmp();
    const text = `{"suite": {"generate": {"seed": 3, "scenarios": 2, "seedsPerPair": 1}}, ${arms}, "opponents": {"buyer": {"baseline": "utility-conceder"}}, "out": "run.jsonl"}`;
    const { code, err } = await evaluate(['--experiment', writeExperiment(dir, text)]);
    expect(code).toBe(2);
    expect(err).toContain(`${path}: is a name JavaScript reserves for prototypes`);
    expect(existsSync(join(dir, 'run.jsonl'))).toBe(false);
  });

  it('refuses a file nested 100,000 levels deep with one line naming where (exit 2), not a stack overflow', async () => {
    const dir = tmp();
    const depth = 100_000;
    const text = `{"arms": ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}}`;
    const { code, err } = await evaluate(['--experiment', writeExperiment(dir, text)]);
    expect(code).toBe(2);
    expect(err).toMatch(/: arms(\.a){63}: is nested 64 levels deep; an experiment file needs far fewer/);
    expect(err).not.toMatch(/RangeError|call stack/);
  });

  it('resolves out beside the experiment file and refuses one outside its folder unless --allow-out-anywhere', async () => {
    const dir = tmp();
    const inner = join(dir, 'experiments');
    mkdirSync(inner);
    const file = writeExperiment(inner, JSON.stringify(experiment({ out: 'results/run.jsonl' })));
    expect((await evaluate(['--experiment', file])).code).toBe(0);
    expect(readFileSync(join(inner, 'results', 'run.jsonl'), 'utf8')).toMatch(/^\{"type":"tournament"/);

    const escaping = writeExperiment(inner, JSON.stringify(experiment({ out: '../outside.jsonl' })));
    const refused = await evaluate(['--experiment', escaping]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `out: "../outside.jsonl" lies outside the experiment file's folder (${inner})`,
    );
    expect(refused.err).toContain('--allow-out-anywhere');
    expect(existsSync(join(dir, 'outside.jsonl'))).toBe(false);
    expect((await evaluate(['--experiment', escaping, '--allow-out-anywhere'])).code).toBe(0);
    expect(existsSync(join(dir, 'outside.jsonl'))).toBe(true);

    const absolute = writeExperiment(
      inner,
      JSON.stringify(experiment({ out: '/tmp/haggle-anywhere.jsonl' })),
    );
    expect((await evaluate(['--experiment', absolute])).err).toContain('lies outside the experiment file');
  });

  it('never writes a device or a kernel file, even with --allow-out-anywhere', async () => {
    const dir = tmp();
    for (const [out, says] of [
      ['/dev/null', '/dev/null: is a device, not a regular file'],
      ['/proc/self/mem', "/proc/self/mem: lies on the kernel's proc file system"],
    ] as const) {
      const file = writeExperiment(dir, JSON.stringify(experiment({ out })));
      const result = await evaluate(['--experiment', file, '--allow-out-anywhere']);
      expect(result.code, out).toBe(2);
      expect(result.err).toContain(says);
    }
    // The same refusal for a path given on the command line, and for simulate.
    const cli = await evaluate([
      '--experiment',
      writeExperiment(dir, JSON.stringify(experiment())),
      '--out',
      '/dev/null',
    ]);
    expect(cli.code).toBe(2);
    const io = captureIo();
    expect(await runCli(['simulate', '-n', '5', '--out', '/dev/null', '--overwrite'], io)).toBe(2);
    expect(io.err()).toContain('/dev/null: is a device, not a regular file');
  });

  it(`refuses more than ${LARGE_TOURNAMENT_MATCHES.toLocaleString('en-US')} planned matches without --yes, saying how many`, async () => {
    const dir = tmp();
    const arms = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`arm${i}`, { baseline: 'utility-linear' }]),
    );
    const big = experiment({
      arms,
      suite: { generate: { seed: 3, scenarios: 24, seedsPerPair: 48 } },
      out: 'big.jsonl',
    });
    const { code, err } = await evaluate(['--experiment', writeExperiment(dir, JSON.stringify(big))]);
    expect(code).toBe(2);
    expect(err).toContain('this tournament plans 5,760,000 matches, more than 100,000');
    expect(err).toContain('--yes');
    expect(existsSync(join(dir, 'big.jsonl'))).toBe(false);
  });

  it('a resume onto a file of the other kind names what wrote it and which verb resumes it', async () => {
    const dir = tmp();
    const tournament = join(dir, 'tournament.jsonl');
    const file = writeExperiment(dir, JSON.stringify(experiment()));
    expect((await evaluate(['--experiment', file, '--out', tournament])).code).toBe(0);
    const before = readFileSync(tournament);
    const io = captureIo();
    expect(await runCli(['simulate', '-n', '5', '--out', tournament, '--resume'], io)).toBe(2);
    expect(io.err()).toContain(
      `${tournament}: holds a tournament (written by haggle evaluate, runTournament()), not a simulation run: ` +
        'resume it with haggle evaluate --resume',
    );
    expect(readFileSync(tournament)).toEqual(before);

    const run = join(dir, 'run.jsonl');
    expect(await runCli(['simulate', '-n', '5', '--out', run, '--no-progress'], captureIo())).toBe(0);
    const reverse = await evaluate(['--experiment', file, '--out', run, '--resume']);
    expect(reverse.code).toBe(2);
    expect(reverse.err).toContain(
      `${run}: holds a simulation run (written by haggle simulate, simulate()), not a tournament: ` +
        'resume it with haggle simulate --resume',
    );
  });
});
