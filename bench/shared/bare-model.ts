import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';

/**
 * The model folder a real-size bench was given with `--model`, resolved; exits with code 2 and how to
 * build one when it is missing (these benches have no tiny default: they measure a real size).
 */
export function requiredModelFolder(model: string | undefined): string {
  if (!model) {
    console.error('--model DIR is required (npm run fixture:model -- --preset qwen3-0.6b --out DIR)');
    process.exit(2);
  }
  return resolve(model);
}

/** A model folder's bare onnxruntime session and the cache shape its feeds need (no haggle code). */
export interface BareModel {
  session: ort.InferenceSession;
  layers: number;
  kvHeads: number;
  headDim: number;
  /** The export takes `num_logits_to_keep`. */
  keepsLogits: boolean;
}

export async function loadBareModel(folder: string): Promise<BareModel> {
  const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, number>;
  const session = await ort.InferenceSession.create(join(folder, 'onnx', 'model.onnx'), {
    graphOptimizationLevel: 'all',
  });
  return {
    session,
    layers: config.num_hidden_layers as number,
    kvHeads: config.num_key_value_heads as number,
    headDim: config.head_dim as number,
    keepsLogits: session.inputNames.includes('num_logits_to_keep'),
  };
}
