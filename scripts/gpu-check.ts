/**
 * One command to see what a machine does with a Qwen3-4B-sized model, without downloading one:
 *   npm run gpu:check -- --out DIR [--budget-s 400] [--bandwidth-gbs N] [--rebuild]
 * Prints the GPU, driver, Vulkan and onnxruntime's providers; builds the qwen3-4b preset in fp16 and
 * q4f16 (the qwen3-0.6b preset in fp32 and q4f16 on a machine without an NVIDIA GPU, saying so) into
 * DIR/model; loads it with OnnxBackend on cuda and webgpu (cpu without a GPU), saying exactly why a
 * provider cannot be had; measures a typical turn's time to first token and tokens/s at batch 1 and 8,
 * and the ratio to the bandwidth limit (weight bytes read per token over the memory bandwidth).
 * Writes DIR/gpu-check.json. Every step's outcome (ok, failed with its error, unavailable with the
 * reason, skipped for time) is in the JSON; the exit code is 1 when a step that should work failed.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { OnnxBackend, type OnnxDevice } from '../src/onnx/index.js';
import type { Qwen3Preset } from './fixture-model/presets.js';
import { writeFixtureModel } from './fixture-model/write-model-folder.js';
import { DTYPE_FILE, type PresetDtype, writePresetModel } from './fixture-model/write-preset-folder.js';
import { measureTurns } from './gpu-check/measure-turns.js';
import { measureCopyBandwidthGBs } from './gpu-check/memory-bandwidth.js';
import { probeSystem } from './gpu-check/system-probe.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    'budget-s': { type: 'string', default: '400' },
    'bandwidth-gbs': { type: 'string' },
    rebuild: { type: 'boolean', default: false },
  },
});
if (!values.out) {
  console.error('usage: gpu-check --out DIR [--budget-s 400] [--bandwidth-gbs N] [--rebuild]');
  process.exit(2);
}
const out = resolve(values.out);
const budgetS = Number(values['budget-s']);
const bandwidthOverride = values['bandwidth-gbs'] === undefined ? null : Number(values['bandwidth-gbs']);
if (!(budgetS > 0) || (bandwidthOverride !== null && !(bandwidthOverride > 0))) {
  console.error('--budget-s and --bandwidth-gbs must be positive numbers');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const started = performance.now();
const deadline = started + budgetS * 1000;
/** Past this, the check stops where it is, records that, and exits 1 (8 minutes by default). */
const hardLimitS = budgetS + 80;

type Status = 'ok' | 'failed' | 'unavailable' | 'skipped';
interface Step {
  step: string;
  status: Status;
  /** Whether this step should work on this machine: its failure makes the exit code 1. */
  expected: boolean;
  ms: number;
  detail?: unknown;
  error?: string;
}
const steps: Step[] = [];
const report: Record<string, unknown> = { version: 1, startedAt: new Date().toISOString(), steps };
const save = () => writeFileSync(join(out, 'gpu-check.json'), `${JSON.stringify(report, null, 2)}\n`);

let current: { name: string; started: number; expected: boolean } | null = null;
// A step that hangs or runs far past the budget (a driver stuck, a machine far busier than expected)
// must not keep the check from reporting: record it as failed, write the JSON, exit 1.
setTimeout(() => {
  if (current)
    steps.push({
      step: current.name,
      status: 'failed',
      expected: current.expected,
      ms: Math.round(performance.now() - current.started),
      error: `still running after ${hardLimitS} s in all: stopped (raise --budget-s on a slow or busy machine)`,
    });
  report.ok = false;
  report.failures = [`${current?.name ?? 'the check'}: stopped after ${hardLimitS} s`];
  save();
  console.error(
    `FAILED: stopped after ${hardLimitS} s during ${current?.name ?? '?'}; wrote ${join(out, 'gpu-check.json')}`,
  );
  process.exit(1);
}, hardLimitS * 1000).unref();

