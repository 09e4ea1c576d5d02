import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { readTournamentFile } from '../../src/evaluation/index.js';
import { readRunFile } from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';

/**
 * Two real `haggle` processes started together on one output file: the lock lets one write and
 * refuses the other with exit 2, and the file stays whole. CI plays a few trials of each;
 * `HAGGLE_RACE_TRIALS=20 npx vitest run test/cli/run-file-lock-race.test.ts` plays twenty.
 */
const TRIALS = Number(process.env.HAGGLE_RACE_TRIALS ?? 2);
const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;
// A runaway child (a lock that never lets go, a run that never ends) fails the test instead of
// outliving it.
const CHILD_LIMIT_MS = 60_000;
const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-lock-race-'));

interface Finished {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

interface Started {
  child: ChildProcess;
  pid: number;
  finished: Promise<Finished>;
}

function start(args: readonly string[]): Started {
  const child = spawn(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', BIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const killer = setTimeout(() => child.kill('SIGKILL'), CHILD_LIMIT_MS);
  const finished = new Promise<Finished>((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ pid: child.pid as number, code, signal, stderr });
    }),
  );
  return { child, pid: child.pid as number, finished };
}

/**
 * Starts two writers in the same tick. The one refused exits 2 naming the other's PID and the lock;
 * the other, still writing a long run, is stopped with `stop` (a clean interrupt, exit 130) or left to
 * finish (exit 0). Returns the two outcomes, refused first.
 */
async function race(
  a: readonly string[],
  b: readonly string[],
  lockPath: string,
  stop: NodeJS.Signals | 'finish',
): Promise<{ refused: Finished; writer: Finished }> {
  const pair = [start(a), start(b)];
  const first = await Promise.race(pair.map((p) => p.finished));
  const other = pair.find((p) => p.pid !== first.pid) as Started;
  expect(first.stderr, 'the first to end is the one refused').toMatch(/haggle: .*is being written by/);
  expect(first.code).toBe(2);
  expect(first.stderr).toContain(`process ${other.pid} on `);
  expect(first.stderr).toContain(`lock file ${lockPath}`);
  expect(first.stderr).toContain(`delete ${lockPath}`);
  if (stop !== 'finish') other.child.kill(stop);
  const writer = await other.finished;
  expect(writer.code, writer.stderr).toBe(stop === 'finish' ? 0 : 130);
  expect(existsSync(lockPath), 'the writer removed its lock').toBe(false);
  return { refused: first, writer };
}

