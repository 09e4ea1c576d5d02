import { expect } from 'vitest';
import { OnnxBackend } from '../../src/onnx/index.js';
import type { OnnxDtype } from '../../src/onnx/onnx-options.js';

/**
 * Loads `folder` with a half-precision `dtype` on the CPU and checks what a GPU user's export must give:
 * an fp16 KV cache, and `n` samples that parse and keep the schema's price range.
 */
export async function expectValidHalfPrecisionTurns(folder: string, dtype: OnnxDtype): Promise<void> {
  const backend = await OnnxBackend.load(folder, { device: 'cpu', dtype });
  try {
    expect(backend.dtype).toBe(dtype);
    expect(backend.shape.kvDtype).toBe('float16');
    const schema = {
      type: 'object',
      properties: {
        action: { enum: ['offer', 'accept'] },
        price: { type: 'number', minimum: 10, maximum: 90 },
      },
      required: ['action', 'price'],
      additionalProperties: false,
    };
    const result = await backend.doGenerate({
      prompt: { messages: [], text: '<|im_start|>user\nOffer?<|im_end|>\n<|im_start|>assistant\n' },
      responseFormat: { type: 'json', schema },
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
  } finally {
    await backend.dispose();
  }
}
