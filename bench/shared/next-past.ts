import * as ort from 'onnxruntime-node';

/**
 * The next step's past, keyed `present.{l}.key|value` as a plain export returns it: the run's outputs
 * themselves, or, for a graph that returns only its new columns (`new_key_values.*`, haggle's q4/q8),
 * the past with those columns appended to every (row, head) plane, as the decoder's KvCache does.
 */
export function nextPast(
  past: Record<string, ort.Tensor>,
  out: ort.InferenceSession.OnnxValueMapType,
  layers: number,
): Record<string, ort.Tensor> {
  if (!out['new_key_values.0.key']) return out as Record<string, ort.Tensor>;
  const next: Record<string, ort.Tensor> = {};
  for (let l = 0; l < layers; l++)
    for (const kind of ['key', 'value']) {
      const old = past[`present.${l}.${kind}`] as ort.Tensor;
      const fresh = out[`new_key_values.${l}.${kind}`] as ort.Tensor;
      const [batch, heads, length, headDim] = old.dims as number[];
      const width = fresh.dims[2] as number;
      const a = old.data as Float32Array | Uint16Array;
      const b = fresh.data as Float32Array | Uint16Array;
      const joined =
        a instanceof Float32Array
          ? new Float32Array(a.length + b.length)
          : new Uint16Array(a.length + b.length);
      const was = (length as number) * (headDim as number);
      const added = width * (headDim as number);
      for (let plane = 0; plane < (batch as number) * (heads as number); plane++) {
        joined.set(a.subarray(plane * was, (plane + 1) * was), plane * (was + added));
        joined.set(b.subarray(plane * added, (plane + 1) * added), plane * (was + added) + was);
      }
      next[`present.${l}.${kind}`] = new ort.Tensor(old.type as 'float32', joined, [
        batch as number,
        heads as number,
        (length as number) + width,
        headDim as number,
      ]);
    }
  return next;
}
