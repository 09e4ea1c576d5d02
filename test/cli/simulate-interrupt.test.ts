import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { readRunFile } from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-cli-interrupt-'));
const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;

function sessionsOnFile(path: string): number {
  try {
    return statSync(path).size === 0 ? 0 : readFileSync(path, 'utf8').split('\n').length - 2;
  } catch {
    return 0;
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('haggle simulate, interrupted', () => {
  it('stops cleanly on abort, keeps the JSONL intact, and prints the command that resumes it', async () => {
    const dir = tmp();
    const out = join(dir, 'run.jsonl');
    const controller = new AbortController();
    const io = captureIo();
    const running = runCli(
      ['simulate', '-n', '3000', '-s', '5', '--out', out, '--overwrite'],
      io,
      controller.signal,
    );
    await until(() => sessionsOnFile(out) >= 50);
    controller.abort(new Error('interrupted'));
    expect(await running).toBe(130);

    const kept = readRunFile(out).sessions.length;
    expect(readFileSync(out, 'utf8').endsWith('\n')).toBe(true);
    expect(kept).toBeGreaterThanOrEqual(50);
    expect(kept).toBeLessThan(3000);
    const lines = io.err().trim().split('\n');
    // Exactly what is on file: every session that finished, as many as the message says.
    expect(lines[0]).toBe(
      `haggle: stopped after ${kept} of 3000 sessions; ${out} holds the run header and all ${kept} finished ` +
        'sessions, one complete line each, in the order they finished (a completed run puts them in session order).',
    );
    // The same arguments, --overwrite dropped (it would throw the kept sessions away), --resume added.
    expect(lines[1]).toBe(`haggle: resume with: haggle simulate -n 3000 -s 5 --out ${out} --resume`);
    expect(lines[2]).toBe('haggle: Aborted: interrupted');

    const resume = (lines[1] as string).replace('haggle: resume with: haggle ', '').split(' ');
    const again = captureIo();
    expect(await runCli(resume, again)).toBe(0);
    expect(readRunFile(out).sessions.map((s) => s.index)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    const whole = join(dir, 'whole.jsonl');
    expect(await runCli(['simulate', '-n', '3000', '-s', '5', '--out', whole], captureIo())).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('without --out, says that nothing was saved', async () => {
    const controller = new AbortController();
    const io = captureIo();
    const running = runCli(['simulate', '-n', '100000'], io, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort(new Error('interrupted'));
    expect(await running).toBe(130);
    expect(io.err()).toMatch(
      /^haggle: stopped after \d+ of 100000 sessions; nothing was saved \(pass --out FILE/,
    );
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s to the real CLI process: exit code 130, file intact, resume command on stderr',
    async (signal) => {
      const out = join(tmp(), 'run.jsonl');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', BIN, 'simulate', '-n', '100000', '--out', out],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += String(chunk)));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await until(() => sessionsOnFile(out) >= 20);
      child.kill(signal);
      expect(await exited).toBe(130);
      const kept = readRunFile(out).sessions.length;
      expect(stderr).toContain(
        `stopped after ${kept} of 100000 sessions; ${out} holds the run header and all ${kept}`,
      );
      expect(stderr).toContain(`resume with: haggle simulate -n 100000 --out ${out} --resume`);
      expect(readFileSync(out, 'utf8').endsWith('\n')).toBe(true);
      expect(readRunFile(out).sessions.length).toBeGreaterThanOrEqual(20);
    },
  );
});
