import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from '../cli/ceiling-cli.js';

/**
 * `haggle env serve` as a real child process on port 0, resolved with its URL once it prints it. With a
 * `ceiling` it runs under prlimit (RLIMIT_DATA, as test/cli/ceiling-cli.ts does for the CLI) and is
 * killed after `killAfterMs`, so a test that floods it fails instead of taking the machine down.
 */

export interface EnvServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stdout so far (its URL, then the stop line). */
  stdout: () => string;
  /** Everything it wrote to stderr so far. */
  stderr: () => string;
}

export interface EnvServeOptions {
  ceiling?: { dataBytes: number; killAfterMs: number };
  /** Where the child is pushed as soon as it is spawned, so an afterEach kills it even when it never prints a URL. */
  track?: ChildProcess[];
}

export function startEnvServe(
  args: readonly string[],
  options: EnvServeOptions = {},
): Promise<EnvServeProcess> {
  const { ceiling, track } = options;
  const serve = ['--import', 'tsx', BIN, 'env', 'serve', '--port', '0', ...args];
  const child = ceiling
    ? spawn('prlimit', [`--data=${ceiling.dataBytes}`, process.execPath, ...serve], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, serve, { stdio: ['ignore', 'pipe', 'pipe'] });
  track?.push(child);
  if (ceiling) setTimeout(() => child.kill('SIGKILL'), ceiling.killAfterMs).unref();
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /at (http:\/\/[\d.:]+)/.exec(stdout)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, stdout: () => stdout, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`haggle env serve exited ${code}: ${stderr}`));
    });
  });
}
