// CPU per prompt token of a prefill run by how many prompts share it: eight 59-token prompts run one
// per `session.run`, against 2, 4 and 8 in one run (the bare session, no haggle code), on a real-size
// model folder. Why haggle prefills prompts that arrive together in one run (src/onnx/batch-decoder.ts).
//   npx tsx bench/onnx-prefill-batch.ts --model DIR

import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { cpuOfRun, emptyCache, loadBareModel, requiredModelFolder } from './shared/bare-model.js';

const { values: args } = parseArgs({ options: { model: { type: 'string' } } });
const model = await loadBareModel(requiredModelFolder(args.model));
const width = 59;
/** CPU milliseconds (every thread) of one prefill run of `batch` prompts of `width` tokens. */
async function run(batch: number): Promise<number> {
  const ids = BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(100 + (i % width)));
  const feeds: Record<string, ort.Tensor> = {
    ...emptyCache(model, batch, 'past_key_values'),
    input_ids: new ort.Tensor('int64', ids, [batch, width]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(batch * width).fill(1n), [batch, width]),
    position_ids: new ort.Tensor(
      'int64',
      BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(i % width)),
      [batch, width],
    ),
  };
  if (model.keepsLogits) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
  return cpuOfRun(model, feeds);
}
await run(1);
await run(8); // warm-up
for (let round = 0; round < 2; round++) {
  let alone = 0;
  for (let i = 0; i < 8; i++) alone += await run(1);
  const perToken = async (batch: number) => ((await run(batch)) / (batch * width)).toFixed(2);
  console.log(
    `CPU ms per prompt token (${width}-token prompts): one per run ${(alone / (8 * width)).toFixed(2)}, ` +
      `2 per run ${await perToken(2)}, 4 per run ${await perToken(4)}, 8 per run ${await perToken(8)}`,
  );
}
await model.session.release();
