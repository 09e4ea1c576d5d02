import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { halfToFloat32 } from '../../src/onnx/float16.js';
import type { TinyQwen3Config } from './config.js';
import { OnnxWeightsReader } from './onnx-weights-reader.js';
import { referenceLogits } from './reference-forward.js';
import { DTYPE_FILE, type PresetDtype } from './write-preset-folder.js';

/**
 * Largest |graph - reference| allowed, as a fraction of the reference logits' RMS (haggle's choice):
 * fp32 graphs differ from float64 by float32 rounding only (measured 5.7e-6 on the qwen3-0.6b preset);
 * fp16 and q4f16 compute in half precision (2^-11 relative per operation) through every layer
 * (measured 4.4e-3 and 4.9e-3 there). The bounds leave a 4x-20x margin over those; a wrong weight
 * layout, a misplaced norm or a rotary off by one moves logits by about their whole scale.
 */
export const CHECK_TOLERANCE: Record<PresetDtype, number> = {
  fp32: 1e-4,
  fp16: 2e-2,
  q4f16: 2e-2,
  q4: 0.25,
  q8: 0.25,
};

/** A short chat-shaped prompt of real Qwen3 token ids: `<|im_start|>user\nHello, world!`. */
export const CHECK_TOKENS = [151644, 872, 198, 9707, 11, 1879, 0];

export interface CheckResult {
  folder: string;
  file: string;
  dtype: PresetDtype;
  tokens: number;
  /** Largest absolute difference over every position's logits. */
  maxAbsDiff: number;
  /** RMS of the reference logits: the scale differences are judged against. */
  referenceRms: number;
  relative: number;
  tolerance: number;
  /** Positions whose top token the graph and the reference agree on. */
  sameArgmax: number;
  ok: boolean;
  onnxMs: number;
  referenceMs: number;
}

/** The shape a model folder's `config.json` declares, in the fixture builder's terms. */
export function readShape(folder: string): TinyQwen3Config {
  const json = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, number>;
  return {
    vocabSize: json.vocab_size as number,
    hiddenSize: json.hidden_size as number,
    intermediateSize: json.intermediate_size as number,
    layers: json.num_hidden_layers as number,
    heads: json.num_attention_heads as number,
    kvHeads: json.num_key_value_heads as number,
    headDim: json.head_dim as number,
    rmsNormEps: json.rms_norm_eps as number,
    ropeTheta: json.rope_theta as number,
  };
}

/**
 * Runs the written graph on a few tokens from an empty cache (logits of every position) and the
 * float64 TypeScript forward pass on the weights read back from the same files, and compares.
 */
export async function checkFixtureModel(
  folder: string,
  options: { dtype?: PresetDtype; tokens?: number[] } = {},
): Promise<CheckResult> {
  const dtype = options.dtype ?? 'fp32';
  const ids = options.tokens ?? CHECK_TOKENS;
  const file = join(folder, 'onnx', DTYPE_FILE[dtype]);
  if (!existsSync(file)) throw new Error(`${file} does not exist: build it with --dtype ${dtype}`);
  const config = readShape(folder);
  const session = await ort.InferenceSession.create(file);
  const started = performance.now();
  let got: Float32Array[];
  try {
    const kvType = session.inputMetadata.find((m) => m.name === 'past_key_values.0.key');
    const half = kvType && 'type' in kvType && kvType.type === 'float16';
    const n = ids.length;
    const feeds: Record<string, ort.Tensor> = {
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
    for (let l = 0; l < config.layers; l++)
      for (const kind of ['key', 'value'])
        feeds[`past_key_values.${l}.${kind}`] = half
          ? new ort.Tensor('float16', new Uint16Array(0), [1, config.kvHeads, 0, config.headDim])
          : new ort.Tensor('float32', new Float32Array(0), [1, config.kvHeads, 0, config.headDim]);
    const out = await session.run(feeds);
    const logits = out.logits as ort.Tensor;
    const v = config.vocabSize;
    got = ids.map((_, t) =>
      logits.type === 'float16'
        ? halfToFloat32(logits.data as Uint16Array, t * v, (t + 1) * v)
        : (logits.data as Float32Array).slice(t * v, (t + 1) * v),
    );
  } finally {
    await session.release();
  }
  const onnxMs = performance.now() - started;
  const reader = new OnnxWeightsReader(file, config);
  const referenceStarted = performance.now();
  let reference: Float64Array<ArrayBufferLike>[];
  try {
    reference = referenceLogits(config, reader, ids);
  } finally {
    reader.close();
  }
  const referenceMs = performance.now() - referenceStarted;
  let maxAbsDiff = 0;
  let squares = 0;
  let sameArgmax = 0;
  ids.forEach((_, t) => {
    const a = got[t] as Float32Array;
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
    if (bestA === bestB) sameArgmax++;
  });
  const referenceRms = Math.sqrt(squares / (ids.length * config.vocabSize));
  const relative = maxAbsDiff / referenceRms;
  const tolerance = CHECK_TOLERANCE[dtype];
  return {
    folder,
    file: DTYPE_FILE[dtype],
    dtype,
    tokens: ids.length,
    maxAbsDiff,
    referenceRms,
    relative,
    tolerance,
    sameArgmax,
    ok: relative <= tolerance,
    onnxMs,
    referenceMs,
  };
}

export function printCheck(r: CheckResult): void {
  console.log(
    `${r.ok ? 'ok  ' : 'FAIL'} ${r.file} against the float64 reference on ${r.tokens} tokens: ` +
      `max |diff| ${r.maxAbsDiff.toExponential(2)} = ${r.relative.toExponential(2)} x the logits' RMS ` +
      `${r.referenceRms.toFixed(2)} (tolerance ${r.tolerance}); same top token at ${r.sameArgmax}/${r.tokens} ` +
      `positions; onnx ${(r.onnxMs / 1000).toFixed(1)} s, reference ${(r.referenceMs / 1000).toFixed(1)} s`,
  );
}
