import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { boulware, PopulationAgent } from '../../src/index.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import { readRunFile } from '../../src/simulation/run-file.js';
import { captureIo } from '../helpers/capture-io.js';

describe('haggle compare', () => {
  it('sets a run beside the card’s numbers or beside another run, as text or JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-compare-'));
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    const population = new PopulationAgent();
    await simulate({ buyer: population, seller: population, sessions: 300, seed: 1, out: a }).done();
    await simulate({ buyer: population, seller: boulware(), sessions: 300, seed: 1, out: b }).done();

    const card = captureIo();
    expect(
      await runCli(['compare', a, '--reference', 'card:qwen3-4b-negotiation-50k-ep3', '--json'], card),
    ).toBe(0);
    const result = JSON.parse(card.out());
    const deals = readRunFile(a).sessions.filter((s) => s.outcome.status === 'deal').length;
    expect(result.rows[0].run).toBe(deals / 300);
    expect(result.rows).toHaveLength(5);

    const text = captureIo();
    expect(await runCli(['compare', a, '-r', b, '--resamples', '100'], text)).toBe(0);
    expect(text.out().split('\n')[0]).toMatch(/^metric\s+reference\s+run\s+delta\s+95% CI$/);
    expect(text.out()).toMatch(/^deal rate\s/m);

    const unknown = captureIo();
    expect(await runCli(['compare', a, '-r', 'card:unknown'], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/no published reference set "card:unknown"; known sets: card:qwen3/);
    expect(await runCli(['compare', a], captureIo())).toBe(2);
  });
});
