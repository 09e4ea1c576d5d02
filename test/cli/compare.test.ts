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
    for (const row of result.rows) {
      expect(['consistent', 'inconsistent', 'too-few', 'cannot-tell']).toContain(row.verdict);
      // The difference's interval stands beside every verdict, and has width.
      expect(row.differenceCi[1]).toBeGreaterThan(row.differenceCi[0]);
    }
    expect(result.margin).toBe(0.025);

    const text = captureIo();
    expect(await runCli(['compare', a, '-r', b, '--resamples', '100'], text)).toBe(0);
    expect(text.out().split('\n')[0]).toMatch(
      /^metric\s+reference\s+run\s+delta\s+95% CI\s+Fisher p\s+verdict$/,
    );
    const runs = captureIo();
    expect(await runCli(['compare', a, '-r', b, '--resamples', '100', '--json'], runs)).toBe(0);
    const dealRow = JSON.parse(runs.out()).rows.find((row: { id: string }) => row.id === 'deal-rate');
    expect(['consistent', 'inconsistent', 'too-few', 'cannot-tell']).toContain(dealRow.verdict);
    expect(dealRow.margin).toBe(0.025);
    expect(text.out()).toMatch(/^deal rate\s/m);

    const unknown = captureIo();
    expect(await runCli(['compare', a, '-r', 'card:unknown'], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/no published reference set "card:unknown"; known sets: card:qwen3/);
    expect(await runCli(['compare', a], captureIo())).toBe(2);
  });

  // Run files with the counts each case needs (valid session records; compare validates every line).
  const CARD = 'card:qwen3-4b-negotiation-50k-ep3';
  async function verdicts(counts: Parameters<typeof writeCountedRun>[1], extra: string[] = []) {
    const file = join(mkdtempSync(join(tmpdir(), 'haggle-verdicts-')), 'run.jsonl');
    writeCountedRun(file, counts);
    const json = captureIo();
    expect(await runCli(['compare', file, '--reference', CARD, '--json', ...extra], json)).toBe(0);
    const text = captureIo();
    expect(await runCli(['compare', file, '--reference', CARD, ...extra], text)).toBe(0);
    const rows: { reference: { id: string }; verdict: string; differenceCi: [number, number] }[] = JSON.parse(
      json.out(),
    ).rows;
    const row = (id: string) => rows.find((r) => r.reference.id === id);
    const verdict = (id: string) => rows.find((row) => row.reference.id === id)?.verdict;
    const line = (name: string) =>
      text
        .out()
        .split('\n')
        .find((l) => l.startsWith(name)) ?? '';
    return { verdict, line, row, text: text.out() };
  }

  it('19 sessions with 3 deals: too few sessions to tell about 38.2%', async () => {
    const { verdict, line, text } = await verdicts({ sessions: 19, deals: 3 });
    expect(verdict('50k-ep3-deal-rate')).toBe('too-few');
    expect(line('qwen3-4b-negotiation-50k-ep3: deal rate')).toMatch(
      /\[3\.4%, 39\.6%\]\s+19\s+−22\.4 pp \[−35\.0, \+1\.5\]\s+too few sessions to tell \(19 of 5,931 needed for ±2\.5 pp/,
    );
    expect(verdict('50k-epoch-4-deal-rate')).toBe('too-few');
    expect(text).toContain("A run on haggle's synthetic listings is another population");
  });

  it('20,000 sessions at 42.2%: consistent with the source population’s ~43%', async () => {
    const { verdict, line } = await verdicts({ sessions: 20_000, deals: 8440 });
    expect(verdict('population-deal-rate')).toBe('consistent');
    expect(line('source population: deal rate')).toMatch(
      /~43%.*42\.2%\s+\[41\.5%, 42\.9%\]\s+20,000\s+−0\.8 pp \[−2\.0, \+0\.4\]\s+consistent: within ±2\.5 pp$/,
    );
  }, 60_000);

  it('2,000 sessions at 30%: inconsistent with 38.2% of 2,000', async () => {
    const { verdict, line } = await verdicts({ sessions: 2000, deals: 600 });
    expect(verdict('50k-ep3-deal-rate')).toBe('inconsistent');
    expect(line('qwen3-4b-negotiation-50k-ep3: deal rate')).toMatch(
      /30\.0%.*inconsistent: the interval excludes 0, p < 0\.001$/,
    );
  });

  it('3,000 sessions with 1,215 deals: not consistent with 38.2% although Fisher does not reject', async () => {
    const { verdict, row, line } = await verdicts({ sessions: 3000, deals: 1215 });
    expect(verdict('50k-ep3-deal-rate')).toBe('too-few');
    const [low, high] = row('50k-ep3-deal-rate')?.differenceCi ?? [0, 0];
    expect(low).toBeCloseTo(-0.005, 3);
    expect(high).toBeCloseTo(0.0508, 3);
    expect(line('qwen3-4b-negotiation-50k-ep3: deal rate')).toMatch(
      /\+2\.3 pp \[−0\.5, \+5\.1\]\s+too few sessions to tell \(3,000 of 5,931 needed for ±2\.5 pp, p = 0\.105\)$/,
    );
  });

  it('--margin 2: the card’s 2,000 sessions alone give ±2.1 pp, so no run can tell', async () => {
    const { verdict, line } = await verdicts({ sessions: 6000, deals: 2292 }, ['--margin', '2']);
    expect(verdict('50k-ep3-deal-rate')).toBe('cannot-tell');
    expect(line('qwen3-4b-negotiation-50k-ep3: deal rate')).toMatch(
      /cannot tell: the card's 2,000 sessions alone give −2\.1\/\+2\.2 pp, no run can reach ±2\.0 pp/,
    );
    const bad = captureIo();
    expect(await runCli(['compare', 'x.jsonl', '--reference', CARD, '--margin', '-1'], bad)).toBe(2);
    expect(bad.err()).toMatch(/--margin must be percentage points above 0/);
  });
});
