import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeMetrics, summarize } from '../../src/entries/metrics.js';
import { loadSessions, PopulationAgent, readRunFile, simulate } from '../../src/index.js';

const CHILD = new URL('./fixtures/simulate-child.ts', import.meta.url).pathname;
const SESSIONS = 5000;
const SEED = 2026;

function startChild(out: string, mode?: 'resume'): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, out, String(SESSIONS), String(SEED), ...(mode ? [mode] : [])],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

/** Counts the complete lines of a growing file, reading only what was added since the last call. */
class LineCounter {
  private offset = 0;
  lines = 0;

  constructor(private readonly path: string) {}

  update(): number {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return this.lines;
    }
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (read === 0) break;
        for (let i = 0; i < read; i++) if (buffer[i] === 0x0a) this.lines++;
        this.offset += read;
      }
    } finally {
      closeSync(fd);
    }
    return this.lines;
  }
}

describe('a run killed with SIGKILL', () => {
  it('resumes to exactly 5,000 distinct sessions with the metrics of an uninterrupted run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-kill-'));
    const killed = join(dir, 'killed.jsonl');
    const whole = join(dir, 'whole.jsonl');

    // A random point, somewhere in the run: printed so a failure can be reproduced by hand.
    const killAfter = 200 + Math.floor(Math.random() * 4000);
    console.log(`kill test: SIGKILL once ${killAfter} sessions are on file`);
    const child = startChild(killed);
    const ended = exited(child);
    let finished = false;
    void ended.then(() => (finished = true));
    const counter = new LineCounter(killed);
    // The header is line 1; sessions follow.
    while (!finished && counter.update() - 1 < killAfter) await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    const first = await ended;
    expect(first.signal, `the child finished before the kill: ${first.stderr}`).toBe('SIGKILL');
    const onFile = readRunFile(killed).sessions.length;
    expect(onFile).toBeGreaterThanOrEqual(killAfter);
    expect(onFile).toBeLessThan(SESSIONS);

    const resumed = startChild(killed, 'resume');
    let stdout = '';
    resumed.stdout?.on('data', (chunk) => (stdout += String(chunk)));
    const second = await exited(resumed);
    expect(second.code, second.stderr).toBe(0);

    const uninterrupted = await simulate({
      buyer: new PopulationAgent(),
      seller: new PopulationAgent(),
      sessions: SESSIONS,
      seed: SEED,
      concurrency: 3, // another concurrency on purpose: results must not depend on it
      out: whole,
    }).done();

    const sessions = loadSessions(killed);
    expect(sessions).toHaveLength(SESSIONS);
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(SESSIONS);
    expect(new Set(readRunFile(killed).sessions.map((s) => s.index)).size).toBe(SESSIONS);
    // The resumed process reports the summary of the whole run, kept sessions included.
    expect(JSON.parse(stdout)).toEqual(uninterrupted);
    expect(summarize(sessions)).toEqual(uninterrupted);
    const options = { resamples: 50, seed: 1 };
    expect(computeMetrics(sessions, options)).toEqual(computeMetrics(loadSessions(whole), options));
    expect(readFileSync(killed, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });
});
