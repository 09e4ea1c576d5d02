import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';
import { writeCountedRun } from '../helpers/counted-run.js';

const FIXTURE = new URL('../simulation/fixtures/small-real-sessions.jsonl', import.meta.url).pathname;
const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-cli-report-'));

describe('haggle report', () => {
  it('writes one HTML file for a run and a reference, and says so', async () => {
    const dir = tmp();
    const run = join(dir, 'run.jsonl');
    expect(await runCli(['simulate', '-n', '40', '-s', '2', '--out', run], captureIo())).toBe(0);
    const io = captureIo();
    const out = join(dir, 'nested', 'report.html');
    const code = await runCli(['report', run, '--reference', FIXTURE, '--out', out, '--resamples', '50'], io);
    expect(code, io.err()).toBe(0);
    expect(io.out()).toBe(`wrote ${out} (40 sessions against 4 reference sessions)\n`);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>run.jsonl against small-real-sessions.jsonl</title>');
  });

  it('defaults --out to the run file with .html, and the same seed writes the same bytes', async () => {
    const dir = tmp();
    const run = join(dir, 'real.jsonl');
    copyFileSync(FIXTURE, run);
    for (let i = 0; i < 2; i++)
      expect(await runCli(['report', run, '--resamples', '50'], captureIo())).toBe(0);
    expect(existsSync(join(dir, 'real.html'))).toBe(true);
    const first = readFileSync(join(dir, 'real.html'), 'utf8');
    expect(
      await runCli(['report', run, '--resamples', '50', '--out', join(dir, 'b.html')], captureIo()),
    ).toBe(0);
    expect(readFileSync(join(dir, 'b.html'), 'utf8')).toBe(first);
  });

  it.each([
    [['report'], /missing required argument 'run'/],
    [['report', '/nonexistent/run.jsonl'], /no such file/],
    [['report', 'FIXTURE', '--reference', '/nonexistent.jsonl'], /nonexistent\.jsonl: no such file/],
    [['report', 'FIXTURE', '--resamples', '3'], /--resamples must be an integer from 10/],
    [['report', 'BROKEN'], /line 1 is not a valid session record: context.listPrice/],
    [['report', 'EMPTY'], /holds no sessions/],
  ])('bad input %j: one line on stderr, exit code 2', async (args, message) => {
    const dir = tmp();
    const broken = join(dir, 'broken.jsonl');
    const empty = join(dir, 'empty.jsonl');
    const line = JSON.parse(readFileSync(FIXTURE, 'utf8').split('\n')[0] as string);
    line.context.listPrice = -1;
    writeFileSync(broken, `${JSON.stringify(line)}\n`);
    writeFileSync(empty, '');
    const resolved = (args as string[]).map((a) =>
      a === 'FIXTURE' ? FIXTURE : a === 'BROKEN' ? broken : a === 'EMPTY' ? empty : a,
    );
    const io = captureIo();
    expect(await runCli(resolved, io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it("--margin sets the verdicts' equivalence margin: at ±2 pp the card's 2,000 sessions cannot tell", async () => {
    const dir = tmp();
    const run = join(dir, 'run.jsonl');
    writeCountedRun(run, { sessions: 6000, deals: 2292 });
    const out = join(dir, 'card.html');
    const card = 'card:qwen3-4b-negotiation-50k-ep3';
    const io = captureIo();
    expect(
      await runCli(['report', run, '--reference', card, '--out', out, '--margin', '2'], io),
      io.err(),
    ).toBe(0);
    const row =
      readFileSync(out, 'utf8').match(/<tr data-reference-row="50k-ep3-deal-rate"[^>]*>/)?.[0] ?? '';
    expect(row).toContain('data-verdict="cannot-tell"');
    expect(row).toContain('data-margin="0.02"');
    expect(io.out()).toContain("cannot tell: the card's 2,000 sessions alone give −2.1/+2.2 pp");
    // At the default ±2.5 pp, 6,000 sessions at 38.2% are consistent.
    const plain = captureIo();
    expect(await runCli(['report', run, '--reference', card, '--out', out], plain)).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(
      /data-reference-row="50k-ep3-deal-rate"[^>]*data-verdict="consistent"/,
    );
    const bad = captureIo();
    expect(await runCli(['report', run, '--reference', card, '--margin', 'x'], bad)).toBe(2);
    expect(bad.err()).toMatch(/--margin must be percentage points/);
  });
});
