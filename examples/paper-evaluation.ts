// For researchers: the shape of the "Do Small Language Models Learn to Negotiate?" evaluation, small.
// Seller arms (a base model, a GRPO-trained one, a baseline) against two LLM buyers, on one seeded
// suite, from an experiment file: `haggle evaluate --experiment`. Here `haggle serve` of the tiny
// fixture model (random weights, real Qwen3 tokenizer, constrained decoding) stands in for vLLM serving
// the sellers and for the hosted frontier buyers, so it runs anywhere in a minute or two; see
// docs/evaluation.md, "Reproducing the preprint's setup", for real checkpoints and hosted models.
// Run: npx tsx examples/paper-evaluation.ts [outDir] [--scenarios N] [--seeds N]
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixtureModel } from '../scripts/fixture-model/write-model-folder.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const outDir = resolve(args[0] && !args[0].startsWith('--') ? args[0] : 'runs/paper-evaluation');
mkdirSync(outDir, { recursive: true });

// The fixture model, built once into the git-ignored .cache/ (what `npm run fixture:model` writes).
const model = join(repo, '.cache', 'fixture-model-v4-seed-1');
if (!existsSync(join(model, 'fixture.json')))
  writeFixtureModel(model, 1, { replace: false, logitsToKeep: true });

// The `haggle` command from this checkout's source (in your project: `npx haggle ...`).
const haggle = (...argv: string[]) =>
  [process.execPath, ['--import', 'tsx', join(repo, 'src/cli/bin.ts'), ...argv]] as const;

/** Starts `haggle serve` under some model names and resolves with its URL once it listens. */
function serve(names: string[]): Promise<{ url: string; process: ChildProcess }> {
  const [node, argv] = haggle(
    'serve',
    '--backend',
    'onnx',
    '--model',
    model,
    '--port',
    '0',
    // A random model writes until the budget; 48 tokens keep its turns short (the decoder closes the JSON).
    '--max-tokens',
    '48',
    ...names.flatMap((name) => ['--served-model-name', name]),
  );
  const child = spawn(node, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const url = /at (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolveUrl({ url, process: child });
    });
    child.once('exit', (code) => reject(new Error(`haggle serve exited with ${code} before listening`)));
  });
}

const servers: ChildProcess[] = [];
let exitCode = 1;
try {
  // One server for the seller checkpoints (as vLLM serves a base model and its LoRA adapters under
  // several names) and one for the buyers (as two hosted APIs would be).
  const [sellers, buyers] = await Promise.all([
    serve(['qwen3-4b-base', 'qwen3-4b-grpo']),
    serve(['frontier-a', 'frontier-b']),
  ]);
  servers.push(sellers.process, buyers.process);

  // The experiment file: everything a rerun needs, no secret (a hosted buyer names its key's variable).
  const llm = (baseURL: string, name: string, extra: Record<string, unknown> = {}) => ({
    baseURL,
    model: name,
    maxTokens: 48,
    ...extra,
  });
  const experiment = {
    name: 'paper-evaluation (fixture stand-ins)',
    suite: { generate: { seed: 2026, scenarios: option('scenarios', 2), seedsPerPair: option('seeds', 2) } },
    arms: {
      'qwen3-4b-base': { llm: llm(sellers.url, 'qwen3-4b-base'), family: 'qwen3' },
      'qwen3-4b-grpo': {
        llm: llm(sellers.url, 'qwen3-4b-grpo', { sampling: { temperature: 1.0, seed: 1 } }),
        family: 'qwen3',
        base: 'qwen3-4b-base',
      },
      'utility-boulware': { baseline: 'utility-boulware' },
    },
    opponents: {
      // Labels for the analyses: buyer A's family was in the training pool, buyer B's was not.
      'frontier-a': { llm: llm(buyers.url, 'frontier-a'), family: 'family-a', trainingPool: true },
      'frontier-b': { llm: llm(buyers.url, 'frontier-b'), family: 'family-b', trainingPool: false },
    },
    roles: 'seller',
    maxRounds: 6,
    concurrency: 4,
    matchTimeoutMs: 120_000,
    out: 'tournament.jsonl',
  };
  const file = join(outDir, 'experiment.json');
  writeFileSync(file, `${JSON.stringify(experiment, null, 2)}\n`);
  console.log(`experiment: ${file}`);

  const [node, argv] = haggle('evaluate', '--experiment', file, '--overwrite', '--no-progress');
  const evaluate = spawn(node, argv, { stdio: 'inherit' });
  exitCode = await new Promise<number>((done) => evaluate.once('exit', (code) => done(code ?? 1)));
  console.log(`\nmatches: ${join(outDir, 'tournament.jsonl')} (haggle report it for the HTML page)`);
} finally {
  // SIGTERM stops `haggle serve` cleanly (it closes the port and the model); wait for both to end.
  await Promise.all(
    servers.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
    ),
  );
}
process.exit(exitCode);