/** Runs one step, recording its outcome whatever happens; returns its result or undefined. */
async function step<T>(name: string, expected: boolean, run: () => Promise<T> | T): Promise<T | undefined> {
  const t = performance.now();
  current = { name, started: t, expected };
  try {
    const detail = await run();
    steps.push({ step: name, status: 'ok', expected, ms: Math.round(performance.now() - t), detail });
    console.log(`ok           ${name} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    return detail;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const status: Status = error instanceof Unavailable ? 'unavailable' : 'failed';
    steps.push({ step: name, status, expected, ms: Math.round(performance.now() - t), error: message });
    console.log(`${status.padEnd(12)} ${name}: ${message}`);
    return undefined;
  } finally {
    current = null;
    save();
  }
}
/** A provider or device this machine does not have: recorded with the reason, not a failure. */
class Unavailable extends Error {}

// ---- the machine ---------------------------------------------------------------------------------
const system = await step('probe the GPU, driver, Vulkan and onnxruntime providers', true, () =>
  probeSystem(),
);
const gpu = system?.gpus[0];
const hasGpu = gpu !== undefined;
report.machine = {
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  loadAverage: loadavg()[0],
  node: process.version,
  gpu: gpu ?? null,
  gpuAbsent: system?.gpuAbsentReason ?? null,
};
if (system) {
  console.log(
    hasGpu
      ? `GPU: ${gpu.name}, driver ${gpu.driver}, ${gpu.memoryMiB} MiB`
      : `GPU: absent (${system.gpuAbsentReason})`,
  );
  console.log(`Vulkan: ${system.vulkan.available ? 'yes' : 'no'} (${system.vulkan.detail})`);
  console.log(
    `onnxruntime-node providers: ${system.onnxruntimeBackends.map((b) => `${b.name}${b.bundled ? '' : ' (not bundled)'}`).join(', ')}; ` +
      `CUDA provider library ${system.cudaProvider.installed ? 'installed' : `missing (install: ${system.cudaProvider.installCommand})`}`,
  );
}
const cpuBandwidth = await step('measure this machine memory bandwidth (buffer copy)', true, () =>
  measureCopyBandwidthGBs(),
);

// ---- the model -------------------------------------------------------------------------------------
const preset: Qwen3Preset = hasGpu ? 'qwen3-4b' : 'qwen3-0.6b';
const dtypes: PresetDtype[] = hasGpu ? ['fp16', 'q4f16'] : ['fp32', 'q4f16'];
const modelDir = join(out, 'model');
report.model = {
  preset,
  dtypes,
  folder: modelDir,
  why: hasGpu
    ? 'a GPU is present: the Qwen3-4B shape in the dtypes a GPU runs'
    : 'no GPU: the Qwen3-0.6B shape (a 4B model decodes at seconds per token on a CPU), fp32 and q4f16',
};
await step(`build the ${preset} preset (${dtypes.join(', ')})`, true, () => {
  const marker = join(modelDir, 'fixture.json');
  if (!values.rebuild && existsSync(marker)) {
    const built = JSON.parse(readFileSync(marker, 'utf8')) as { preset?: string; dtypes?: string[] };
    if (built.preset === preset && dtypes.every((d) => built.dtypes?.includes(d)))
      return { reused: modelDir };
  }
  writePresetModel(modelDir, {
    preset,
    seed: 1,
    dtypes,
    onWritten: (file, bytes, ms) =>
      console.log(`  onnx/${file}: ${(bytes / 2 ** 30).toFixed(2)} GiB in ${(ms / 1000).toFixed(1)} s`),
  });
  return { built: modelDir };
});

// ---- devices ---------------------------------------------------------------------------------------
// Whether a provider can run at all is asked of the tiny fixture first: a missing provider then
// costs a second, not the loading of gigabytes.
const tiny = join(out, 'tiny-probe-model');
if (!existsSync(join(tiny, 'fixture.json'))) writeFixtureModel(tiny, 1, { replace: false, fp16: true });
const devices: OnnxDevice[] = hasGpu ? ['cuda', 'webgpu'] : ['cpu', 'cuda', 'webgpu'];
const results: Record<string, unknown>[] = [];
report.results = results;
const usable: OnnxDevice[] = [];
for (const device of devices) {
  const available = await step(
    `load the tiny fixture with OnnxBackend on ${device}`,
    device === 'cpu',
    async () => {
      if (device === 'cuda' && system?.cudaProvider.installed === false)
        throw new Unavailable(
          `onnxruntime-node has no CUDA provider library (libonnxruntime_providers_cuda.so); install it with: ${system.cudaProvider.installCommand}` +
            (hasGpu ? '' : ' (and there is no NVIDIA GPU here)'),
        );
      try {
        const backend = await OnnxBackend.load(tiny, {
          device,
          fallback: false,
          dtype: device === 'cpu' ? 'fp32' : 'fp16',
        });
        await backend.dispose();
        return true;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (device !== 'cpu') throw new Unavailable(hasGpu ? reason : `${reason} (no GPU here)`);
        throw error;
      }
    },
  );
  if (available && (hasGpu || device === 'cpu')) usable.push(device);
}
let remaining = usable.length * dtypes.length;
for (const device of usable) {
  for (const dtype of dtypes) {
    const file = join(modelDir, 'onnx', DTYPE_FILE[dtype]);
    // Loading and warming up a model is not cut short: start one only with a third of a minute left.
    if (performance.now() > deadline - 20_000) {
      steps.push({
        step: `measure ${preset} ${dtype} on ${device}`,
        status: 'skipped',
        expected: false,
        ms: 0,
        detail: 'time budget spent',
      });
      console.log(`skipped      measure ${preset} ${dtype} on ${device}: time budget spent`);
      continue;
    }
    await step(`measure ${preset} ${dtype} on ${device}`, true, async () => {
      if (!existsSync(file)) throw new Error(`${file} was not built`);
      const bytesPerToken = statSync(`${file}_data`).size;
      const loadStarted = performance.now();
      const backend = await OnnxBackend.load(modelDir, {
        device,
        dtype,
        fallback: false,
        prefixCacheBytes: 0,
        maxBatchSize: 8,
      });
      const loadMs = performance.now() - loadStarted;
      try {
        const onGpu = device !== 'cpu';
        const measured = await measureTurns(backend, {
          maxTokens: onGpu ? 96 : 32,
          turns: onGpu ? 8 : 2,
          // An equal share of what is left for each measurement still to come.
          deadline: performance.now() + (deadline - 10_000 - performance.now()) / remaining--,
        });
        const bandwidthGBs =
          bandwidthOverride ?? (onGpu ? (gpu?.specBandwidthGBs ?? null) : (cpuBandwidth ?? null));
        const limit = bandwidthGBs === null ? null : (bandwidthGBs * 1e9) / bytesPerToken;
        const row = {
          device,
          dtype,
          preset,
          loadMs: Math.round(loadMs),
          ...measured,
          bytesPerToken,
          bandwidthGBs,
          bandwidthSource:
            bandwidthOverride !== null
              ? '--bandwidth-gbs'
              : onGpu
                ? gpu?.specBandwidthGBs
                  ? `spec sheet of ${gpu.name}`
                  : 'unknown GPU: pass --bandwidth-gbs'
                : 'measured: buffer copy on this machine',
          bandwidthLimitTokensPerSecond: limit,
          ratioToBandwidthLimit:
            limit === null || !measured.batch1 ? null : measured.batch1.tokensPerSecond / limit,
          note:
            dtype !== 'fp32' && !onGpu
              ? 'the CPU provider has few float16 kernels: onnxruntime inserts casts to float32, so this measures a cast-heavy graph, not what a GPU runs'
              : undefined,
        };
        results.push(row);
        return row;
      } finally {
        await backend.dispose();
      }
    });
  }
}

// ---- summary ---------------------------------------------------------------------------------------
const failed = steps.filter((s) => s.status === 'failed' && s.expected);
const measuredOnGpu = results.some((r) => r.device !== 'cpu');
if (hasGpu && !measuredOnGpu)
  failed.push({
    step: 'measure on the GPU',
    status: 'failed',
    expected: true,
    ms: 0,
    error: 'a GPU is present but no GPU provider could be used (see the load steps)',
  });
report.finishedAt = new Date().toISOString();
report.seconds = Math.round((performance.now() - started) / 1000);
report.ok = failed.length === 0;
report.failures = failed.map((s) => `${s.step}: ${s.error}`);
save();
console.log(
  '\n| device | dtype | TTFT ms | batch 1 tok/s | batch 8 tok/s | batch-8 gain | GB read / token | ratio to bandwidth limit |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of results as {
  device: string;
  dtype: string;
  timeToFirstTokenMs: number;
  batch1: { tokensPerSecond: number } | null;
  batch8: { tokensPerSecond: number } | null;
  bytesPerToken: number;
  ratioToBandwidthLimit: number | null;
}[]) {
  const b1 = r.batch1?.tokensPerSecond;
  const b8 = r.batch8?.tokensPerSecond;
  console.log(
    `| ${r.device} | ${r.dtype} | ${r.timeToFirstTokenMs.toFixed(0)} | ${b1?.toFixed(2) ?? '-'} | ${b8?.toFixed(2) ?? '-'} | ` +
      `${b1 && b8 ? `${(b8 / b1).toFixed(2)}x` : '-'} | ${(r.bytesPerToken / 1e9).toFixed(2)} | ${r.ratioToBandwidthLimit?.toFixed(2) ?? '-'} |`,
  );
}
console.log(
  `\n${hasGpu ? '' : `no GPU here (${system?.gpuAbsentReason}); measured the CPU path. `}wrote ${join(out, 'gpu-check.json')} in ${report.seconds} s`,
);
if (failed.length > 0) {
  console.error(`FAILED: ${failed.map((s) => `${s.step}: ${s.error}`).join('; ')}`);
  process.exit(1);
}
