import { TINY_QWEN3, type TinyQwen3Config } from './config.js';

/**
 * The model shapes the fixture builder can write. `tiny` is what the tests use; the others are the
 * real Qwen3 architectures' dimensions with random weights, for benchmarks and GPU checks: the same
 * kernels at the same sizes cost the same time and memory as the trained model, with no download.
 *
 * Sources (facts, not haggle's choices):
 * - Qwen3-0.6B: the `config.json` of Qwen/Qwen3-0.6B on Hugging Face
 *   (https://huggingface.co/Qwen/Qwen3-0.6B/raw/main/config.json): 28 layers, hidden 1024, 16 query
 *   heads and 8 KV heads of dimension 128, intermediate 3072, vocabulary 151,936, tied embeddings,
 *   rope_theta 1,000,000, rms_norm_eps 1e-6; q/k RMSNorm is part of every Qwen3 (its model card).
 * - Qwen3-4B: the model card of Qwen/Qwen3-4B (36 layers, 32 query and 8 KV heads) and its
 *   `config.json` (hidden 2560, intermediate 9728, head_dim 128, vocabulary 151,936, tied embeddings,
 *   rope_theta 1,000,000, rms_norm_eps 1e-6).
 */
export const QWEN3_PRESETS = {
  tiny: TINY_QWEN3,
  'qwen3-0.6b': {
    vocabSize: 151936,
    hiddenSize: 1024,
    intermediateSize: 3072,
    layers: 28,
    heads: 16,
    kvHeads: 8,
    headDim: 128,
    rmsNormEps: 1e-6,
    ropeTheta: 1_000_000,
  },
  'qwen3-4b': {
    vocabSize: 151936,
    hiddenSize: 2560,
    intermediateSize: 9728,
    layers: 36,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    rmsNormEps: 1e-6,
    ropeTheta: 1_000_000,
  },
} satisfies Record<string, TinyQwen3Config>;

export type Qwen3Preset = keyof typeof QWEN3_PRESETS;

export function isPreset(name: string): name is Qwen3Preset {
  return Object.hasOwn(QWEN3_PRESETS, name);
}

/** Parameters of a shape (the tied head counted once), to size files and bandwidth estimates. */
export function parameterCount(c: TinyQwen3Config): number {
  const attention = c.hiddenSize * c.headDim * (2 * c.heads + 2 * c.kvHeads) + 2 * c.headDim;
  const mlp = 3 * c.hiddenSize * c.intermediateSize;
  return c.vocabSize * c.hiddenSize + c.layers * (attention + mlp + 2 * c.hiddenSize) + c.hiddenSize;
}
