import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { boulware, PopulationAgent } from '../../src/index.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import { readRunFile } from '../../src/simulation/run-file.js';
import { captureIo } from '../helpers/capture-io.js';
import { writeCountedRun } from '../helpers/counted-run.js';

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
    for (const row of result.rows) expect(['consistent', 'inconsistent', 'too-few']).toContain(row.verdict);

    const text = captureIo();
    expect(await runCli(['compare', a, '-r', b, '--resamples', '100'], text)).toBe(0);
    expect(text.out().split('\n')[0]).toMatch(/^metric\s+reference\s+run\s+delta\s+95% CI\s+Fisher p$/);
    expect(text.out()).toMatch(/^deal rate\s/m);

    const unknown = captureIo();
    expect(await runCli(['compare', a, '-r', 'card:unknown'], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/no published reference set "card:unknown"; known sets: card:qwen3/);
    expect(await runCli(['compare', a], captureIo())).toBe(2);
  });

  // Run files with the counts each case needs (valid session records; compare validates every line).
  const CARD = 'card:qwen3-4b-negotiation-50k-ep3';
  async function verdicts(counts: Parameters<typeof writeCountedRun>[1]) {
    const file = join(mkdtempSync(join(tmpdir(), 'haggle-verdicts-')), 'run.jsonl');
    writeCountedRun(file, counts);
    const json = captureIo();
    expect(await runCli(['compare', file, '--reference', CARD, '--json'], json)).toBe(0);
    const text = captureIo();
    expect(await runCli(['compare', file, '--reference', CARD], text)).toBe(0);
    const rows: { reference: { id: string }; verdict: string }[] = JSON.parse(json.out()).rows;
    const verdict = (id: string) => rows.find((row) => row.reference.id === id)?.verdict;
    const line = (name: string) =>
      text
        .out()
        .split('\n')
        .find((l) => l.startsWith(name)) ?? '';
    return { verdict, line, text: text.out() };
  }

  it('19 sessions with 3 deals: too few sessions to tell about 38.2%', async () => {
    const { verdict, line, text } = await verdicts({ sessions: 19, deals: 3 });
    expect(verdict('50k-ep3-deal-rate')).toBe('too-few');
    expect(line('qwen3-4b-negotiation-50k-ep3: deal rate')).toMatch(
      /\[3\.4%, 39\.6%\]\s+19\s+too few sessions to tell \(19 of 2,268 needed/,
    );
    expect(verdict('50k-epoch-4-deal-rate')).toBe('too-few');
    expect(text).toContain("A run on haggle's synthetic listings is another population");
  });

  it('20,000 sessions at 42.2%: consistent with the source population’s ~43%', async () => {
    const { verdict, line } = await verdicts({ sessions: 20_000, deals: 8440 });
    expect(verdict('population-deal-rate')).toBe('consistent');
    expect(line('source population: deal rate')).toMatch(
      /~43%.*42\.2%\s+\[41\.5%, 42\.9%\]\s+20,000\s+consistent$/,
    );
  }, 60_000);

  it('2,000 sessions at 30%: inconsistent with 38.2% of 2,000', async () => {
    const { verdict, line } = await verdicts({ sessions: 2000, deals: 600 });
    expect(verdict('50k-ep3-deal-rate')).toBe('inconsistent');
    expect(line('qwen3-4b-negotiation-50k-ep3: deal rate')).toMatch(/30\.0%.*inconsistent, p < 0\.001$/);
  });
});
