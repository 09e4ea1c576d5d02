import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFixtureModel } from '../../scripts/fixture-model/write-model-folder.js';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/**
 * The tiny Qwen3 model folder for `seed`, built into the git-ignored `.cache/` on first use (about a
 * second) and reused afterwards. The version in the folder's name changes with the graph the builder
 * writes (v4: q4 graphs return only the new keys and values, `new_key_values.*`), so a folder
 * an older checkout left is never taken for the current graph. `optimumStrict`: without the optional `num_logits_to_keep` input. `fp16`: with `onnx/model_fp16.onnx` beside the fp32 graph. `q4f16`: with `onnx/model_q4f16.onnx` (4-bit projections). `q4`: with `onnx/model_q4.onnx` (4-bit projections and head, float32 activations). `externalData`: weights in `onnx/*_data` files. Parallel test workers may both build it; the first rename wins.
 */
export function fixtureModel(
  seed = 1,
  options: {
    optimumStrict?: boolean;
    fp16?: boolean;
    q4f16?: boolean;
    q4?: boolean;
    externalData?: boolean;
  } = {},
): string {
  const strict = options.optimumStrict === true;
  const fp16 = options.fp16 === true;
  const q4f16 = options.q4f16 === true;
  const q4 = options.q4 === true;
  const externalData = options.externalData === true;
  const suffix = `${strict ? '-strict' : ''}${fp16 ? '-fp16' : ''}${q4f16 ? '-q4f16' : ''}${q4 ? '-q4' : ''}${externalData ? '-external' : ''}`;
  const folder = join(repoRoot, '.cache', `fixture-model-v4-seed-${seed}${suffix}`);
  if (!existsSync(join(folder, 'fixture.json'))) {
    writeFixtureModel(folder, seed, { replace: false, logitsToKeep: !strict, fp16, q4f16, q4, externalData });
  }
  return folder;
}
