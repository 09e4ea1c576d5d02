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

/**
 * A cache of no tokens for `batch` rows, one tensor per layer and kind, named as the export's inputs
 * (`past_key_values`) or outputs (`present`): the past of a first run.
 */
export function emptyCache(
  model: BareModel,
  batch: number,
  names: 'past_key_values' | 'present',
): Record<string, ort.Tensor> {
  const cache: Record<string, ort.Tensor> = {};
  for (let l = 0; l < model.layers; l++)
    for (const kind of ['key', 'value'])
      cache[`${names}.${l}.${kind}`] = new ort.Tensor('float32', new Float32Array(0), [
        batch,
        model.kvHeads,
        0,
        model.headDim,
      ]);
  return cache;
}

/** CPU milliseconds (every thread, user and system) of one `session.run`. */
export async function cpuOfRun(model: BareModel, feeds: Record<string, ort.Tensor>): Promise<number> {
  const cpu = process.cpuUsage();
  await model.session.run(feeds);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}
