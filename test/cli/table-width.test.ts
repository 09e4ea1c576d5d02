import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { boulware, PopulationAgent } from '../../src/index.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import { captureIo } from '../helpers/capture-io.js';

// The tables `haggle compare` and `haggle evaluate` print fit the terminal they are printed to: at 100
// columns, no line is wider (the aligned tables were up to ~130 and ~165 columns), and every value is
// still printed whole. Piped output (not a terminal) keeps the one-row-a-line aligned table.

/** A terminal of `columns` columns, as the CLI sees process.stdout when it is one. */
function terminal(columns: number): CliIo & { out: () => string; err: () => string } {
  const io = captureIo();
  let out = '';
  return { ...io, stdout: { write: (text: string) => (out += text), isTTY: true, columns }, out: () => out };
}

const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('CLI tables at a 100-column terminal', () => {
  it('haggle compare: against a run and against the card, no line over 100 columns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-table-width-'));
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    const population = new PopulationAgent();
    await simulate({ buyer: population, seller: population, sessions: 200, seed: 1, out: a }).done();
    await simulate({ buyer: population, seller: boulware(), sessions: 200, seed: 1, out: b }).done();

    for (const reference of [b, 'card:qwen3-4b-negotiation-50k-ep3']) {
      const piped = captureIo();
      expect(await runCli(['compare', a, '-r', reference, '--resamples', '50'], piped)).toBe(0);
      expect(widest(piped.out()), 'the aligned table is wider than the terminal').toBeGreaterThan(100);

      const narrow = terminal(100);
      expect(await runCli(['compare', a, '-r', reference, '--resamples', '50'], narrow)).toBe(0);
      expect(widest(narrow.out())).toBeLessThanOrEqual(100);
      // The same numbers, each whole: every value cell of the piped table is in the narrow one.
      const values = piped
        .out()
        .split('\n')
        .flatMap((line) => line.split(/ {2,}/).slice(1))
        .filter((cell) => /\d/.test(cell) && cell.length < 24);
      expect(values.length).toBeGreaterThan(10);
      for (const value of values) expect(narrow.out()).toContain(value.trim());
    }
  }, 120_000);

  it('haggle evaluate: scores and analyses, no line over 100 columns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-table-width-'));
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(
        ['suite', '--out', suite, '--scenarios', '4', '--seeds-per-pair', '2', '--seed', '4'],
        captureIo(),
      ),
    ).toBe(0);
    const args = ['evaluate', '--suite', suite, '--arm', 'utility-boulware', '--arm', 'utility-linear'];
    const piped = captureIo();
    expect(await runCli(args, piped)).toBe(0);
    expect(widest(piped.out())).toBeGreaterThan(100);

    const narrow = terminal(100);
    expect(await runCli(args, narrow)).toBe(0);
    const text = narrow.out();
    expect(widest(text)).toBeLessThanOrEqual(100);
    // One block per arm and opponent, each estimate with its interval on one line.
    expect(text).toMatch(/^arm utility-linear, opponent all$/m);
    expect(text).toMatch(/^ {2}deal rate \[95% CI\] +\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]$/m);
    expect(text).toMatch(/utility-boulware vs utility-linear, arm utility: (no )?detectable difference/);
  }, 120_000);
});
