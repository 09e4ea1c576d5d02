// CPU and wall time of a batch-1 (or batch-B) decode step of two model folders' exports side by side,
// with haggle's own binding (the session options of src/onnx/session-factory.ts, the KV cache in two
// preallocated arenas that take turns as `present.*` outputs, the logits into a kept buffer): what a
// graph change costs or saves per `session.run`, without the decoder, the grammar or the sampler.
// Runs alternate A, B, B, A, ... (each side first as often), one prefill of `--prompt` tokens, then
// `--steps` decode steps per run; reports the mean CPU ms (every thread of the process) and wall ms per
// step of each side and their ratio. A graph that returns only the run's new keys and values
// (`new_key_values.*`, haggle's q4/q8 since issue 44's KV change) has them appended into the spare
// arena in JS, inside the timed window, as the decoder's KvCache does.
//   npx tsx bench/onnx-step-ab.ts --a DIR --b DIR [--dtype q4] [--batch 1] [--steps 40] [--prompt 59]
//        [--rounds 2] [--threads 1] [--spin 0|1] [--arena 0|1]
// --b may equal --a with a different --b-spin / --b-arena, to compare session options on one graph.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    dtype: { type: 'string', default: 'q4' },
    batch: { type: 'string', default: '1' },
    steps: { type: 'string', default: '40' },
    prompt: { type: 'string', default: '59' },
    rounds: { type: 'string', default: '2' },
    threads: { type: 'string', default: '1' },
    spin: { type: 'string', default: '1' },
    arena: { type: 'string', default: '0' },
    'b-spin': { type: 'string' },
    'b-arena': { type: 'string' },
  },
});
if (!args.a || !args.b) {
  console.error('usage: npx tsx bench/onnx-step-ab.ts --a DIR --b DIR [--dtype q4] [--steps 40] ...');
  process.exit(2);
}
const file = args.dtype === 'fp32' ? 'model.onnx' : `model_${args.dtype}.onnx`;
const batch = Number(args.batch);
const steps = Number(args.steps);
const promptLength = Number(args.prompt);

interface Side {
  label: string;
  session: ort.InferenceSession;
  layers: number;
  kvHeads: number;
  headDim: number;
  cpu: number[];
  wall: number[];
}

async function open(label: string, folder: string, spin: string, arena: string): Promise<Side> {
  const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, number>;
  const session = await ort.InferenceSession.create(join(folder, 'onnx', file), {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: Number(args.threads),
    enableCpuMemArena: arena === '1',
    extra: { session: { intra_op: { allow_spinning: spin } } },
  });
  return {
    label,
    session,
    layers: config.num_hidden_layers as number,
    kvHeads: config.num_key_value_heads as number,
    headDim: config.head_dim as number,
    cpu: [],
    wall: [],
  };
}

/** One prefill and `steps` decode steps; the decode steps' CPU and wall ms go into the side's lists. */
async function run(side: Side): Promise<void> {
  const { layers, kvHeads, headDim, session } = side;
  const arenas = [0, 1].map(() =>
    Array.from(
      { length: layers * 2 },
      () => new Float32Array(batch * kvHeads * (promptLength + steps + 1) * headDim),
    ),
  );
  let past: Float32Array[] = Array.from({ length: layers * 2 }, () => new Float32Array(0));
  let length = 0;
  const logits = new Float32Array(batch * 151936);
  let turn = 0;
  for (let step = 0; step <= steps; step++) {
    const width = step === 0 ? promptLength : 1;
    const total = length + width;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(1000 + ((i * 7 + step) % 5000))),
        [batch, width],
      ),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(batch * total).fill(1n), [batch, total]),
      position_ids: new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(length + (i % width))),
        [batch, width],
      ),
    };
    if (session.inputNames.includes('num_logits_to_keep'))
      feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
    const fetches: Record<string, ort.Tensor | null> = {};
    for (const name of session.outputNames) fetches[name] = null;
    const spare = arenas[turn] as Float32Array[];
    const present = spare.map((buffer) => buffer.subarray(0, batch * kvHeads * total * headDim));
    const appends = session.outputNames.includes('new_key_values.0.key');
    for (let l = 0; l < layers; l++)
      ['key', 'value'].forEach((kind, k) => {
        feeds[`past_key_values.${l}.${kind}`] = new ort.Tensor('float32', past[2 * l + k] as Float32Array, [
          batch,
          kvHeads,
          length,
          headDim,
        ]);
        if (!appends)
          fetches[`present.${l}.${kind}`] = new ort.Tensor('float32', present[2 * l + k] as Float32Array, [
            batch,
            kvHeads,
            total,
            headDim,
          ]);
      });
    if (step > 0)
      fetches.logits = new ort.Tensor('float32', logits.subarray(0, batch * 151936), [batch, 1, 151936]);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const outputs = await session.run(feeds, fetches);
    if (appends)
      present.forEach((out, i) => {
        const fresh = outputs[`new_key_values.${i >> 1}.${i % 2 === 0 ? 'key' : 'value'}`]
          ?.data as Float32Array;
        const old = past[i] as Float32Array;
        for (let plane = 0; plane < batch * kvHeads; plane++) {
          const to = plane * total * headDim;
          out.set(old.subarray(plane * length * headDim, (plane + 1) * length * headDim), to);
          out.set(
            fresh.subarray(plane * width * headDim, (plane + 1) * width * headDim),
            to + length * headDim,
          );
        }
      });
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (step > 0) {
      side.cpu.push((used.user + used.system) / 1000);
      side.wall.push(wall);
    }
    past = present;
    turn = 1 - turn;
    length = total;
  }
}

const a = await open('A', resolve(args.a), args.spin as string, args.arena as string);
const b = await open(
  'B',
  resolve(args.b),
  args['b-spin'] ?? (args.spin as string),
  args['b-arena'] ?? (args.arena as string),
);
console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
// Warm both once (first-run allocations), unmeasured.
for (const side of [a, b]) {
  await run(side);
  side.cpu.length = 0;
  side.wall.length = 0;
}
for (let round = 0; round < Number(args.rounds); round++)
  for (const side of round % 2 === 0 ? [a, b, b, a] : [b, a, a, b]) await run(side);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
for (const side of [a, b])
  console.log(
    `${side.label} ${side.label === 'A' ? args.a : args.b}: ${mean(side.cpu).toFixed(2)} CPU ms / step, ` +
      `${mean(side.wall).toFixed(2)} wall ms / step (${side.cpu.length} steps)`,
  );
console.log(
  `B / A: CPU x${(mean(b.cpu) / mean(a.cpu)).toFixed(3)}, wall x${(mean(b.wall) / mean(a.wall)).toFixed(3)}`,
);
console.log(
  `load average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
