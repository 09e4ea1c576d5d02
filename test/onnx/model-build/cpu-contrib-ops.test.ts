import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_QWEN3 } from '../../../scripts/fixture-model/config.js';
import { seededWeights } from '../../../scripts/fixture-model/seeded-weights.js';
import { KvCache } from '../../../src/onnx/kv-cache.js';
import { buildQwen3Graph } from '../../../src/onnx/model-build/qwen3-graph.js';
import { referenceLogits } from '../../../src/onnx/model-build/reference-forward.js';
import { MULTI_POSITION_REFUSAL } from '../../../src/onnx/multi-position-refusal.js';

// The graph built from onnxruntime's CPU contrib ops (`fuseCpuOps`: GroupQueryAttention,
// RotaryEmbedding, SimplifiedLayerNormalization, SkipSimplifiedLayerNormalization) must be the plain
// graph's model, with its interface, for every feed the batch decoder makes: rows left-padded to a
// common width, columns hidden in the middle of a row (a rolled-back jump-forward) with positions
// that are not the column's index, and several positions a row over a past (prefill chunks). Both
// compute in float32 over the same seeded weights, so they agree to float32 rounding.
const { layers, kvHeads, headDim, vocabSize } = TINY_QWEN3;
const weights = seededWeights(TINY_QWEN3, 1);

interface Feed {
  ids: number[][];
  mask: number[][];
  positions: number[][];
}

async function run(
  session: ort.InferenceSession,
  feed: Feed,
  past: Record<string, ort.Tensor> | null,
  options: ort.InferenceSession.RunOptions = {},
): Promise<ort.InferenceSession.OnnxValueMapType> {
  const batch = feed.ids.length;
  const width = (feed.ids[0] as number[]).length;
  const total = (feed.mask[0] as number[]).length;
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(feed.ids.flat(), BigInt), [batch, width]),
    attention_mask: new ort.Tensor('int64', BigInt64Array.from(feed.mask.flat(), BigInt), [batch, total]),
    position_ids: new ort.Tensor('int64', BigInt64Array.from(feed.positions.flat(), BigInt), [batch, width]),
    num_logits_to_keep: new ort.Tensor('int64', BigInt64Array.of(BigInt(width)), []),
  };
  for (let l = 0; l < layers; l++)
    for (const kind of ['key', 'value'])
      feeds[`past_key_values.${l}.${kind}`] =
        past?.[`present.${l}.${kind}`] ??
        new ort.Tensor('float32', new Float32Array(0), [batch, kvHeads, 0, headDim]);
  return session.run(feeds, options);
}

/** Largest |a - b| over the positions whose mask says they are real (padding logits are never read). */
function maxDiffAtReal(a: ort.Tensor, b: ort.Tensor, real: boolean[]): number {
  const x = a.data as Float32Array;
  const y = b.data as Float32Array;
  let most = 0;
  real.forEach((isReal, p) => {
    if (!isReal) return;
    for (let v = p * vocabSize; v < (p + 1) * vocabSize; v++)
      most = Math.max(most, Math.abs((x[v] as number) - (y[v] as number)));
  });
  return most;
}

