// Where a local turn's CPU goes, thread by thread: the process's threads' CPU time
// (/proc/self/task/*/stat, user + system) around batch-1 turns of OnnxBackend on local-peers' turn
// contract, grouped by thread name. The worker thread runs the decoder and onnxruntime (one intra-op
// thread); V8's platform threads run its garbage collector beside it (issue 44). Threads are listed by
// id: in Node 20 they are all named `node`.
//   npx tsx bench/onnx-thread-cpu.ts --model DIR [--dtype q4] [--turns 3]
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { JsonSchema } from '../src/contract/json-schema.js';
import { OnnxBackend } from '../src/onnx/index.js';
import type { OnnxDtype } from '../src/onnx/onnx-options.js';
import { promptText, schema } from './peers/turn-contract.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    dtype: { type: 'string', default: 'q4' },
    turns: { type: 'string', default: '3' },
  },
});
if (!args.model) {
  console.error('usage: npx tsx bench/onnx-thread-cpu.ts --model DIR [--dtype q4] [--turns 3]');
  process.exit(2);
}

/** CPU ms of every thread of this process, by thread id, with its name. */
function threadCpu(): Map<string, { name: string; ms: number }> {
  const tick = 10; // USER_HZ is 100 on Linux.
  const out = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(join('/proc/self/task', tid, 'stat'), 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = readFileSync(join('/proc/self/task', tid, 'comm'), 'utf8').trim();
      out.set(tid, { name, ms: (Number(fields[11]) + Number(fields[12])) * tick });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

const backend = await OnnxBackend.load(resolve(args.model), {
  dtype: args.dtype as OnnxDtype,
  prefixCacheBytes: 0,
  intraOpNumThreads: 1,
});
const turn = (seed: number) =>
  backend.doGenerate({
    prompt: { messages: [], text: promptText },
    responseFormat: { type: 'json', schema: schema as JsonSchema },
    seed,
    maxTokens: 48,
    temperature: 1,
  });
await turn(100); // warm-up: the grammar's compilation and onnxruntime's first runs
const loadStart = loadavg()[0] as number;
const before = threadCpu();
const started = performance.now();
let tokens = 0;
for (let t = 0; t < Number(args.turns); t++) tokens += (await turn(t + 1)).usage.completionTokens;
const wall = performance.now() - started;
const after = threadCpu();
await backend.dispose();

const byName = new Map<string, number>();
let total = 0;
for (const [tid, { name, ms }] of after) {
  const used = ms - (before.get(tid)?.ms ?? 0);
  total += used;
  const label = tid === String(process.pid) ? `${name} (main)` : `${name} ${tid}`;
  byName.set(label, (byName.get(label) ?? 0) + used);
}
// The busiest thread is the decoder's worker (the decode loop and onnxruntime's one intra-op thread);
// the others that used CPU are V8's platform threads (garbage collection), libuv's and the main one.
console.log(`${args.model} ${args.dtype}: ${args.turns} turns, ${tokens} tokens, ${wall.toFixed(0)} wall ms`);
console.log('| thread | CPU ms | CPU ms / token | share |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]))
  if (ms > 0)
    console.log(`| ${name} | ${ms} | ${(ms / tokens).toFixed(1)} | ${((100 * ms) / total).toFixed(0)}% |`);
console.log(`| all | ${total} | ${(total / tokens).toFixed(1)} | 100% |`);
console.log(`load average ${loadStart.toFixed(2)} at start, ${(loadavg()[0] as number).toFixed(2)} at end`);
console.log(
  JSON.stringify({
    bench: 'onnx-thread-cpu',
    model: args.model,
    tokens,
    wallMs: wall,
    cpuMs: Object.fromEntries(byName),
    totalCpuMs: total,
  }),
);
