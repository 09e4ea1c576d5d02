// Where `session.run` spends a decode step, by operator type: onnxruntime's own profiler over N
// batch-1 decode steps of a model folder's export (after a prefill of the bench's prompt).
//   npx tsx bench/peers/ort-op-profile.ts --model DIR [--dtype q4|fp32] [--steps 20] [--threads 1]
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { nextPast } from '../shared/next-past.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    dtype: { type: 'string', default: 'q4' },
    steps: { type: 'string', default: '20' },
    threads: { type: 'string', default: '1' },
  },
});
if (!args.model) throw new Error('--model DIR is required');
const folder = resolve(args.model);
const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, number>;
const layers = config.num_hidden_layers as number;
const kvHeads = config.num_key_value_heads as number;
const headDim = config.head_dim as number;
const file = args.dtype === 'fp32' ? 'model.onnx' : 'model_q4.onnx';
const prefix = join(tmpdir(), `haggle-ort-profile-${process.pid}`);
const session = await ort.InferenceSession.create(join(folder, 'onnx', file), {
  graphOptimizationLevel: 'all',
  intraOpNumThreads: Number(args.threads),
  enableProfiling: true,
  profileFilePrefix: prefix,
});
const steps = Number(args.steps);
let past: Record<string, ort.Tensor> = {};
for (let l = 0; l < layers; l++)
  for (const kind of ['key', 'value'])
    past[`present.${l}.${kind}`] = new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]);
let ids = Array.from({ length: 59 }, (_, i) => 1000 + i);
let length = 0;
for (let step = 0; step <= steps; step++) {
  const width = ids.length;
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, width]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(length + width).fill(1n), [1, length + width]),
    position_ids: new ort.Tensor(
      'int64',
      BigInt64Array.from({ length: width }, (_, i) => BigInt(length + i)),
      [1, width],
    ),
    num_logits_to_keep: new ort.Tensor('int64', BigInt64Array.of(1n), []),
  };
  for (let l = 0; l < layers; l++)
    for (const kind of ['key', 'value'])
      feeds[`past_key_values.${l}.${kind}`] = past[`present.${l}.${kind}`] as ort.Tensor;
  const out = await session.run(feeds);
  past = nextPast(past, out, layers);
  length += width;
  ids = [1000 + step];
}
session.endProfiling();
await session.release();
// onnxruntime-node writes the trace as `<prefix>_<timestamp>.json` and does not return its name.
const traceName = readdirSync(dirname(prefix)).find((name) => name.startsWith(basename(prefix)));
if (!traceName) throw new Error(`no profile trace beside ${prefix}`);
const traceFile = join(dirname(prefix), traceName);
interface Event {
  cat: string;
  name: string;
  dur: number;
  args?: { op_name?: string };
}
const events = JSON.parse(readFileSync(traceFile, 'utf8')) as Event[];
rmSync(traceFile, { force: true });
// Node events of the decode steps only: the first run (the prefill) is left out by its order.
const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run');
const byOp = new Map<string, number>();
let total = 0;
let seenRuns = 0;
for (const e of events) {
  if (e.cat === 'Session' && e.name === 'model_run') seenRuns++;
  if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || seenRuns < 1) continue;
  const op = e.args?.op_name ?? '?';
  byOp.set(op, (byOp.get(op) ?? 0) + e.dur);
  total += e.dur;
}
console.log(`${file}: ${runs.length} runs; decode-step kernel time by operator (ms per step, share):`);
for (const [op, us] of [...byOp].sort((a, b) => b[1] - a[1]))
  console.log(
    `  ${op.padEnd(28)} ${(us / 1000 / steps).toFixed(2).padStart(8)}  ${((100 * us) / total).toFixed(1)}%`,
  );
console.log(`  total kernels ${(total / 1000 / steps).toFixed(2)} ms per step`);