describe('the fused CPU graph (fuseCpuOps) against the plain graph', () => {
  let plain: ort.InferenceSession;
  let fused: ort.InferenceSession;
  beforeAll(async () => {
    plain = await ort.InferenceSession.create(buildQwen3Graph(TINY_QWEN3, weights, {}));
    fused = await ort.InferenceSession.create(buildQwen3Graph(TINY_QWEN3, weights, { fuseCpuOps: true }));
  });
  afterAll(async () => {
    await plain?.release();
    await fused?.release();
  });

  it('uses the contrib ops and none of the plain attention operators', () => {
    const text = new TextDecoder('latin1').decode(buildQwen3Graph(TINY_QWEN3, weights, { fuseCpuOps: true }));
    for (const op of ['GroupQueryAttention', 'RotaryEmbedding', 'SkipSimplifiedLayerNormalization'])
      expect(text).toContain(op);
    for (const op of ['Softmax', 'ReduceMean', 'Transpose']) expect(text).not.toContain(op);
  });

  it('is the float64 reference model: a prompt from an empty cache, every position', async () => {
    const ids = [151644, 872, 198, 9707, 11, 1879, 0];
    const out = await run(
      fused,
      { ids: [ids], mask: [ids.map(() => 1)], positions: [ids.map((_, i) => i)] },
      null,
    );
    const want = referenceLogits(TINY_QWEN3, weights, ids);
    const got = out.logits?.data as Float32Array;
    let most = 0;
    let rms = 0;
    want.forEach((position, t) => {
      position.forEach((value, v) => {
        most = Math.max(most, Math.abs((got[t * vocabSize + v] as number) - value));
        rms += value ** 2;
      });
    });
    rms = Math.sqrt(rms / (want.length * vocabSize));
    // fp32's --check tolerance is relative to the logits' RMS; a wrong norm or rotation is far above.
    expect(most / rms).toBeLessThan(1e-4);
  });

  it('agrees with the plain graph on left-padded rows, hidden columns and positions past the columns', async () => {
    // Step 1: two rows left-padded to 6 (row 1 has 4 real tokens).
    const first: Feed = {
      ids: [
        [151644, 872, 198, 9707, 11, 1879],
        [0, 0, 151644, 872, 198, 42],
      ],
      mask: [
        [1, 1, 1, 1, 1, 1],
        [0, 0, 1, 1, 1, 1],
      ],
      positions: [
        [0, 1, 2, 3, 4, 5],
        [0, 0, 0, 1, 2, 3],
      ],
    };
    // Step 2: row 0's column 4 is hidden (a rolled-back token), so its position runs on from the
    // tokens it kept (5), not from the column index (6).
    const second: Feed = {
      ids: [[77], [55]],
      mask: [
        [1, 1, 1, 1, 0, 1, 1],
        [0, 0, 1, 1, 1, 1, 1],
      ],
      positions: [[5], [4]],
    };
    const third: Feed = {
      ids: [[5], [6]],
      mask: [
        [1, 1, 1, 1, 0, 1, 1, 1],
        [0, 0, 1, 1, 1, 1, 1, 1],
      ],
      positions: [[6], [5]],
    };
    await expectSameSteps([first, second, third]);
  });

  it('agrees with the plain graph on several positions over a past at batch 1 (a prefill chunk)', async () => {
    const ids = [151644, 872, 198, 9707];
    await expectSameSteps([
      { ids: [ids], mask: [[1, 1, 1, 1]], positions: [[0, 1, 2, 3]] },
      { ids: [[11, 1879, 0]], mask: [[1, 0, 1, 1, 1, 1, 1]], positions: [[3, 4, 5]] },
    ]);
  });

  it("refuses several positions over a past at batch > 1, onnxruntime's limit the decoder steps around", async () => {
    const prompt: Feed = {
      ids: [
        [151644, 872],
        [198, 42],
      ],
      mask: [
        [1, 1],
        [1, 1],
      ],
      positions: [
        [0, 1],
        [0, 1],
      ],
    };
    const wide: Feed = {
      ids: [
        [5, 6],
        [7, 8],
      ],
      mask: [
        [1, 1, 1, 1],
        [1, 1, 1, 1],
      ],
      positions: [
        [2, 3],
        [2, 3],
      ],
    };
    const past = await run(fused, prompt, null);
    await expect(run(fused, wide, past, { logSeverityLevel: 4 })).rejects.toThrow(MULTI_POSITION_REFUSAL);
    // The plain graph computes it.
    await expect(run(plain, wide, await run(plain, prompt, null))).resolves.toBeDefined();
  });

  /** Runs the feeds in turn through both graphs, each over its own past, and compares every step. */
  async function expectSameSteps(steps: Feed[]): Promise<void> {
    let pastPlain: ort.InferenceSession.OnnxValueMapType | null = null;
    let pastFused: ort.InferenceSession.OnnxValueMapType | null = null;
    for (const feed of steps) {
      const a: ort.InferenceSession.OnnxValueMapType = await run(plain, feed, pastPlain);
      const b: ort.InferenceSession.OnnxValueMapType = await run(fused, feed, pastFused);
      const width = (feed.ids[0] as number[]).length;
      const real = feed.mask.flatMap((row) => row.slice(row.length - width).map((m) => m === 1));
      expect(b.logits?.dims).toEqual(a.logits?.dims);
      expect(maxDiffAtReal(a.logits as ort.Tensor, b.logits as ort.Tensor, real)).toBeLessThan(1e-3);
      // The KV cache keeps the plain graph's layout, so the decoder can mix the two (and compact it).
      const total = (feed.mask[0] as number[]).length;
      for (const name of ['present.0.key', `present.${layers - 1}.value`]) {
        expect(b[name]?.dims).toEqual([feed.ids.length, kvHeads, total, headDim]);
        const x = a[name]?.data as Float32Array;
        const y = b[name]?.data as Float32Array;
        // Every column a row attends to. (A padding position that sees no key at all averages every
        // key in the plain graph and its causal window in GroupQueryAttention: what it writes in later
        // layers differs, and stays hidden by the mask.)
        let most = 0;
        feed.mask.forEach((row, b) => {
          for (let h = 0; h < kvHeads; h++)
            row.forEach((m, c) => {
              if (m !== 1) return;
              for (let e = 0; e < headDim; e++) {
                const i = ((b * kvHeads + h) * total + c) * headDim + e;
                most = Math.max(most, Math.abs((x[i] as number) - (y[i] as number)));
              }
            });
        });
        expect(most).toBeLessThan(1e-3);
      }
      pastPlain = a;
      pastFused = b;
    }
  }
});

