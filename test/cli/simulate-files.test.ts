import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { readRunFile } from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-cli-files-'));

async function oneLineFailure(args: string[]): Promise<string> {
  const io = captureIo();
  expect(await runCli(args, io)).toBe(2);
  const lines = io.err().trim().split('\n');
  expect(lines, io.err()).toHaveLength(1);
  expect(io.err()).not.toMatch(/\n\s+at /); // no stack trace
  return lines[0] as string;
}

describe('haggle simulate --out: files', () => {
  it("the README's research command works where runs/ does not exist yet", async () => {
    const out = join(tmp(), 'runs', 'a.jsonl');
    const args = [
      'simulate',
      '--sessions',
      '60',
      '--seed',
      '7',
      '--buyer',
      'population',
      '--seller',
      'boulware',
    ];
    expect(await runCli([...args, '--out', out], captureIo())).toBe(0);
    expect(readRunFile(out).sessions).toHaveLength(60);
  });

  it('a folder as --out, a path through a file and a device: one line each, exit 2', async () => {
    const dir = tmp();
    expect(await oneLineFailure(['simulate', '-n', '5', '--out', dir])).toBe(
      `haggle: ${dir}: is a folder, not a regular file: name a file to write the run to`,
    );
    const file = join(dir, 'file');
    writeFileSync(file, '');
    expect(await oneLineFailure(['simulate', '-n', '5', '--out', join(file, 'a.jsonl')])).toMatch(
      /\(ENOTDIR\)$/,
    );
    // A device is refused before anything is written (the writer's ENOSPC: test/simulation/run-file-io).
    expect(await oneLineFailure(['simulate', '-n', '5', '--out', '/dev/full'])).toBe(
      'haggle: /dev/full: is a device, not a regular file: name a file to write the run to',
    );
  });

  it('a failure that leaves resumable work says, in the same line, the command that resumes it', async () => {
    const out = join(tmp(), 'run.jsonl');
    mkdirSync(`${out}.haggle-tmp`); // in the way of the final rewrite
    const line = await oneLineFailure(['simulate', '-n', '200', '--out', out, '--overwrite']);
    expect(line).toMatch(
      /writing the final file .* failed: is a folder, not a file \(EISDIR\); once fixed, resume with: /,
    );
    expect(line.endsWith(`resume with: haggle simulate -n 200 --out ${out} --resume`)).toBe(true);
    rmdirSync(`${out}.haggle-tmp`);
    expect(await runCli(['simulate', '-n', '200', '--out', out, '--resume'], captureIo())).toBe(0);
    const whole = join(tmp(), 'whole.jsonl');
    expect(await runCli(['simulate', '-n', '200', '--out', whole], captureIo())).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('--resume refuses a file without a run header and leaves it untouched', async () => {
    const out = join(tmp(), 'notes.jsonl');
    writeFileSync(out, '{"some":"data"}\n{"type":"session"');
    const line = await oneLineFailure(['simulate', '-n', '5', '--out', out, '--resume']);
    expect(line).toMatch(/has no run header .*refusing to resume or change it.*--overwrite/);
    expect(readFileSync(out, 'utf8')).toBe('{"some":"data"}\n{"type":"session"');
  });

  it('evaluate --out creates its folder too', async () => {
    const dir = tmp();
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '3', '--seeds-per-pair', '1'], captureIo()),
    ).toBe(0);
    const out = join(dir, 'results', 'eval.jsonl');
    const io = captureIo();
    expect(
      await runCli(
        ['evaluate', '--suite', suite, '--arm', 'utility-linear', '--out', out, '--no-progress'],
        io,
      ),
    ).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(/^\{"type":"tournament"/);
  });
});

describe('haggle simulate --contexts', () => {
  const contexts = [
    { item: { title: 'Desk lamp' }, listPrice: 25 },
    { item: { title: 'Road bike' }, listPrice: 900 },
  ];

  it('plays one session per context by default', async () => {
    const dir = tmp();
    const file = join(dir, 'contexts.json');
    writeFileSync(file, JSON.stringify(contexts));
    const io = captureIo();
    expect(await runCli(['simulate', '--contexts', file, '--json'], io)).toBe(0);
    expect(JSON.parse(io.out()).sessions).toBe(2);
  });

  it('more sessions than contexts is a usage error that says what to pass, unless --cycle-contexts', async () => {
    const dir = tmp();
    const file = join(dir, 'contexts.json');
    writeFileSync(file, JSON.stringify(contexts));
    expect(await oneLineFailure(['simulate', '--contexts', file, '-n', '500'])).toBe(
      `haggle: --sessions 500 is more than the 2 contexts in ${file} (one session each): leave out --sessions to play each once, or pass --cycle-contexts to play them in turn`,
    );
    const out = join(dir, 'run.jsonl');
    expect(
      await runCli(
        ['simulate', '--contexts', file, '-n', '5', '--cycle-contexts', '--out', out],
        captureIo(),
      ),
    ).toBe(0);
    expect(readRunFile(out).sessions.map((s) => s.context.item.title)).toEqual([
      'Desk lamp',
      'Road bike',
      'Desk lamp',
      'Road bike',
      'Desk lamp',
    ]);
    const io = captureIo();
    expect(await runCli(['simulate', '--contexts', file, '-n', '1', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out()).sessions).toBe(1);
  });
});
