// `haggle model build` at a real model's size, from files written here (nothing downloaded): random
// bf16 Qwen3 shards in Hugging Face's layout (three shards and an index, as Qwen/Qwen3-4B is published)
// and a rank-64, alpha-128 LoRA adapter on all seven projections (the model card's rank, alpha and
// targets), built to each dtype. Each build runs in its own process, so its peak RSS is its own; its
// peer is the fixture builder writing the same shape and dtype from seeded weights (no reading, no
// merge), in the same way, so the ratio is what reading the checkpoint and merging the adapter cost.
// Prints a table, then ONE JSON line (last).
//   npx tsx bench/model-build.ts                               qwen3-4b, fp16 and q4f16 (~8 GB of shards)
//   npx tsx bench/model-build.ts --preset qwen3-0.6b --dtype fp32,fp16,q4f16 [--dir DIR] [--keep]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeHfCheckpoint, writeLoraAdapter } from '../scripts/fixture-model/hf-checkpoint.js';
import { isPreset, QWEN3_PRESETS } from '../scripts/fixture-model/presets.js';
import { writePresetModel } from '../scripts/fixture-model/write-preset-folder.js';
import { buildModel, folderBytes } from '../src/onnx/model-build/build-model.js';
import type { ModelDtype } from '../src/onnx/model-build/stored-weights.js';

const { values: args } = parseArgs({
  options: {
    preset: { type: 'string', default: 'qwen3-4b' },
    dtype: { type: 'string', default: 'fp16,q4f16' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    child: { type: 'string' },
    out: { type: 'string' },
  },
});
const preset = args.preset as string;
if (!isPreset(preset)) throw new Error(`--preset must be one of ${Object.keys(QWEN3_PRESETS).join(', ')}`);
const shape = QWEN3_PRESETS[preset];
const dir = resolve(args.dir ?? join('.cache', `bench-model-build-${preset}`));
const base = join(dir, 'base');
const adapter = join(dir, 'adapter');
const RANK = 64;
const ALPHA = 128;

/** What one child reports: wall time, peak RSS, bytes written. */
interface Measured {
  ms: number;
  peakRssMiB: number;
  bytes: number;
}

if (args.child) {
  // Child: one build or one peer write, then its own numbers on stdout.
  const dtype = args.dtype as ModelDtype;
  const out = args.out as string;
  const started = performance.now();
  if (args.child === 'build') await buildModel({ base, adapter, out, dtype, overwrite: true });
  else writePresetModel(out, { preset, seed: 7, dtypes: [dtype] });
  const ms = performance.now() - started;
  const measured: Measured = {
    ms,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    bytes: folderBytes(join(out, 'onnx')),
  };
  console.log(JSON.stringify(measured));
  process.exit(0);
}

mkdirSync(dir, { recursive: true });
let writeMs = 0;
if (
  !existsSync(join(base, 'model.safetensors.index.json')) ||
  !existsSync(join(adapter, 'adapter_model.safetensors'))
) {
  const started = performance.now();
  const written = writeHfCheckpoint(base, { shape, seed: 1, dtype: 'BF16', shards: 3 });
  writeLoraAdapter(adapter, shape, { rank: RANK, alpha: ALPHA, seed: 2 });
  writeMs = performance.now() - started;
  console.log(
    `wrote ${base}: ${(written.bytes / 2 ** 30).toFixed(2)} GiB of bf16 shards (+ adapter) in ${(writeMs / 1000).toFixed(0)} s`,
  );
}

function run(kind: 'build' | 'peer', dtype: ModelDtype): Measured {
  const out = join(dir, `${kind}-${dtype}`);
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL(import.meta.url).pathname,
      '--child',
      kind,
      '--preset',
      preset,
      '--dtype',
      dtype,
      '--dir',
      dir,
      '--out',
      out,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) throw new Error(`${kind} ${dtype} exited ${child.status}`);
  if (!args.keep) rmSync(out, { recursive: true, force: true });
  return JSON.parse(child.stdout.trim().split('\n').pop() as string) as Measured;
}

const rows: { dtype: ModelDtype; build: Measured; peer: Measured }[] = [];
for (const dtype of (args.dtype as string).split(',') as ModelDtype[]) {
  const build = run('build', dtype);
  const peer = run('peer', dtype);
  rows.push({ dtype, build, peer });
  console.log(
    `  ${dtype}: build ${(build.ms / 1000).toFixed(0)} s, peak RSS ${build.peakRssMiB.toFixed(0)} MiB`,
  );
}

const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(2);
console.log(
  `\nhaggle model build, ${preset} (${shape.layers} layers, hidden ${shape.hiddenSize}), bf16 shards + rank-${RANK} alpha-${ALPHA} LoRA on 7 projections; ` +
    `${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}, ${gib(totalmem())} GiB RAM\n`,
);
console.log(
  '| dtype | output GiB | build s | build peak RSS MiB | fixture write s (peer) | peer peak RSS MiB | build / peer time |',
);
console.log(
  '| ----- | ---------- | ------- | ------------------ | ---------------------- | ----------------- | ----------------- |',
);
for (const { dtype, build, peer } of rows)
  console.log(
    `| ${dtype} | ${gib(build.bytes)} | ${(build.ms / 1000).toFixed(0)} | ${build.peakRssMiB.toFixed(0)} | ${(peer.ms / 1000).toFixed(0)} | ${peer.peakRssMiB.toFixed(0)} | ${(build.ms / peer.ms).toFixed(2)} |`,
  );
console.log(
  JSON.stringify({
    bench: 'model-build',
    preset,
    rank: RANK,
    alpha: ALPHA,
    checkpointWriteMs: writeMs,
    rows,
  }),
);
