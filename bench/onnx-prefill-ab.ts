// A/B of the local backend's batch decoder at two commits, in one process, at batch 8 with 8 requests
// in flight, the same seeds for both, in the order A, B, B, A (each side first once). A is the decoder
// of `--a` (a commit, checked out into a temporary git worktree that borrows this checkout's
// node_modules), B the decoder of this working tree. Strategies are compared this way, commit against
// commit, rather than by switches in the decode loop (haggle's choice: one path ships, and it is the
// one the tests run). Reports CPU milliseconds per token (the whole process) and checks that both give
// the same texts.
//   npx tsx bench/onnx-prefill-ab.ts --model DIR --a COMMIT [--turns N] [--temperature T]
//        [--prefill-tokens P]
// N turns per run (default 16), P the backend's prefillTokensPerRun (default 256); maxTokens 48, the
// schema of bench/onnx.ts's real-size rows, prompts of three lengths (about 60 to 75 tokens).
// The commits that each rule came in (prompts prefilled together, idle groups, StepCost widths) are in
// CHANGELOG.md; `git log -S prefillGroup src/onnx/batch-decoder.ts` finds them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { OnnxBackend } from '../src/onnx/index.js';
import { requiredModelFolder } from './shared/bare-model.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    a: { type: 'string' },
    turns: { type: 'string', default: '16' },
    temperature: { type: 'string', default: '1' },
    'prefill-tokens': { type: 'string', default: '256' },
  },
});
const folder = requiredModelFolder(args.model);
const turns = Number(args.turns);
const temperature = Number(args.temperature);
const prefillTokensPerRun = Number(args['prefill-tokens']);
if (!args.a) {
  console.error('--a COMMIT is required: the commit whose decoder is side A (side B is this working tree)');
  process.exit(2);
}
const commit = execFileSync('git', ['rev-parse', '--verify', `${args.a}^{commit}`], {
  encoding: 'utf8',
}).trim();
const checkout = join(mkdtempSync(join(tmpdir(), 'haggle-ab-')), 'a');
execFileSync('git', ['worktree', 'add', '--detach', checkout, commit], { stdio: 'ignore' });
symlinkSync(realpathSync('node_modules'), join(checkout, 'node_modules'));
const removeCheckout = () => {
  execFileSync('git', ['worktree', 'remove', '--force', checkout], { stdio: 'ignore' });
  rmSync(join(checkout, '..'), { recursive: true, force: true });
};
process.on('exit', removeCheckout);
const sideA = (await import(pathToFileURL(join(checkout, 'src', 'onnx', 'index.ts')).href)) as {
  OnnxBackend: typeof OnnxBackend;
};
const schema = {
  type: 'object',
  properties: {
    action: { enum: ['offer', 'offer_with_message', 'accept', 'decline'] },
    price: { type: 'number', minimum: 0, maximum: 10000 },
    message: { type: 'string', maxLength: 16 },
  },
  required: ['action', 'price', 'message'],
  additionalProperties: false,
};
// Prompts of a few lengths, as a server's clients send: the grouped run pads them to the longest.
const promptText = (i: number) =>
  '<|im_start|>system\nYou are a seller on a marketplace. Reply with one JSON turn.<|im_end|>\n' +
  `<|im_start|>user\nListing: Nikon F3 camera body, list price 120.00 USD.${' The buyer asks again.'.repeat(i % 3)} The buyer offers ${80 + i}.00 USD.<|im_end|>\n` +
  '<|im_start|>assistant\n';

/** `shipped`: side B (this working tree's decoder); otherwise side A, the decoder of `--a`. */
async function measure(shipped: boolean) {
  const Backend = shipped ? OnnxBackend : sideA.OnnxBackend;
  const backend = await Backend.load(folder, {
    maxBatchSize: 8,
    prefixCacheBytes: 0,
    prefillTokensPerRun,
  });
  const generate = (seed: number, maxTokens: number) =>
    backend.doGenerate({
      prompt: { messages: [], text: promptText(seed) },
      responseFormat: { type: 'json', schema },
      seed,
      maxTokens,
      temperature,
    });
  await Promise.all(Array.from({ length: 8 }, (_, i) => generate(100 + i, 4))); // warm-up
  const texts: string[] = new Array(turns);
  let tokens = 0;
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const client = async () => {
    while (next < turns) {
      const seed = next++;
      const result = await generate(seed, 48);
      texts[seed] = result.choices[0]?.text ?? '';
      tokens += result.usage.completionTokens;
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  await backend.dispose();
  const row = {
    side: shipped ? 'B' : 'A',
    tokens,
    seconds,
    cpuMsPerToken: (used.user + used.system) / 1000 / tokens,
    load: loadavg()[0] as number,
  };
  console.error(
    `  ${row.side}: ${tokens} tokens, ${seconds.toFixed(1)} s, ${row.cpuMsPerToken.toFixed(1)} CPU ms/token`,
  );
  return { row, texts };
}

const runs: Awaited<ReturnType<typeof measure>>[] = [];
for (const shipped of [false, true, true, false]) runs.push(await measure(shipped));
const reference = runs[0]?.texts ?? [];
const sameTexts = runs.every((run) => run.texts.every((text, i) => text === reference[i]));
console.log(
  `model ${folder}; ${turns} turns at batch 8 per run; temperature ${temperature}; prefillTokensPerRun ${prefillTokensPerRun}; A: ${commit}, B: this working tree`,
);
console.log('| order | side | tokens | seconds | CPU ms / token | load |');
console.log('| ---: | --- | ---: | ---: | ---: | ---: |');
for (const [i, { row }] of runs.entries()) {
  console.log(
    `| ${i + 1} | ${row.side} | ${row.tokens} | ${row.seconds.toFixed(1)} | ${row.cpuMsPerToken.toFixed(1)} | ${row.load.toFixed(1)} |`,
  );
}
const mean = (side: string) => {
  const rows = runs.filter((run) => run.row.side === side).map((run) => run.row.cpuMsPerToken);
  return rows.reduce((a, b) => a + b, 0) / rows.length;
};
console.log(
  `B / A CPU per token: ${(mean('B') / mean('A')).toFixed(3)}; same texts for the same seeds: ${sameTexts}`,
);
console.log(
  JSON.stringify({
    bench: 'onnx-prefill-ab',
    a: commit,
    turns,
    temperature,
    runs: runs.map((run) => run.row),
    sameTexts,
  }),
);
if (!sameTexts) process.exit(1);
