import * as ort from 'onnxruntime-node';
import type { KvArray, KvCache } from './kv-cache.js';
import type { OnnxModelShape } from './onnx-options.js';

/**
 * Binds a KV cache to one `session.run` and returns what turns the run's outputs into the next cache
 * `total` columns long. Its arrays are always the `past_key_values.*` inputs; what comes back depends
 * on the graph's outputs:
 * - `present.*` (the whole next cache, every export but haggle's fused q4/q8): views of the cache's
 *   spare arena are bound as those outputs, so onnxruntime writes the next cache in place, and the
 *   finish step takes them as the cache.
 * - `new_key_values.*` (the run's own columns only): the finish step appends them to the cache.
 *   onnxruntime-node returns every output as a fresh copy, so a whole-cache output allocates and drops
 *   the KV cache every step; outputs that do not grow with the cache leave V8's collector little to do.
 */
export function bindKvCache(
  cache: KvCache,
  shape: OnnxModelShape,
  total: number,
  feeds: Record<string, ort.Tensor>,
  fetches: Record<string, ort.Tensor | null>,
): (outputs: ort.InferenceSession.OnnxValueMapType) => void {
  const type = shape.kvDtype;
  const pastDims = [cache.batch, shape.kvHeads, cache.length, shape.headDim];
  for (let l = 0; l < shape.layers; l++) {
    ['key', 'value'].forEach((kind, k) => {
      feeds[`past_key_values.${l}.${kind}`] = new ort.Tensor(
        type,
        cache.arrays[2 * l + k] as KvArray,
        pastDims,
      );
    });
  }
  if (returnsNewColumns(fetches)) {
    const width = total - cache.length;
    return (outputs) => {
      const columns = kvNames(shape.layers, 'new_key_values').map((name) => {
        const tensor = outputs[name];
        if (!tensor) throw new Error(`the model returned no ${name}`);
        return tensor.data as KvArray;
      });
      cache.append(columns, width);
    };
  }
  const presentDims = [cache.batch, shape.kvHeads, total, shape.headDim];
  const present = cache.nextArrays(total);
  kvNames(shape.layers, 'present').forEach((name, i) => {
    fetches[name] = new ort.Tensor(type, present[i] as KvArray, presentDims);
  });
  return (outputs) => {
    for (const name of kvNames(shape.layers, 'present'))
      if (!outputs[name]) throw new Error(`the model returned no ${name}`);
    cache.replace(present, total);
  };
}

/** Whether the graph returns only a run's new keys and values (`new_key_values.*`, haggle's q4/q8). */
function returnsNewColumns(fetches: Record<string, ort.Tensor | null>): boolean {
  return 'new_key_values.0.key' in fetches;
}

/** `prefix.{l}.key`, `prefix.{l}.value` for every layer, in the cache's array order. */
function kvNames(layers: number, prefix: string): string[] {
  return Array.from({ length: layers * 2 }, (_, i) => `${prefix}.${i >> 1}.${i % 2 === 0 ? 'key' : 'value'}`);
}

/** Every output name with no buffer yet (`null`: onnxruntime allocates it). */
export function emptyFetches(session: ort.InferenceSession): Record<string, ort.Tensor | null> {
  const fetches: Record<string, ort.Tensor | null> = {};
  for (const name of session.outputNames) fetches[name] = null;
  return fetches;
}
