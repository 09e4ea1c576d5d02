// A/B of the local backend's batch decoder with and without one of its A/B switches, in one process,
// at batch 8 with 8 requests in flight, the same seeds for both, in the order A, B, B, A (each side
// first once). A is the decoder with `--a-env` set (default HAGGLE_ONNX_PREFILL_ALONE=1: one prompt per
// prefill run, against prompts prefilled together, src/onnx/batch-decoder.ts `prefillGroup`; or
// HAGGLE_ONNX_STEP_WIDTH=median: the step-width rule before StepCost), B the decoder as it ships.
// Reports CPU milliseconds per token (the whole process) and checks that both give the same texts.
//   npx tsx bench/onnx-prefill-ab.ts --model DIR [--turns N] [--temperature T] [--prefill-tokens P]
//        [--a-env NAME=VALUE]
// N turns per run (default 16), P the backend's prefillTokensPerRun (default 256); maxTokens 48, the
// schema of bench/onnx.ts's real-size rows, prompts of three lengths (about 60 to 75 tokens).
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { OnnxBackend } from '../src/onnx/index.js';
import { requiredModelFolder } from './shared/bare-model.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    turns: { type: 'string', default: '16' },
    temperature: { type: 'string', default: '1' },
    'prefill-tokens': { type: 'string', default: '256' },
    'a-env': { type: 'string', default: 'HAGGLE_ONNX_PREFILL_ALONE=1' },
  },
});
const folder = requiredModelFolder(args.model);
const turns = Number(args.turns);
const temperature = Number(args.temperature);
const prefillTokensPerRun = Number(args['prefill-tokens']);
const [switchName, switchValue] = (args['a-env'] as string).split('=') as [string, string | undefined];
if (!switchName || switchValue === undefined) {
  console.error(`--a-env must be NAME=VALUE, got ${args['a-env']}`);
  process.exit(2);
}
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

/** `shipped`: side B (the decoder as it ships); otherwise side A, with the switch set. */
async function measure(shipped: boolean) {
  if (shipped) delete process.env[switchName];
  else process.env[switchName] = switchValue;
  const backend = await OnnxBackend.load(folder, {
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
  `model ${folder}; ${turns} turns at batch 8 per run; temperature ${temperature}; prefillTokensPerRun ${prefillTokensPerRun}; A: ${switchName}=${switchValue}, B: as shipped`,
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
    a: `${switchName}=${switchValue}`,
    turns,
    temperature,
    runs: runs.map((run) => run.row),
    sameTexts,
  }),
);
if (!sameTexts) process.exit(1);