/** Every line of the file is one JSON value and it ends with a newline: nothing interleaved or torn. */
function expectWholeLines(path: string): void {
  const text = readFileSync(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  const broken = lines.findIndex((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  expect(broken, `line ${broken + 1} is not JSON`).toBe(-1);
}

async function interruptedRun(out: string, args: readonly string[], atLeast: number): Promise<void> {
  const controller = new AbortController();
  const running = runCli([...args, '--out', out, '--no-progress'], captureIo(), controller.signal);
  const lines = () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').length - 2 : 0);
  while (lines() < atLeast) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort(new Error('interrupted'));
  expect(await running).toBe(130);
}

const LONG_RUN = ['simulate', '-n', '200000', '-c', '4', '--no-progress'];

describe(`two writers on one run file, started together (${TRIALS} trials each)`, () => {
  let dir: string;
  let partial: string;
  let suite: string;
  let shards: string[];
  let merged: string;

  beforeAll(async () => {
    dir = tmp();
    partial = join(dir, 'partial.jsonl');
    await interruptedRun(partial, [...LONG_RUN, '-s', '3'], 40);
    suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '200', '--seeds-per-pair', '50'], captureIo()),
    ).toBe(0);
    shards = [1, 2].map((k) => join(dir, `shard-${k}.jsonl`));
    for (const [k, shard] of shards.entries())
      expect(
        await runCli(
          ['simulate', '-n', '3000', '-s', '1', '--shard', `${k + 1}/2`, '--out', shard, '--no-progress'],
          captureIo(),
        ),
      ).toBe(0);
    merged = join(dir, 'merged.jsonl');
    expect(await runCli(['merge', ...shards, '--out', merged], captureIo())).toBe(0);
  }, 120_000);
  // Tens of megabytes of shards and runs: not left in /tmp.
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'simulate --resume: one resumes, the other exits 2, the file is whole (SIGTERM ends the writer)',
    async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const out = join(dir, `resume-${trial}.jsonl`);
        copyFileSync(partial, out);
        const args = [...LONG_RUN, '-s', '3', '--out', out, '--resume'];
        await race(args, args, `${out}.lock`, 'SIGTERM');
        expectWholeLines(out);
        expect(readRunFile(out).sessions.length).toBeGreaterThanOrEqual(40);
      }
    },
    60_000 + TRIALS * 30_000,
  );

  it(
    'simulate --overwrite with two seeds on a new path: the file is the writer’s run (SIGINT ends it)',
    async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const out = join(dir, `new-${trial}`, 'run.jsonl');
        const seeded = (seed: number) => [...LONG_RUN, '-s', String(seed), '--out', out, '--overwrite'];
        const { writer } = await race(seeded(5), seeded(9), `${out}.lock`, 'SIGINT');
        expectWholeLines(out);
        const run = readRunFile(out);
        const seed = writer.stderr.includes('-s 5') ? 5 : 9;
        expect(run.header?.seed).toBe(seed);
      }
    },
    60_000 + TRIALS * 30_000,
  );

  it(
    'a stale lock found by both at once: one takes it over (with a note), the other exits 2 naming it',
    async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const out = join(dir, `stale-${trial}.jsonl`);
        copyFileSync(partial, out);
        const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
        const dead = Number(String(gone.stdout));
        writeFileSync(
          `${out}.lock`,
          `${JSON.stringify({ pid: dead, host: hostname(), started: '2026-01-02T03:04:05.000Z', nonce: 'x' })}\n`,
        );
        const args = [...LONG_RUN, '-s', '3', '--out', out, '--resume'];
        const { writer } = await race(args, args, `${out}.lock`, 'SIGTERM');
        expect(writer.stderr).toContain(
          `haggle: note: ${out}: took over the stale lock ${out}.lock of process ${dead}`,
        );
        expectWholeLines(out);
      }
    },
    60_000 + TRIALS * 30_000,
  );

  it(
    'evaluate --resume: one resumes, the other exits 2, the file is whole',
    async () => {
      const started = join(dir, 'tournament.jsonl');
      const args = ['evaluate', '--suite', suite, '--arm', 'utility-linear', '--arm', 'utility-conceder'];
      await interruptedRun(started, args, 20);
      for (let trial = 0; trial < TRIALS; trial++) {
        const out = join(dir, `tournament-${trial}.jsonl`);
        copyFileSync(started, out);
        const resume = [...args, '--out', out, '--resume', '--no-progress'];
        await race(resume, resume, `${out}.lock`, 'SIGTERM');
        expectWholeLines(out);
        expect(readTournamentFile(out).records.length).toBeGreaterThanOrEqual(20);
      }
    },
    60_000 + TRIALS * 30_000,
  );

  it(
    'merge: one writes the whole run, the other exits 2, the file is the merged run byte for byte',
    async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const out = join(dir, `merge-${trial}.jsonl`);
        const args = ['merge', ...shards, '--out', out];
        const pair = [start(args), start(args)];
        const results = await Promise.all(pair.map((p) => p.finished));
        const codes = results.map((r) => r.code).sort();
        // Merging is quick: the second may find the lock, or come after the first and find its file.
        expect(codes).toEqual([0, 2]);
        const refused = results.find((r) => r.code === 2) as Finished;
        expect(refused.stderr).toMatch(/is being written by another haggle process|already holds data/);
        // Buffer.equals: a deep equality over megabytes would take minutes.
        expect(readFileSync(out).equals(readFileSync(merged)), 'the merged file, byte for byte').toBe(true);
        expect(existsSync(`${out}.lock`)).toBe(false);
        expect(statSync(out).size).toBeGreaterThan(0);
      }
    },
    60_000 + TRIALS * 30_000,
  );
});
