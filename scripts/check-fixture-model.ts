/**
 * Compares a written fixture model with the float64 TypeScript reference forward pass on a few tokens:
 *   npm run fixture:check -- DIR [--dtype fp32|fp16|q4f16|q4|q8[,...]]
 * Exits 1 when any export is outside its tolerance, 2 on bad arguments.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkFixtureModel, printCheck } from './fixture-model/reference-check.js';
import type { PresetDtype } from './fixture-model/write-preset-folder.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dtype: { type: 'string', default: 'fp32' } },
});
const folder = positionals[0];
const dtypes = (values.dtype as string).split(',');
if (!folder || dtypes.some((d) => !['fp32', 'fp16', 'q4f16', 'q4', 'q8'].includes(d))) {
  console.error('usage: check-fixture-model DIR [--dtype fp32|fp16|q4f16|q4|q8[,...]]');
  process.exit(2);
}
let failed = false;
for (const dtype of dtypes) {
  try {
    const result = await checkFixtureModel(resolve(folder), { dtype: dtype as PresetDtype });
    printCheck(result);
    failed ||= !result.ok;
  } catch (error) {
    console.error(`FAIL ${dtype}: ${error instanceof Error ? error.message : String(error)}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
