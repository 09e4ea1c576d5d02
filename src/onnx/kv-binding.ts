import * as ort from 'onnxruntime-node';
import type { KvArray, KvCache } from './kv-cache.js';
import type { OnnxModelShape } from './onnx-options.js';

/**
 * Binds a KV cache to one `session.run`: its arrays as the `past_key_values.*` inputs, and views of
 * its spare arena as the `present.*` outputs, so onnxruntime writes the next cache in place. Returns
 * those views, for `cache.replace(views, total)` once the run is done.
 */
export function bindKvCache(
  cache: KvCache,
  shape: OnnxModelShape,
  total: number,
  feeds: Record<string, ort.Tensor>,
  fetches: Record<string, ort.Tensor | null>,
): KvArray[] {
  const type = shape.kvDtype;
  const pastDims = [cache.batch, shape.kvHeads, cache.length, shape.headDim];
  const presentDims = [cache.batch, shape.kvHeads, total, shape.headDim];
  const present = cache.nextArrays(total);
  for (let l = 0; l < shape.layers; l++) {
    ['key', 'value'].forEach((kind, k) => {
      feeds[`past_key_values.${l}.${kind}`] = new ort.Tensor(
        type,
        cache.arrays[2 * l + k] as KvArray,
        pastDims,
      );
      fetches[`present.${l}.${kind}`] = new ort.Tensor(type, present[2 * l + k] as KvArray, presentDims);
    });
  }
  return present;
}

/** Every output name with no buffer yet (`null`: onnxruntime allocates it). */
export function emptyFetches(session: ort.InferenceSession): Record<string, ort.Tensor | null> {
  const fetches: Record<string, ort.Tensor | null> = {};
  for (const name of session.outputNames) fetches[name] = null;
  return fetches;
}