// `kvOutputs: 'new'` (haggle's q4 and q8 exports): the same fused graph returning only each run's own
// keys and values, which the decoder appends to its cache (src/onnx/kv-cache.ts `append`). Fed the
// cache built that way, it must compute what the `present.*` form computes, step after step.
describe("the fused graph with kvOutputs: 'new' against the one with present outputs", () => {
  let present: ort.InferenceSession;
  let appended: ort.InferenceSession;
  beforeAll(async () => {
    present = await ort.InferenceSession.create(buildQwen3Graph(TINY_QWEN3, weights, { fuseCpuOps: true }));
    appended = await ort.InferenceSession.create(
      buildQwen3Graph(TINY_QWEN3, weights, { fuseCpuOps: true, kvOutputs: 'new' }),
    );
  });
  afterAll(async () => {
    await present?.release();
    await appended?.release();
  });

  it('returns new_key_values.* only, and refuses the option without the fused graph', () => {
    expect(appended.outputNames).toContain('new_key_values.0.key');
    expect(appended.outputNames).toContain(`new_key_values.${layers - 1}.value`);
    expect(appended.outputNames.filter((name) => name.startsWith('present'))).toEqual([]);
    expect(() => buildQwen3Graph(TINY_QWEN3, weights, { kvOutputs: 'new' })).toThrow(/needs fuseCpuOps/);
  });

  it("gives the same logits, and its new columns are the present outputs' last columns, over left padding and a prefill chunk", async () => {
    const steps: Feed[] = [
      {
        ids: [
          [151644, 872, 198, 9707],
          [0, 0, 151644, 872],
        ],
        mask: [
          [1, 1, 1, 1],
          [0, 0, 1, 1],
        ],
        positions: [
          [0, 1, 2, 3],
          [0, 0, 0, 1],
        ],
      },
      { ids: [[77], [55]], mask: [Array(5).fill(1), [0, 0, 1, 1, 1]], positions: [[4], [2]] },
      {
        ids: [[5], [6]],
        mask: [
          [1, 1, 1, 0, 1, 1],
          [0, 0, 1, 1, 1, 1],
        ],
        positions: [[4], [3]],
      },
    ];
    let pastPresent: ort.InferenceSession.OnnxValueMapType | null = null;
    const cache = new KvCache(layers, kvHeads, headDim, false);
    cache.addRows(2);
    for (const feed of steps) {
      const a: ort.InferenceSession.OnnxValueMapType = await run(present, feed, pastPresent);
      const cachePast: Record<string, ort.Tensor> = {};
      cache.arrays.forEach((array, i) => {
        cachePast[`present.${i >> 1}.${i % 2 === 0 ? 'key' : 'value'}`] = new ort.Tensor('float32', array, [
          2,
          kvHeads,
          cache.length,
          headDim,
        ]);
      });
      const b = await run(appended, feed, cache.length === 0 ? null : cachePast);
      const width = (feed.ids[0] as number[]).length;
      expect(b.logits?.dims).toEqual(a.logits?.dims);
      expect(maxDiffAtReal(a.logits as ort.Tensor, b.logits as ort.Tensor, Array(2 * width).fill(true))).toBe(
        0,
      );
      const total = (feed.mask[0] as number[]).length;
      cache.append(
        Array.from({ length: layers * 2 }, (_, i) => {
          const name = `new_key_values.${i >> 1}.${i % 2 === 0 ? 'key' : 'value'}`;
          expect(b[name]?.dims).toEqual([2, kvHeads, width, headDim]);
          return b[name]?.data as Float32Array;
        }),
        width,
      );
      // The appended cache is the present output, every column of every row (padding included).
      cache.arrays.forEach((array, i) => {
        const name = `present.${i >> 1}.${i % 2 === 0 ? 'key' : 'value'}`;
        expect(a[name]?.dims).toEqual([2, kvHeads, total, headDim]);
        expect(array).toEqual(a[name]?.data);
      });
      pastPresent = a;
    }
  });
});
