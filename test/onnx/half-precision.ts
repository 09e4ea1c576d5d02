import * as ort from 'onnxruntime-node';
import { expect } from 'vitest';
import { TINY_QWEN3 } from '../../scripts/fixture-model/config.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import type { OnnxDtype } from '../../src/onnx/onnx-options.js';

/** Helpers for the fixture's exports (fp16, q4f16, q4): the interface a user of each dtype meets. */

/** Runs `ids` through a fixture export from an empty KV cache of `type`, keeping the last logits. */
export function prefillFromEmpty(
  session: ort.InferenceSession,
  ids: number[],
  type: 'float32' | 'float16',
): Promise<ort.InferenceSession.OnnxValueMapType> {
  const { layers, kvHeads, headDim } = TINY_QWEN3;
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
    position_ids: new ort.Tensor(
      'int64',
      BigInt64Array.from(ids, (_, i) => BigInt(i)),
      [1, ids.length],
    ),
    num_logits_to_keep: new ort.Tensor('int64', BigInt64Array.of(1n), []),
  };
  for (let l = 0; l < layers; l++) {
    for (const kind of ['key', 'value']) {
      const empty = type === 'float32' ? new Float32Array(0) : new Uint16Array(0);
      feeds[`past_key_values.${l}.${kind}`] = new ort.Tensor(type, empty, [1, kvHeads, 0, headDim]);
    }
  }
  return session.run(feeds);
}

/** A small turn contract: two actions and a bounded price, every fixture export's turns checked against it. */
export const turnSchema = {
  type: 'object',
  properties: {
    action: { enum: ['offer', 'accept'] },
    price: { type: 'number', minimum: 10, maximum: 90 },
  },
  required: ['action', 'price'],
  additionalProperties: false,
};

/** Four sampled turns of a fixture export: each must parse and keep the schema's actions and price range. */
export async function expectValidTurns(backend: OnnxBackend): Promise<void> {
  const result = await backend.doGenerate({
    prompt: { messages: [], text: '<|im_start|>user\nOffer?<|im_end|>\n<|im_start|>assistant\n' },
    responseFormat: { type: 'json', schema: turnSchema },
    seed: 3,
    n: 4,
    maxTokens: 40,
  });
  expect(result.choices).toHaveLength(4);
  for (const choice of result.choices) {
    const value = JSON.parse(choice.text) as { action: string; price: number };
    expect(['offer', 'accept']).toContain(value.action);
    expect(value.price).toBeGreaterThanOrEqual(10);
    expect(value.price).toBeLessThanOrEqual(90);
  }
  expect(result.usage.completionTokens).toBeGreaterThan(4);
}

/**
 * Loads `folder` with a half-precision `dtype` on the CPU and checks what a GPU user's export must give:
 * an fp16 KV cache, and `n` samples that parse and keep the schema's price range.
 */
export async function expectValidHalfPrecisionTurns(folder: string, dtype: OnnxDtype): Promise<void> {
  const backend = await OnnxBackend.load(folder, { device: 'cpu', dtype });
  try {
    expect(backend.dtype).toBe(dtype);
    expect(backend.shape.kvDtype).toBe('float16');
    await expectValidTurns(backend);
  } finally {
    await backend.dispose();
  }
}
