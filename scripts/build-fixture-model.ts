/**
 * Writes the tiny Qwen3-shaped ONNX model the tests and benches use, deterministically from a seed:
 *   npm run fixture:model -- --out .cache/fixture-model --seed 1
 * (or `npx tsx scripts/build-fixture-model.ts --out DIR --seed S`). Nothing is downloaded.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFixtureModel } from './fixture-model/write-model-folder.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    seed: { type: 'string', default: '1' },
    // Leave out the optional `num_logits_to_keep` input: exactly an Optimum export's names.
    'optimum-strict': { type: 'boolean', default: false },
    // Also write onnx/model_fp16.onnx: float16 KV cache and logits, as an fp16 export has.
    fp16: { type: 'boolean', default: false },
    // Also write onnx/model_q4f16.onnx: 4-bit MatMulNBits projections behind the fp16 interface.
    q4f16: { type: 'boolean', default: false },
    // Weights in onnx/model.onnx_data beside the graph, as an export over the 2 GB protobuf limit has.
    'external-data': { type: 'boolean', default: false },
  },
});
if (!values.out) {
  console.error(
    'usage: build-fixture-model --out DIR [--seed S] [--optimum-strict] [--fp16] [--q4f16] [--external-data]',
  );
  process.exit(2);
}
const seed = Number(values.seed);
if (!Number.isInteger(seed)) {
  console.error(`--seed must be an integer, got ${values.seed}`);
  process.exit(2);
}
const started = Date.now();
writeFixtureModel(resolve(values.out), seed, {
  logitsToKeep: !values['optimum-strict'],
  fp16: values.fp16,
  q4f16: values.q4f16,
  externalData: values['external-data'],
});
console.log(`wrote ${resolve(values.out)} (seed ${seed}) in ${Date.now() - started} ms`);
