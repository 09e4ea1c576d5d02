import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PopulationAgent, RunFileError, readRunFile, simulate } from '../../src/index.js';
import { RunWriter } from '../../src/simulation/run-writer.js';
import { slowPopulation } from './fixtures/slow-negotiator.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-run-io-'));
const population = new PopulationAgent();
const run = (out: string, extra: Record<string, unknown> = {}) =>
  simulate({ buyer: population, seller: population, sessions: 30, seed: 4, out, ...extra }).done();

async function failure(promise: Promise<unknown>): Promise<RunFileError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunFileError);
  return error as RunFileError;
}

describe('run files on disk', () => {
  it('creates the parent folders of `out`', async () => {
    const out = join(tmp(), 'runs', 'deep', 'a.jsonl');
    expect((await run(out)).sessions).toBe(30);
    expect(readRunFile(out).sessions).toHaveLength(30);
  });

  it('a folder as `out` and a path through a file (ENOTDIR) are one-line RunFileErrors', async () => {
    const dir = tmp();
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const isDir = await failure(run(folder));
    expect(isDir.message).toBe(`${folder}: is a folder, not a regular file: name a file to write the run to`);
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const notDir = await failure(run(join(file, 'runs', 'a.jsonl')));
    expect(notDir.systemCode).toBe('ENOTDIR');
    expect(notDir.message).not.toContain('\n');
  });

  it('a folder it may not write to: EACCES (as root, whom mode bits do not bind: a path in /proc, refused first)', async () => {
    // Root ignores a folder's mode bits, so there the test writes where the kernel refuses: /proc/1 is
    // not writable even by root, and is refused before anything is tried, as a kernel file system.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const error = await failure(run('/proc/1/haggle-run.jsonl'));
      expect(error.message).toMatch(/lies on the kernel's proc file system/);
      return;
    }
    const locked = join(tmp(), 'locked');
    mkdirSync(locked, { mode: 0o500 });
    const error = await failure(run(join(locked, 'a.jsonl')));
    expect(['EACCES', 'EPERM', 'EROFS']).toContain(error.systemCode);
    // The lock file is the first thing written beside the run.
    expect(error.message).toMatch(/^\/.*: creating its lock file .* failed: .* \(E[A-Z]+\)$/);
  });

  it('a full disk (/dev/full): ENOSPC, one line, from the writer; a run refuses the device before writing', async () => {
    expect(existsSync('/dev/full'), 'Linux has /dev/full').toBe(true);
    expect(() => RunWriter.start('/dev/full', { type: 'run' })).toThrow(
      '/dev/full: writing the run header failed: the disk is full: free some space (ENOSPC)',
    );
    const error = await failure(run('/dev/full'));
    expect(error.message).toBe('/dev/full: is a device, not a regular file: name a file to write the run to');
  });

  it('a final rewrite that cannot be made keeps every session and is resumable', async () => {
    const dir = tmp();
    const out = join(dir, 'run.jsonl');
    const whole = join(dir, 'whole.jsonl');
    await run(whole);
    // Something in the way of the temporary file: the rewrite fails, the appended file stays.
    mkdirSync(`${out}.haggle-tmp`);
    const slow = slowPopulation();
    const error = await failure(
      simulate({ buyer: slow, seller: slow, sessions: 30, seed: 4, concurrency: 8, out }).done(),
    );
    expect(error.resumable).toBe(true);
    expect(error.message).toMatch(/writing the final file .*is a folder/);
    expect(readRunFile(out).sessions.map((s) => s.index)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    rmdirSync(`${out}.haggle-tmp`);
    expect((await run(out, { resume: true })).sessions).toBe(30);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('resume refuses a file without a run header, or holding sessions the run does not play, and leaves it as it was', async () => {
    const dir = tmp();
    const headerless = join(dir, 'real.jsonl');
    const real = readFileSync(new URL('./fixtures/small-real-sessions.jsonl', import.meta.url));
    writeFileSync(headerless, Buffer.concat([real, Buffer.from('{"type":"sess')])); // torn last line too
    const error = await failure(run(headerless, { resume: true }));
    expect(error.message).toMatch(/has no run header .* refusing to resume or change it/);
    expect(readFileSync(headerless)).toEqual(Buffer.concat([real, Buffer.from('{"type":"sess')]));

    const bigger = join(dir, 'bigger.jsonl');
    await simulate({ buyer: population, seller: population, sessions: 30, seed: 4, out: bigger }).done();
    const lines = readFileSync(bigger, 'utf8').split('\n');
    // Session 40 in a 30-session run's file: not this run's.
    const stray = `${(lines[1] as string).replace('"index":0,', '"index":40,')}\n`;
    writeFileSync(bigger, `${lines.slice(0, 5).join('\n')}\n${stray}`);
    const before = readFileSync(bigger);
    expect((await failure(run(bigger, { resume: true }))).message).toMatch(
      /holds session 40, which this run does not play/,
    );
    expect(readFileSync(bigger)).toEqual(before);
  });

  it('a file with one session twice is refused when read', async () => {
    const out = join(tmp(), 'twice.jsonl');
    await run(out);
    const lines = readFileSync(out, 'utf8').split('\n');
    writeFileSync(out, `${[...lines.slice(0, 4), lines[2]].join('\n')}\n`);
    expect(() => readRunFile(out)).toThrow(/lines 3 and 5 both hold session 1/);
  });
});
