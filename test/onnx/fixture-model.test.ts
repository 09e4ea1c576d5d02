import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_QWEN3 } from '../../scripts/fixture-model/config.js';
import { referenceLogits } from '../../scripts/fixture-model/reference-forward.js';
import { makeWeights } from '../../scripts/fixture-model/weights.js';
import { writeFixtureModel } from '../../scripts/fixture-model/write-model-folder.js';
import { fixtureModel } from './fixture-model.js';

const { layers, kvHeads, headDim, vocabSize } = TINY_QWEN3;
let session: ort.InferenceSession;
let strict: ort.InferenceSession;

beforeAll(async () => {
  session = await ort.InferenceSession.create(join(fixtureModel(1), 'onnx', 'model.onnx'));
  strict = await ort.InferenceSession.create(
    join(fixtureModel(1, { optimumStrict: true }), 'onnx', 'model.onnx'),
  );
});
afterAll(async () => {
  await session?.release();
  await strict?.release();
});

type Feeds = Record<string, ort.Tensor>;

/** One run: `rows` of new ids (equal length), masks over past + new, explicit positions. */
async function run(rows: number[][], mask: number[][], positions: number[][], past?: Feeds, on = session) {
  const batch = rows.length;
  const length = rows[0]?.length ?? 0;
  const feeds: Feeds = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(rows.flat(), BigInt), [batch, length]),
    attention_mask: new ort.Tensor('int64', BigInt64Array.from(mask.flat(), BigInt), [
      batch,
      mask[0]?.length ?? 0,
    ]),
    position_ids: new ort.Tensor('int64', BigInt64Array.from(positions.flat(), BigInt), [batch, length]),
  };
  if (on.inputNames.includes('num_logits_to_keep')) {
    feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(BigInt(length)), []);
  }
  for (let l = 0; l < layers; l++) {
    for (const kind of ['key', 'value']) {
      feeds[`past_key_values.${l}.${kind}`] =
        past?.[`present.${l}.${kind}`] ??
        new ort.Tensor('float32', new Float32Array(0), [batch, kvHeads, 0, headDim]);
    }
  }
  return on.run(feeds);
}

/** Logits of row `b`, position `t`. */
function logitsAt(out: ort.InferenceSession.ReturnType, b: number, t: number): Float32Array {
  const logits = out.logits as ort.Tensor;
  const length = logits.dims[1] as number;
  const data = logits.data as Float32Array;
  const start = (b * length + t) * vocabSize;
  return data.subarray(start, start + vocabSize);
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs((a[i] as number) - (b[i] as number)));
  return worst;
}

const ids = [151644, 872, 198, 9707, 11, 1879, 0, 4913, 1311, 1];
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

describe('the tiny Qwen3 fixture model', () => {
  it('has the input and output names of an Optimum text-generation-with-past export', () => {
    const kv = range(layers).flatMap((l) => [`.${l}.key`, `.${l}.value`]);
    const inputs = ['input_ids', 'attention_mask', 'position_ids', ...kv.map((s) => `past_key_values${s}`)];
    expect(strict.inputNames).toEqual(inputs);
    expect(session.inputNames).toEqual([...inputs, 'num_logits_to_keep']);
    for (const s of [strict, session]) {
      expect([...s.outputNames].sort()).toEqual(['logits', ...kv.map((s) => `present${s}`)].sort());
    }
  });

  it('keeps only the last logits when asked through num_logits_to_keep, as the strict export computes them', async () => {
    const mask = [ids.map(() => 1)];
    const full = await run([ids], mask, [range(ids.length)], undefined, strict);
    expect((full.logits as ort.Tensor).dims).toEqual([1, ids.length, vocabSize]);
    const feeds = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
      attention_mask: new ort.Tensor(
        'int64',
        BigInt64Array.from(ids, () => 1n),
        [1, ids.length],
      ),
      position_ids: new ort.Tensor('int64', BigInt64Array.from(range(ids.length), BigInt), [1, ids.length]),
      num_logits_to_keep: new ort.Tensor('int64', BigInt64Array.of(1n), []),
      ...Object.fromEntries(
        range(layers).flatMap((l) =>
          ['key', 'value'].map((k) => [
            `past_key_values.${l}.${k}`,
            new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]),
          ]),
        ),
      ),
    };
    const last = await session.run(feeds);
    expect((last.logits as ort.Tensor).dims).toEqual([1, 1, vocabSize]);
    expect(maxDiff(logitsAt(last, 0, 0), logitsAt(full, 0, ids.length - 1))).toBeLessThan(1e-4);
  });

  it('computes the same logits as the TypeScript reference forward pass', async () => {
    const out = await run([ids], [ids.map(() => 1)], [range(ids.length)], undefined, strict);
    const reference = referenceLogits(TINY_QWEN3, makeWeights(TINY_QWEN3, 1), ids);
    for (let t = 0; t < ids.length; t++)
      expect(maxDiff(logitsAt(out, 0, t), reference[t] as Float64Array)).toBeLessThan(1e-3);
  });

  it('gives the same logits incrementally with the KV cache as recomputing the whole sequence', async () => {
    const full = await run([ids], [ids.map(() => 1)], [range(ids.length)]);
    let out = await run([ids.slice(0, 4)], [range(4).map(() => 1)], [range(4)]);
    for (let t = 4; t < ids.length; t++) {
      out = await run([[ids[t] as number]], [range(t + 1).map(() => 1)], [[t]], out);
      expect(maxDiff(logitsAt(out, 0, 0), logitsAt(full, 0, t))).toBeLessThan(1e-4);
    }
  });

  it('ignores left padding and masked holes: a padded batch row equals the unpadded sequence', async () => {
    const pad = 151643;
    const short = ids.slice(0, 6);
    const rows = [ids, [pad, pad, pad, pad, ...short]];
    const masks = [ids.map(() => 1), [0, 0, 0, 0, ...short.map(() => 1)]];
    const positions = [range(ids.length), [0, 0, 0, 0, ...range(6)]];
    const batched = await run(rows, masks, positions);
    const alone = await run([short], [short.map(() => 1)], [range(6)]);
    for (let t = 0; t < 6; t++)
      expect(maxDiff(logitsAt(batched, 1, t + 4), logitsAt(alone, 0, t))).toBeLessThan(1e-4);
    expect(
      maxDiff(logitsAt(batched, 0, 9), logitsAt(await run([ids], [ids.map(() => 1)], [range(10)]), 0, 9)),
    ).toBeLessThan(1e-4);
  });

  it('is deterministic from the seed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-fixture-'));
    try {
      writeFixtureModel(join(dir, 'a'), 1);
      expect(
        readFileSync(join(dir, 'a', 'onnx', 'model.onnx')).equals(
          readFileSync(join(fixtureModel(1), 'onnx', 'model.onnx')),
        ),
      ).toBe(true);
      writeFixtureModel(join(dir, 'b'), 2);
      expect(
        readFileSync(join(dir, 'b', 'onnx', 'model.onnx')).equals(
          readFileSync(join(dir, 'a', 'onnx', 'model.onnx')),
        ),
      ).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
