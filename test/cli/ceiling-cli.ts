import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The CLI as a real process under a memory ceiling (RLIMIT_DATA: V8's and WebAssembly's address-space
 * reservations make an --as ceiling unusable for Node) and a kill timeout, for the tests that feed it
 * hostile or endless input: a regression fails the test instead of taking the machine down.
 */
export const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;
const PEAK_PRELOAD = new URL('./report-peak-rss.mjs', import.meta.url).href;
export const DATA_CEILING = 1024 * 1024 * 1024;
export const KILL_AFTER_MS = 60_000;

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Collects a child's output until it closes; its whole process group is killed after `KILL_AFTER_MS`. */
export function ended(child: ChildProcess): Promise<Ended> {
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  // The whole process group: a regression must not outlive the test.
  const killer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), KILL_AFTER_MS);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    }),
  );
}

/**
 * `haggle ARGS` under the ceiling (with `env` added to the environment), with its peak resident memory
 * in KiB, which the process reports itself at exit (report-peak-rss.mjs); 0 when it did not exit by
 * itself (killed at the ceiling).
 */
export async function haggleUnderCeiling(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Ended & { peakKiB: number }> {
  const peakFile = join(mkdtempSync(join(tmpdir(), 'haggle-peak-')), 'peak');
  const child = spawn(
    'prlimit',
    [`--data=${DATA_CEILING}`, process.execPath, '--import', 'tsx', '--import', PEAK_PRELOAD, BIN, ...args],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, HAGGLE_TEST_PEAK_FILE: peakFile },
    },
  );
  const result = await ended(child);
  const peak = existsSync(peakFile) ? readFileSync(peakFile, 'utf8').trim() : '0';
  return { ...result, peakKiB: Number(peak) };
}
