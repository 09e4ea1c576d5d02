import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { DocBlock } from './doc-blocks.js';

const run = promisify(execFile);

/**
 * The `npx` a doc's shell block gets: `npx haggle` is this checkout's built CLI (bin/haggle.js), and
 * `npx NAME` for a tool the clone installs (its node_modules/.bin: esbuild, tsx) is that tool, as npx
 * finds it in a clone after `npm ci`. Anything else would be a download: the block fails instead.
 */
function npxFunction(repoRoot: string): string {
  const bin = join(repoRoot, 'node_modules', '.bin');
  return `npx() {
  if [ "$1" = haggle ]; then shift; node ${JSON.stringify(join(repoRoot, 'bin', 'haggle.js'))} "$@";
  elif [ -x ${JSON.stringify(bin)}/"$1" ]; then local tool="$1"; shift; ${JSON.stringify(bin)}/"$tool" "$@";
  else echo "runnable docs run only what a clone installs (npx haggle, its dev tools), not npx $1" >&2; return 127; fi
}
`;
}

export interface ShellBlockResult {
  /** Undefined when the block exited 0. */
  failure?: { code?: number; stderr?: string };
  stdout: string;
  stderr: string;
}

/** Runs a `sh runnable` block verbatim with `bash -euo pipefail` in `cwd`. */
export async function runShellBlock(
  repoRoot: string,
  block: DocBlock,
  cwd: string,
  timeoutMs = 60_000,
): Promise<ShellBlockResult> {
  const script = `${npxFunction(repoRoot)}${block.code}\n`;
  return run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    timeout: timeoutMs,
    env: { ...process.env, NO_COLOR: '1' },
  }).then(
    (done) => ({ stdout: done.stdout, stderr: done.stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      failure: error,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

/**
 * A folder that looks like a fresh clone after `npm ci`: the repository's files (tracked, and new ones
 * not ignored, so uncommitted work is tested too) copied, and the two things `npm ci` makes,
 * node_modules/ and the built dist/, linked. What an example's README tells a reader of the clone to
 * run, it runs here: paths such as examples/web-suggest-reply/main.ts are the clone's, and what the
 * commands write (an example's dist/) lands in the copy, never in the checkout.
 */
export function cloneLikeFolder(repoRoot: string, dir: string): Set<string> {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString('utf8')
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(repoRoot, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(repoRoot, file), join(dir, file));
  }
  for (const built of ['node_modules', 'dist']) symlinkSync(join(repoRoot, built), join(dir, built), 'dir');
  return new Set(files);
}

/** Every file under `dir` (links not followed), relative, that is not in `before`. */
export function filesWritten(dir: string, before: ReadonlySet<string> = new Set()): string[] {
  const walk = (relative: string): string[] =>
    readdirSync(join(dir, relative), { withFileTypes: true }).flatMap((entry) => {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.isSymbolicLink() || before.has(path) ? [] : [path];
    });
  return walk('');
}

/** Those of `paths` (relative to the repository root) that its .gitignore does not ignore. */
export function notIgnored(repoRoot: string, paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  // check-ignore exits 1 when none is ignored; --no-index: the paths need not exist in the checkout.
  const result = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], {
    cwd: repoRoot,
    input: paths.join('\n'),
    encoding: 'utf8',
  });
  if (result.status !== 0 && result.status !== 1) throw new Error(`git check-ignore: ${result.stderr}`);
  const ignored = new Set(result.stdout.split('\n'));
  return paths.filter((path) => !ignored.has(path));
}
