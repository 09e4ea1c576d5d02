// CPU of one decoding step by its width (positions per row), on the bare session, over a past of
// about 100 tokens per row: what feeding several forced tokens per row (jump-forward) costs at batch 8
// against one token, and what a prompt riding in a decoding step would cost. Why the decoder sizes its
// steps by cost (src/onnx/step-cost.ts) and prefills a lone prompt in its own run.
//   npx tsx bench/onnx-step-width.ts --model DIR [--past 100] [--repeat 3]
// Rows: batch x width, CPU ms of the run (every thread; the median of `repeat`), and CPU ms per row
// position. "padding" rows are the same run with half the rows' positions masked out (the model
// computes them all the same: the figure shows whether masking saves anything).

import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { cpuOfRun, emptyCache, loadBareModel, requiredModelFolder } from './shared/bare-model.js';
import { nextPast } from './shared/next-past.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    past: { type: 'string', default: '100' },
    repeat: { type: 'string', default: '3' },
  },
});
const folder = requiredModelFolder(args.model);
const pastLength = Number(args.past);
const repeat = Number(args.repeat);
const model = await loadBareModel(folder);
const { session, layers, keepsLogits } = model;

/** Feeds of one run: `batch` rows of `width` positions after `past` cached ones (a `padded` share masked). */
function feedsFor(
  batch: number,
  width: number,
  past: Record<string, ort.Tensor>,
  pastLen: number,
  padded = 0,
) {
  const total = pastLen + width;
  const ids = BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(200 + (i % 97)));
  const attention = new BigInt64Array(batch * total).fill(1n);
  // Padding rows: all their new positions masked, as rows riding along in a step.
  for (let b = 0; b < padded; b++) for (let j = 0; j < width; j++) attention[b * total + pastLen + j] = 0n;
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', ids, [batch, width]),
    attention_mask: new ort.Tensor('int64', attention, [batch, total]),
    position_ids: new ort.Tensor(
      'int64',
      BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(pastLen + (i % width))),
      [batch, width],
    ),
  };
  if (keepsLogits) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
  for (let l = 0; l < layers; l++)
    for (const kind of ['key', 'value'])
      feeds[`past_key_values.${l}.${kind}`] = past[`present.${l}.${kind}`] as ort.Tensor;
  return feeds;
}

/** A past of `pastLength` tokens for `batch` rows (one prefill run). */
async function pastFor(batch: number): Promise<Record<string, ort.Tensor>> {
  const out = await session.run(feedsFor(batch, pastLength, emptyCache(model, batch, 'present'), 0));
  return nextPast(emptyCache(model, batch, 'present'), out, layers);
}

const cpuOf = (feeds: Record<string, ort.Tensor>) => cpuOfRun(model, feeds);

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const past8 = await pastFor(8);
const past9 = await pastFor(9);
const past1 = await pastFor(1);
interface Case {
  name: string;
  batch: number;
  width: number;
  run: () => Promise<number>;
}
const cases: Case[] = [];
for (const width of [1, 2, 3, 4, 6, 8]) {
  cases.push({
    name: `8 rows x ${width}`,
    batch: 8,
    width,
    run: () => cpuOf(feedsFor(8, width, past8, pastLength)),
  });
}
for (const width of [1, 4]) {
  cases.push({
    name: `8 rows x ${width}, 4 rows padding`,
    batch: 8,
    width,
    run: () => cpuOf(feedsFor(8, width, past8, pastLength, 4)),
  });
}
// A prompt riding in the decoding step: a ninth row feeding an 8-token chunk makes all nine rows 8 wide.
cases.push({ name: '9 rows x 1', batch: 9, width: 1, run: () => cpuOf(feedsFor(9, 1, past9, pastLength)) });
cases.push({ name: '9 rows x 8', batch: 9, width: 8, run: () => cpuOf(feedsFor(9, 8, past9, pastLength)) });
// A lone prompt's prefill run (what riding along would replace), and a batch-1 decoding step.
cases.push({
  name: '1 row x 60 (prefill)',
  batch: 1,
  width: 60,
  run: () => cpuOf(feedsFor(1, 60, emptyCache(model, 1, 'present'), 0)),
});
cases.push({ name: '1 row x 1', batch: 1, width: 1, run: () => cpuOf(feedsFor(1, 1, past1, pastLength)) });
cases.push({ name: '1 row x 4', batch: 1, width: 4, run: () => cpuOf(feedsFor(1, 4, past1, pastLength)) });

for (const c of cases) await c.run(); // warm-up: onnxruntime's first run at each shape
const samples = new Map<string, number[]>();
const startLoad = loadavg()[0] as number;
for (let r = 0; r < repeat; r++)
  for (const c of cases) samples.set(c.name, [...(samples.get(c.name) ?? []), await c.run()]);
const endLoad = loadavg()[0] as number;
const base = median(samples.get('8 rows x 1') ?? []);
console.log(
  `model ${folder}; past ${pastLength} tokens; median of ${repeat}; load ${startLoad.toFixed(1)} to ${endLoad.toFixed(1)}`,
);
console.log('| run | CPU ms | CPU ms / position | vs 8 rows x 1 |');
console.log('| --- | ---: | ---: | ---: |');
for (const c of cases) {
  const ms = median(samples.get(c.name) ?? []);
  console.log(
    `| ${c.name} | ${ms.toFixed(0)} | ${(ms / (c.batch * c.width)).toFixed(1)} | ${(ms / base).toFixed(2)} |`,
  );
}
console.log(
  JSON.stringify({ bench: 'onnx-step-width', past: pastLength, samples: Object.fromEntries(samples) }),
);
await session.release();
