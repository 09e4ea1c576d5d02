import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-evaluate-'));

async function makeSuite(dir: string, ...extra: string[]): Promise<string> {
  const path = join(dir, 'suite.json');
  const io = captureIo();
  expect(
    await runCli(
      ['suite', '--out', path, '--scenarios', '6', '--seeds-per-pair', '2', '--seed', '4', ...extra],
      io,
    ),
  ).toBe(0);
  expect(io.out()).toMatch(/24 negotiations, id [0-9a-f]{64}/);
  return path;
}

describe('haggle suite and haggle evaluate', () => {
  it('prints a results table with intervals and a statistical comparison of two arms', async () => {
    const suite = await makeSuite(tmp());
    const io = captureIo();
    const code = await runCli(
      ['evaluate', '--suite', suite, '--arm', 'utility-boulware', '--arm', 'utility-linear'],
      io,
    );
    expect(code).toBe(0);
    expect(io.out()).toMatch(/^arm\s+opponent\s+matches\s+deal rate \[95% CI\]/);
    expect(io.out()).toMatch(/utility-linear\s+all\s+24\s+\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]/);
    expect(io.out()).toMatch(
      /utility-boulware vs utility-linear, arm utility: (no )?detectable difference at the 5% level: mean difference/,
    );
  });

  it('--json gives scores and comparisons; the same suite gives the same numbers twice', async () => {
    const suite = await makeSuite(tmp());
    const outputs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const io = captureIo();
      expect(
        await runCli(
          [
            'evaluate',
            '--suite',
            suite,
            '--arm',
            'utility-conceder',
            '--opponent',
            'utility-tit-for-tat',
            '--json',
          ],
          io,
        ),
      ).toBe(0);
      outputs.push(io.out());
    }
    expect(outputs[0]).toBe(outputs[1]);
    const result = JSON.parse(outputs[0] as string);
    expect(result.scores.map((s: { opponent: string }) => s.opponent)).toEqual(['utility-tit-for-tat', '*']);
    expect(result.scores[0].matches).toBe(12);
  });

  it('writes a resumable results file', async () => {
    const dir = tmp();
    const suite = await makeSuite(dir);
    const out = join(dir, 'matches.jsonl');
    const args = [
      'evaluate',
      '--suite',
      suite,
      '--arm',
      'utility-linear',
      '--roles',
      'both',
      '--out',
      out,
      '--json',
    ];
    expect(await runCli(args, captureIo())).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1 + 48);
    expect(await runCli(args, captureIo())).toBe(2); // never overwritten silently
    expect(await runCli([...args, '--resume'], captureIo())).toBe(0);
  });

  it.each([
    [['evaluate', '--suite', '/nonexistent.json', '--arm', 'utility-linear'], /cannot read a suite/],
    [['evaluate', '--arm', 'utility-linear'], /evaluate needs --experiment FILE, or --suite FILE/],
    [['suite', '--out', '/tmp/x.json', '--opponents', 'gpt=4o'], /--opponents: gpt=4o is not a name/],
  ])('bad input %j exits 2 with one line', async (args, message) => {
    const io = captureIo();
    expect(await runCli(args as string[], io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('refuses an unknown arm and an edited suite', async () => {
    const dir = tmp();
    const suite = await makeSuite(dir);
    const io = captureIo();
    expect(await runCli(['evaluate', '--suite', suite, '--arm', 'gpt-9'], io)).toBe(2);
    expect(io.err()).toMatch(/--arm gpt-9: unknown/);
    const edited = JSON.parse(readFileSync(suite, 'utf8'));
    edited.seed = 99;
    writeFileSync(suite, JSON.stringify(edited));
    const io2 = captureIo();
    expect(await runCli(['evaluate', '--suite', suite, '--arm', 'utility-linear'], io2)).toBe(2);
    expect(io2.err()).toMatch(/does not match its id/);
  });
});
