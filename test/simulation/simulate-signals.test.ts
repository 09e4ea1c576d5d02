import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PopulationAgent, readRunFile, simulate } from '../../src/index.js';

const CHILD = new URL('./fixtures/slow-run-child.ts', import.meta.url).pathname;
const SESSIONS = 400;
const SEED = 31;

function start(out: string, witness: string, mode?: 'resume'): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, out, witness, String(SESSIONS), String(SEED), ...(mode ? [mode] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function ended(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

/** The indices the child's session-end listener logged: sessions that had finished. */
function witnessed(path: string): number[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

describe('a slow run at concurrency 8, stopped by a signal', () => {
  it.each(['SIGINT', 'SIGKILL'] as const)(
    '%s: every finished session is on file, --resume completes it, the bytes equal an uninterrupted run',
    async (signal) => {
      const dir = mkdtempSync(join(tmpdir(), 'haggle-signal-'));
      const out = join(dir, 'run.jsonl');
      const witness = join(dir, 'finished.log');
      const whole = join(dir, 'whole.jsonl');
      // The slow negotiator's turns are a PopulationAgent's: the uninterrupted file comes from the fast one.
      await simulate({
        buyer: new PopulationAgent(),
        seller: new PopulationAgent(),
        sessions: SESSIONS,
        seed: SEED,
        concurrency: 3,
        out: whole,
      }).done();

      const child = start(out, witness);
      const first = ended(child);
      let exited = false;
      void first.then(() => (exited = true));
      while (!exited && witnessed(witness).length < 60) await new Promise((r) => setTimeout(r, 5));
      child.kill(signal);
      const stopped = await first;
      if (signal === 'SIGKILL') expect(stopped.signal, stopped.stderr).toBe('SIGKILL');
      else expect(stopped.code, stopped.stderr).toBe(130);

      const finished = witnessed(witness);
      const onFile = readRunFile(out).sessions.map((s) => s.index);
      expect(finished.length).toBeGreaterThanOrEqual(60);
      expect(onFile.length).toBeLessThan(SESSIONS);
      // Every session that finished before the signal is on file.
      expect(onFile).toEqual(expect.arrayContaining(finished));
      if (signal === 'SIGINT') {
        // A clean stop: the file holds exactly the finished sessions, and the run says how many.
        expect([...onFile].sort((a, b) => a - b)).toEqual([...finished].sort((a, b) => a - b));
        expect(stopped.stderr).toContain(`on file: ${onFile.length}\n`);
      } else {
        // A kill may land between a session's write and its log line: one more on file at most.
        expect(onFile.length - finished.length).toBeLessThanOrEqual(1);
      }
      // They were appended as they finished, not in session order (what the test is about).
      const fileOrder = readFileSync(out, 'utf8')
        .split('\n')
        .slice(1)
        .filter((line) => line.endsWith('}'))
        .map((line) => (JSON.parse(line) as { index: number }).index);
      expect(fileOrder).not.toEqual([...fileOrder].sort((a, b) => a - b));

      const resumed = await ended(start(out, witness, 'resume'));
      expect(resumed.code, resumed.stderr).toBe(0);
      const sessions = readRunFile(out).sessions;
      expect(sessions).toHaveLength(SESSIONS);
      expect(new Set(sessions.map((s) => s.index)).size).toBe(SESSIONS);
      expect(JSON.parse(resumed.stdout).sessions).toBe(SESSIONS);
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    },
    60_000,
  );
});
