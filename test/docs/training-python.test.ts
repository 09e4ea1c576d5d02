import { type ChildProcess, execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { generateSuite, saveSuite } from '../../src/evaluation/suite.js';
import { readTournamentFile } from '../../src/evaluation/tournament-file.js';
import { startEnvServe } from '../env/env-serve-process.js';
import { readDocBlocks } from './doc-blocks.js';

// docs/training.md's Python recipe, its client block run as written (OpenEnv's GenericEnvClient) against
// `haggle env serve`, where Python and every package the docs list for it are installed. Where they are
// not (haggle's own machines have no openenv-core), the test is skipped with the missing ones named;
// test/env/openenv-python-client.test.ts plays the same protocol from Python's standard library there.
const repoRoot = new URL('../..', import.meta.url).pathname;
const DRIVER = new URL('./training_recipe_driver.py', import.meta.url).pathname;
const EPISODES = 6;

/** The modules the docs list for the client block (`pip install openenv-core websockets ...`). */
const CLIENT_MODULES = ['openenv', 'websockets', 'pydantic', 'requests', 'fastapi', 'fastmcp', 'uvicorn'];

const block = readDocBlocks(repoRoot, 'docs/training.md').find(
  (b) => b.language === 'python' && b.runnable && b.code.includes('GenericEnvClient'),
);

/** Why the recipe cannot run here, or undefined when it can. */
function missingPython(): string | undefined {
  const probe = spawnSync(
    'python3',
    [
      '-c',
      'import importlib.util, sys; print(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))',
      ...CLIENT_MODULES,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (probe.error || probe.status !== 0)
    return `python3 is not available (${probe.error?.message ?? probe.stderr})`;
  const missing = probe.stdout.trim();
  if (missing !== '') return `the Python packages of docs/training.md are not installed: missing ${missing}`;
  // Every module is there; the import the recipe makes must work too (it pulls OpenEnv's server side).
  const recipeImport = spawnSync(
    'python3',
    ['-c', 'from openenv.core.generic_client import GenericEnvClient'],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  if (recipeImport.status !== 0)
    return `\`from openenv.core.generic_client import GenericEnvClient\` fails: ${recipeImport.stderr.trim().split('\n').at(-1)}`;
  return undefined;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

it('docs/training.md marks its GenericEnvClient block runnable and lists every package it imports', () => {
  expect(block, 'a ```python runnable block with GenericEnvClient').toBeDefined();
  const install = readDocBlocks(repoRoot, 'docs/training.md').find(
    (b) => b.language === 'sh' && b.code.includes('pip install openenv-core'),
  );
  const listed = new Set(install?.code.match(/[a-z][a-z0-9-]+/g));
  for (const module of CLIENT_MODULES)
    expect(listed.has(module === 'openenv' ? 'openenv-core' : module), module).toBe(true);
  expect(listed.has('trl')).toBe(true);
});

it("docs/training.md's client code plays episodes against haggle env serve, as the server records them", async (context) => {
  const why = missingPython();
  if (why !== undefined) {
    console.log(`skipped: ${why}`);
    context.skip(why);
  }
  const dir = mkdtempSync(join(tmpdir(), 'haggle-training-recipe-'));
  const suite = join(dir, 'suite.json');
  const out = join(dir, 'rollouts.jsonl');
  const code = join(dir, 'client_block.py');
  saveSuite(suite, generateSuite({ seed: 41, scenarios: 6, seedsPerPair: 1 }));
  writeFileSync(code, block?.code ?? '');
  const server = await startEnvServe(
    ['--env', 'multi-issue-seller', '--suite', suite, '--opponent', 'utility-conceder', '--out', out],
    { track: children },
  );
  // A memory ceiling and a kill timeout: a client that hangs must not stall the run.
  const { stdout } = await promisify(execFile)(
    'prlimit',
    ['--as=4294967296', '--', 'python3', DRIVER, code, server.url, String(EPISODES)],
    { timeout: 120_000, killSignal: 'SIGKILL' },
  );
  const episodes = stdout
    .trim()
    .split('\n')
    .map(
      (line) => JSON.parse(line) as { seed: number; steps: number; completions: string[]; reward: number },
    );
  expect(episodes).toHaveLength(EPISODES);
  // What the client saw is what the server recorded: each episode's texts and reward, by seed.
  const records = readTournamentFile(out).records.map(
    (record) =>
      (record as unknown as { episode: { seed: number; reward: number; rawTexts: string[] } }).episode,
  );
  expect(records).toHaveLength(EPISODES);
  for (const episode of episodes) {
    const recorded = records.find((record) => record.seed === episode.seed);
    expect(recorded?.rawTexts, `seed ${episode.seed}`).toEqual(episode.completions);
    expect(recorded?.reward, `seed ${episode.seed}`).toBe(episode.reward);
    expect(episode.steps).toBeGreaterThan(0);
  }
}, 180_000);
