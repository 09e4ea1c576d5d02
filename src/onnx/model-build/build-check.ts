import { halfToFloat32 } from '../float16.js';
import { assertOnnxRuntimeInstalled } from '../runtime-package.js';
import type { Qwen3Shape } from './qwen3-shape.js';
import { referenceLogits } from './reference-forward.js';
import type { ModelDtype } from './stored-weights.js';
import type { WeightSource } from './weight-source.js';

/**
 * Largest |graph - reference| allowed, as a fraction of the reference logits' RMS (haggle's choice,
 * the fixture presets' bounds): fp32 differs from float64 by float32 rounding only (measured 5.7e-6
 * on the qwen3-0.6b preset); fp16 and q4f16 compute in half precision through every layer (measured
 * 4.4e-3 and 4.9e-3). A wrong weight layout, a misplaced norm or a rotary off by one moves logits by
 * about their whole scale. q4 quantizes activations to int8 inside `MatMulNBits` (accuracy level 4,
 * dtype-graph-options.ts): measured 0.11 on the qwen3-0.6b preset and 0.066 on the tiny fixture, so
 * 0.25; a head left unquantized in the reference (the 4-bit error itself) measures about 0.7.
 */
export const CHECK_TOLERANCE: Record<ModelDtype, number> = {
  fp32: 1e-4,
  fp16: 2e-2,
  q4f16: 2e-2,
  q4: 0.25,
  q8: 0.25,
};

/** A short chat-shaped prompt of real Qwen3 token ids: `<|im_start|>user\nHello, world!`. */
export const CHECK_TOKENS = [151644, 872, 198, 9707, 11, 1879, 0];

export interface BuildCheck {
  dtype: ModelDtype;
  tokens: number;
  /** Largest absolute difference over every position's logits. */
  maxAbsDiff: number;
  /** RMS of the reference logits: the scale the difference is judged against. */
  referenceRms: number;
  relative: number;
  tolerance: number;
  /** Positions whose top token the graph and the reference agree on. */
  sameArgmax: number;
  ok: boolean;
}

/** Logits of every position of `ids` from an empty cache, as onnxruntime computes them from `modelPath`. */
export async function graphLogits(
  modelPath: string,
  shape: Qwen3Shape,
  ids: number[],
): Promise<Float32Array[]> {
  assertOnnxRuntimeInstalled();
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(modelPath);
  try {
    const half = session.inputMetadata.some(
      (m) => m.name === 'past_key_values.0.key' && 'type' in m && m.type === 'float16',
    );
    const n = ids.length;
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, n]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
      position_ids: new ort.Tensor(
        'int64',
        BigInt64Array.from(ids, (_, i) => BigInt(i)),
        [1, n],
      ),
    };
    if (session.inputNames.includes('num_logits_to_keep'))
      feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(BigInt(n)), []);
    for (let l = 0; l < shape.layers; l++)
      for (const kind of ['key', 'value'])
        feeds[`past_key_values.${l}.${kind}`] = half
          ? new ort.Tensor('float16', new Uint16Array(0), [1, shape.kvHeads, 0, shape.headDim])
          : new ort.Tensor('float32', new Float32Array(0), [1, shape.kvHeads, 0, shape.headDim]);
    const out = await session.run(feeds);
    const logits = out.logits as InstanceType<typeof ort.Tensor>;
    const v = shape.vocabSize;
    return ids.map((_, t) =>
      logits.type === 'float16'
        ? halfToFloat32(logits.data as Uint16Array, t * v, (t + 1) * v)
        : (logits.data as Float32Array).slice(t * v, (t + 1) * v),
    );
  } finally {
    await session.release();
  }
}

/** Compares logits with the reference's: the largest difference, relative to the reference's RMS. */
export function compareLogits(
  got: Float32Array[],
  reference: Float64Array<ArrayBufferLike>[],
  dtype: ModelDtype,
): BuildCheck {
  let maxAbsDiff = 0;
  let squares = 0;
  let count = 0;
  let sameArgmax = 0;
  got.forEach((a, t) => {
    const b = reference[t] as Float64Array;
    let bestA = 0;
    let bestB = 0;
    for (let i = 0; i < a.length; i++) {
      const diff = Math.abs((a[i] as number) - (b[i] as number));
      // NaN must fail the check, not slip past Math.max.
      maxAbsDiff = Number.isNaN(diff) ? Number.POSITIVE_INFINITY : Math.max(maxAbsDiff, diff);
      squares += (b[i] as number) ** 2;
      if ((a[i] as number) > (a[bestA] as number)) bestA = i;
      if ((b[i] as number) > (b[bestB] as number)) bestB = i;
    }
    count += a.length;
    if (bestA === bestB) sameArgmax++;
  });
  const referenceRms = Math.sqrt(squares / Math.max(1, count));
  const relative = maxAbsDiff / referenceRms;
  const tolerance = CHECK_TOLERANCE[dtype];
  return {
    dtype,
    tokens: got.length,
    maxAbsDiff,
    referenceRms,
    relative,
    tolerance,
    sameArgmax,
    ok: relative <= tolerance,
  };
}

/** Runs the built graph and the float64 reference over `weights` (as the graph stores them) and compares. */
export async function checkBuiltGraph(
  modelPath: string,
  shape: Qwen3Shape,
  weights: WeightSource,
  dtype: ModelDtype,
  tokens: number[] = CHECK_TOKENS,
): Promise<BuildCheck> {
  const ids = tokens.map((id) => id % shape.vocabSize);
  const got = await graphLogits(modelPath, shape, ids);
  return compareLogits(got, referenceLogits(shape, weights, ids), dtype);
}

export function describeCheck(check: BuildCheck): string {
  return (
    `${check.ok ? 'ok' : 'FAIL'} ${check.dtype}: largest logit difference from the float64 reference ` +
    `${check.maxAbsDiff.toExponential(2)} = ${check.relative.toExponential(2)} x the logits' RMS ` +
    `${check.referenceRms.toFixed(3)} (tolerance ${check.tolerance}) over ${check.tokens} positions; ` +
    `same top token at ${check.sameArgmax}/${check.tokens}`
  );
}
