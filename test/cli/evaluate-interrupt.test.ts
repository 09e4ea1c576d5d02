import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { readTournamentFile } from '../../src/evaluation/index.js';
import { captureIo } from '../helpers/capture-io.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-evaluate-interrupt-'));

function linesOnFile(path: string): number {
  try {
    return statSync(path).size === 0 ? 0 : readFileSync(path, 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
}

describe('haggle evaluate --out, interrupted', () => {
  it('keeps every finished match, says how many, and resumes to the bytes of an uninterrupted run', async () => {
    const dir = tmp();
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '40', '--seeds-per-pair', '8'], captureIo()),
    ).toBe(0);
    const out = join(dir, 'eval.jsonl');
    const args = [
      'evaluate',
      '--suite',
      suite,
      '--arm',
      'utility-linear',
      '--arm',
      'utility-conceder',
      '--roles',
      'both',
    ];
    const controller = new AbortController();
    const io = captureIo();
    const running = runCli([...args, '--out', out, '--no-progress'], io, controller.signal);
    while (linesOnFile(out) < 40) await new Promise((resolve) => setTimeout(resolve, 2));
    controller.abort(new Error('interrupted'));
    expect(await running).toBe(130);

    const { records } = readTournamentFile(out);
    const lines = io.err().trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^haggle: stopped after ${records.length} of \\d+ matches; ${out} holds the tournament header and all ${records.length} finished matches`,
      ),
    );
    expect(lines[1]).toBe(
      `haggle: resume with: haggle ${args.join(' ')} --out ${out} --no-progress --resume`,
    );

    expect(await runCli([...args, '--out', out, '--no-progress', '--resume'], captureIo())).toBe(0);
    const whole = join(dir, 'whole.jsonl');
    expect(await runCli([...args, '--out', whole, '--no-progress', '--concurrency', '1'], captureIo())).toBe(
      0,
    );
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    const total = readTournamentFile(whole).records.length;
    expect(new Set(readTournamentFile(out).records.map((r) => r.index)).size).toBe(total);
  });
});
