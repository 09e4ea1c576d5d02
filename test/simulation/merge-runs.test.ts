import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  InvalidInputError,
  mergeRuns,
  PopulationAgent,
  RunFileError,
  readRunFile,
  simulate,
} from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-merge-'));
const population = new PopulationAgent();

async function shard(out: string, index: number, count: number, extra: Record<string, unknown> = {}) {
  return simulate({
    buyer: population,
    seller: population,
    sessions: 100,
    seed: 12,
    concurrency: 8,
    shard: { index, count },
    out,
    ...extra,
  }).done();
}

describe('shards and mergeRuns', () => {
  it('shards 1/3, 2/3 and 3/3 merged equal the unsharded run byte for byte', async () => {
    const dir = tmp();
    const whole = join(dir, 'whole.jsonl');
    await simulate({ buyer: population, seller: population, sessions: 100, seed: 12, out: whole }).done();
    const paths = [1, 2, 3].map((k) => join(dir, `shard-${k}.jsonl`));
    const summaries = await Promise.all(paths.map((path, i) => shard(path, i + 1, 3)));
    expect(summaries.map((s) => s.sessions)).toEqual([34, 33, 33]);
    const { header, sessions } = readRunFile(paths[1] as string);
    expect(header?.shard).toEqual({ index: 2, count: 3 });
    expect(header?.sessions).toBe(100);
    expect(sessions.map((s) => s.index)).toEqual(Array.from({ length: 33 }, (_, i) => 3 * i + 1));

    const merged = join(dir, 'out', 'merged.jsonl');
    // Any order of inputs.
    expect(mergeRuns([paths[2], paths[0], paths[1]] as string[], merged)).toEqual({
      out: merged,
      kind: 'run',
      records: 100,
      shards: 3,
    });
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    // Never overwritten silently.
    expect(() => mergeRuns(paths, merged)).toThrow(/already holds data/);
    mergeRuns(paths, merged, { overwrite: true });
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('refuses a missing, repeated, unfinished or foreign shard, saying which', async () => {
    const dir = tmp();
    const paths = [1, 2].map((k) => join(dir, `shard-${k}.jsonl`));
    await shard(paths[0] as string, 1, 2);
    await shard(paths[1] as string, 2, 2);
    const out = join(dir, 'merged.jsonl');
    expect(() => mergeRuns([paths[0] as string], out)).toThrow(/shard 2\/2 missing: a merge needs all 2/);
    expect(() => mergeRuns([paths[0], paths[0]] as string[], out)).toThrow(/is shard 1\/2, as is/);

    const otherSeed = join(dir, 'other-seed.jsonl');
    await shard(otherSeed, 2, 2, { seed: 13 });
    expect(() => mergeRuns([paths[0] as string, otherSeed], out)).toThrow(
      /comes from another run .*\(seed differs\)/,
    );

    // A shard stopped halfway: its last lines cut off.
    const half = join(dir, 'half.jsonl');
    const lines = readFileSync(paths[1] as string, 'utf8').split('\n');
    writeFileSync(half, `${lines.slice(0, 20).join('\n')}\n`);
    expect(() => mergeRuns([paths[0] as string, half], out)).toThrow(
      /holds 19 of the 50 sessions of shard 2\/2: finish it with --resume/,
    );

    const whole = join(dir, 'whole.jsonl');
    await simulate({ buyer: population, seller: population, sessions: 10, out: whole }).done();
    expect(() => mergeRuns([whole], out)).toThrow(RunFileError);
    expect(() => mergeRuns([whole], out)).toThrow(/holds a whole run, not a shard/);
    expect(() => mergeRuns([paths[0] as string], paths[0] as string)).toThrow(InvalidInputError);
    expect(() =>
      simulate({ buyer: population, seller: population, sessions: 9, shard: { index: 4, count: 3 } }),
    ).toThrow(/shard.index: must be an integer from 1 to 3/);
  });

  it('haggle simulate --shard K/N and haggle merge give the unsharded file; so do evaluate shards', async () => {
    const dir = tmp();
    const run = ['simulate', '-n', '90', '-s', '3', '--no-progress'];
    expect(await runCli([...run, '--out', join(dir, 'whole.jsonl')], captureIo())).toBe(0);
    for (const k of [1, 2, 3])
      expect(
        await runCli([...run, '--shard', `${k}/3`, '--out', join(dir, `s${k}.jsonl`)], captureIo()),
      ).toBe(0);
    const io = captureIo();
    const shards = [1, 2, 3].map((k) => join(dir, `s${k}.jsonl`));
    expect(await runCli(['merge', ...shards, '--out', join(dir, 'merged.jsonl')], io)).toBe(0);
    expect(io.out()).toBe(`merged 3 shards into ${join(dir, 'merged.jsonl')} (90 sessions)\n`);
    expect(readFileSync(join(dir, 'merged.jsonl'), 'utf8')).toBe(
      readFileSync(join(dir, 'whole.jsonl'), 'utf8'),
    );

    const bad = captureIo();
    expect(await runCli([...run, '--shard', '4/3'], bad)).toBe(2);
    expect(bad.err()).toMatch(/^haggle: --shard must be K\/N with 1 <= K <= N/);

    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '4', '--seeds-per-pair', '2'], captureIo()),
    ).toBe(0);
    const evaluate = [
      'evaluate',
      '--suite',
      suite,
      '--arm',
      'utility-linear',
      '--arm',
      'utility-boulware',
      '--no-progress',
    ];
    expect(await runCli([...evaluate, '--out', join(dir, 'eval.jsonl')], captureIo())).toBe(0);
    for (const k of [1, 2])
      expect(
        await runCli([...evaluate, '--shard', `${k}/2`, '--out', join(dir, `e${k}.jsonl`)], captureIo()),
      ).toBe(0);
    const merged = captureIo();
    expect(
      await runCli(
        ['merge', join(dir, 'e2.jsonl'), join(dir, 'e1.jsonl'), '--out', join(dir, 'eval-merged.jsonl')],
        merged,
      ),
    ).toBe(0);
    expect(merged.out()).toMatch(/^merged 2 shards into .* \(\d+ matches\)\n$/);
    expect(readFileSync(join(dir, 'eval-merged.jsonl'), 'utf8')).toBe(
      readFileSync(join(dir, 'eval.jsonl'), 'utf8'),
    );
  });
});
