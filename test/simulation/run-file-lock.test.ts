import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { PopulationAgent, RunFileError, readRunFile, simulate } from '../../src/index.js';
import { mergeRuns } from '../../src/node/index.js';
import { RunFileLockedError } from '../../src/simulation/errors.js';
import { lockRunFile } from '../../src/simulation/run-file-lock.js';
import { captureIo } from '../helpers/capture-io.js';
import { slowPopulation } from './fixtures/slow-negotiator.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-run-lock-'));
const population = new PopulationAgent();
const run = (out: string, extra: Record<string, unknown> = {}) =>
  simulate({ buyer: population, seller: population, sessions: 20, seed: 4, out, ...extra });

/** The PID of a process that ran and is gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(String(child.stdout));
}

const lockOf = (pid: number, host = hostname()) =>
  `${JSON.stringify({ pid, host, started: '2026-01-02T03:04:05.000Z', nonce: 'x' })}\n`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('one writer per run file', () => {
  it('refuses a file whose lock a live process holds, naming its PID, the lock and how to clear it; nothing is touched', async () => {
    const dir = tmp();
    const out = join(dir, 'run.jsonl');
    await run(out).done();
    const before = readFileSync(out);
    // The test runner's parent is alive and is not this process: a writer elsewhere on this host.
    writeFileSync(`${out}.lock`, lockOf(process.ppid));
    for (const options of [{ resume: true }, { overwrite: true }]) {
      const error = await rejection(run(out, options).done());
      expect(error).toBeInstanceOf(RunFileLockedError);
      expect(error).toBeInstanceOf(RunFileError);
      const locked = error as RunFileLockedError;
      expect(locked.holder?.pid).toBe(process.ppid);
      expect(locked.lockPath).toBe(`${out}.lock`);
      expect(locked.message).toBe(
        `${out}: is being written by another haggle process (process ${process.ppid} on ${hostname()}, since 2026-01-02T03:04:05.000Z); ` +
          `lock file ${out}.lock. Wait for it to end or write to another file; if process ${process.ppid} on ${hostname()} is gone ` +
          `(a crash, or a machine that shares this folder), delete ${out}.lock and run again`,
      );
      expect(readFileSync(out)).toEqual(before);
    }
    // The CLI: exit 2, the same one line.
    const io = captureIo();
    expect(await runCli(['simulate', '-n', '20', '-s', '4', '--out', out, '--resume'], io)).toBe(2);
    expect(io.err()).toContain(`is being written by another haggle process (process ${process.ppid}`);
    expect(readFileSync(`${out}.lock`, 'utf8')).toBe(lockOf(process.ppid)); // never another's lock removed
  });

  it('a lock from another host is never taken over; an unreadable one is refused too', async () => {
    const out = join(tmp(), 'run.jsonl');
    writeFileSync(`${out}.lock`, lockOf(deadPid(), 'some-other-host'));
    expect(String(await rejection(run(out).done()))).toMatch(
      /another host: haggle cannot check it.*if process \d+ on some-other-host is gone/,
    );
    writeFileSync(`${out}.lock`, 'not json');
    expect(String(await rejection(run(out).done()))).toMatch(
      /is locked by a lock file haggle cannot read.*if no haggle process writes this file any more, delete/,
    );
  });

  it('takes over the stale lock of a dead process, with a note, and removes its own lock when done', async () => {
    const dir = tmp();
    const out = join(dir, 'run.jsonl');
    const dead = deadPid();
    writeFileSync(`${out}.lock`, lockOf(dead));
    const notes: string[] = [];
    const running = run(out);
    running.on('note', ({ message }) => notes.push(message));
    expect((await running.done()).sessions).toBe(20);
    expect(notes).toEqual([
      `${out}: took over the stale lock ${out}.lock of process ${dead} (started 2026-01-02T03:04:05.000Z), which no longer runs`,
    ]);
    expect(existsSync(`${out}.lock`)).toBe(false);
    expect(readRunFile(out).sessions).toHaveLength(20);

    // The CLI says it on stderr.
    writeFileSync(`${out}.lock`, lockOf(dead));
    const io = captureIo();
    expect(
      await runCli(['simulate', '-n', '20', '-s', '4', '--out', out, '--resume', '--no-progress'], io),
    ).toBe(0);
    expect(io.err()).toContain(
      `haggle: note: ${out}: took over the stale lock ${out}.lock of process ${dead}`,
    );
  });

  it('a second run in the same process is refused while the first writes', async () => {
    const out = join(tmp(), 'run.jsonl');
    const slow = slowPopulation();
    const first = simulate({ buyer: slow, seller: slow, sessions: 30, seed: 4, concurrency: 2, out });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const error = await rejection(run(out, { overwrite: true }).done());
    expect(String(error)).toMatch(/is being written by this same process/);
    expect((await first.done()).sessions).toBe(30);
    expect(readRunFile(out).sessions).toHaveLength(30);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it('removes the lock after a failure: a final rewrite that cannot be made, a merge that is refused', async () => {
    const dir = tmp();
    const out = join(dir, 'run.jsonl');
    mkdirSync(`${out}.haggle-tmp`);
    const slow = slowPopulation();
    const error = await rejection(
      simulate({ buyer: slow, seller: slow, sessions: 20, seed: 4, concurrency: 8, out }).done(),
    );
    expect(error).toBeInstanceOf(RunFileError);
    expect(existsSync(`${out}.lock`)).toBe(false);
    rmdirSync(`${out}.haggle-tmp`);

    const shard = join(dir, 'shard-1.jsonl');
    await run(shard, { shard: { index: 1, count: 2 } }).done();
    const merged = join(dir, 'merged.jsonl');
    expect(() => mergeRuns([shard], merged)).toThrow(/shard 2\/2 missing/);
    expect(existsSync(`${merged}.lock`)).toBe(false);
    expect(existsSync(merged)).toBe(false);
  });

  it('a merge onto a file another writer holds is refused before anything is written', async () => {
    const dir = tmp();
    const shards = [1, 2].map((k) => join(dir, `shard-${k}.jsonl`));
    for (const [i, shard] of shards.entries()) await run(shard, { shard: { index: i + 1, count: 2 } }).done();
    const merged = join(dir, 'merged.jsonl');
    const held = lockRunFile(merged);
    try {
      expect(() => mergeRuns(shards, merged)).toThrow(RunFileLockedError);
      expect(existsSync(merged)).toBe(false);
    } finally {
      held.release();
    }
    expect(mergeRuns(shards, merged).records).toBe(20);
    expect(existsSync(`${merged}.lock`)).toBe(false);
  });
});
