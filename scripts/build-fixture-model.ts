/**
 * Writes a Qwen3-shaped ONNX model folder with seeded random weights; nothing is downloaded.
 *   npm run fixture:model -- --out .cache/fixture-model --seed 1        the tiny model the tests use
 *   npm run fixture:model -- --preset qwen3-0.6b --out DIR [--dtype fp32|fp16|q4f16|q4|q8[,...]]
 *   npm run fixture:model -- --preset qwen3-4b --out DIR --dtype fp16   (about 8 GB on disk)
 * Real-size presets stream their weights to `onnx/<model>.onnx_data` tensor by tensor, so the 4B one
 * builds in well under a gigabyte of memory. `--check` then runs the reference forward pass on it
 * (scripts/check-fixture-model.ts).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isPreset, QWEN3_PRESETS } from './fixture-model/presets.js';
import { checkFixtureModel, printCheck } from './fixture-model/reference-check.js';
import { writeFixtureModel } from './fixture-model/write-model-folder.js';
import { type PresetDtype, writePresetModel } from './fixture-model/write-preset-folder.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    seed: { type: 'string', default: '1' },
    // tiny (default), qwen3-0.6b or qwen3-4b.
    preset: { type: 'string', default: 'tiny' },
    // fp32, fp16, q4f16, q4, or several separated by commas (presets; the tiny one has the flags below).
    dtype: { type: 'string' },
    // After writing, compare the graph's logits with the reference forward pass.
    check: { type: 'boolean', default: false },
    // Leave out the optional `num_logits_to_keep` input: exactly an Optimum export's names.
    'optimum-strict': { type: 'boolean', default: false },
    // Also write onnx/model_fp16.onnx: float16 KV cache and logits, as an fp16 export has.
    fp16: { type: 'boolean', default: false },
    // Also write onnx/model_q4f16.onnx: 4-bit MatMulNBits projections behind the fp16 interface.
    q4f16: { type: 'boolean', default: false },
    // Also write onnx/model_q4.onnx: 4-bit MatMulNBits projections and head, float32 activations.
    q4: { type: 'boolean', default: false },
    // Weights in onnx/model.onnx_data beside the graph, as an export over the 2 GB protobuf limit has.
    'external-data': { type: 'boolean', default: false },
  },
});
const usage =
  'usage: build-fixture-model --out DIR [--preset tiny|qwen3-0.6b|qwen3-4b] [--dtype fp32|fp16|q4f16|q4|q8[,...]] [--seed S] [--check]\n' +
  '       (tiny only: [--optimum-strict] [--fp16] [--q4f16] [--q4] [--external-data])';
const fail = (message: string): never => {
  console.error(`${message}\n${usage}`);
  process.exit(2);
};
if (!values.out) fail('--out is required');
const out = resolve(values.out as string);
const seed = Number(values.seed);
if (!Number.isInteger(seed)) fail(`--seed must be an integer, got ${values.seed}`);
const preset = values.preset ?? 'tiny';
if (!isPreset(preset))
  throw fail(`--preset must be one of ${Object.keys(QWEN3_PRESETS).join(', ')}, got ${preset}`);
const dtypes = (values.dtype ?? 'fp32').split(',').map((d) => d.trim());
for (const dtype of dtypes)
  if (!['fp32', 'fp16', 'q4f16', 'q4', 'q8'].includes(dtype))
    fail(`--dtype must be fp32, fp16, q4f16, q4 or q8, got ${dtype}`);

const started = Date.now();
if (preset === 'tiny') {
  writeFixtureModel(out, seed, {
    logitsToKeep: !values['optimum-strict'],
    fp16: values.fp16 || dtypes.includes('fp16'),
    q4f16: values.q4f16 || dtypes.includes('q4f16'),
    q4: values.q4 || dtypes.includes('q4'),
    externalData: values['external-data'],
  });
} else {
  if (values.fp16 || values.q4f16 || values.q4 || values['optimum-strict'] || values['external-data'])
    fail(
      '--fp16, --q4f16, --q4, --optimum-strict and --external-data are for the tiny model; presets take --dtype',
    );
  writePresetModel(out, {
    preset,
    seed,
    dtypes: dtypes as PresetDtype[],
    onWritten: (file, bytes, ms) =>
      console.log(
        `  onnx/${file} (+ _data): ${(bytes / 2 ** 30).toFixed(2)} GiB in ${(ms / 1000).toFixed(1)} s`,
      ),
  });
}
console.log(
  `wrote ${out} (preset ${preset}, seed ${seed}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (values.check) {
  const results = [];
  for (const dtype of preset === 'tiny' ? ['fp32'] : dtypes)
    results.push(await checkFixtureModel(out, { dtype: dtype as PresetDtype }));
  for (const result of results) printCheck(result);
  if (results.some((result) => !result.ok)) process.exit(1);
}
