import type { CheckpointFolder } from './checkpoint-folder.js';
import type { LoraAdapter } from './lora-adapter.js';
import type { MergeProduct } from './onnxruntime-merge.js';
import { NORM_NAMES, PROJECTION_NAMES, type ProjectionKind, type WeightSource } from './weight-source.js';

/** Embedding rows read per piece: about 16 MB of float32 at Qwen3-4B's width (haggle's choice). */
const EMBED_PIECE_VALUES = 1 << 22;

/**
 * The weights of a checkpoint as the graph builder asks for them, one tensor at a time: each
 * projection read in float32, the adapter's scale * B A added (in float32, before any conversion to
 * fp16 or 4 bits), then transposed from transformers' [out, in] to ONNX MatMul's [in, out]. With
 * `product` (onnxruntime's GEMM) the builder merges through `projectionAsync`; `projection` merges in
 * JavaScript (the reference forward pass of `--check` reads through it).
 */
export function checkpointWeights(
  checkpoint: CheckpointFolder,
  adapter?: LoraAdapter,
  product?: MergeProduct,
): WeightSource {
  const { hiddenSize: d, vocabSize } = checkpoint.shape;
  return {
    projection(layer, kind) {
      const name = `model.layers.${layer}.${PROJECTION_NAMES[kind]}.weight`;
      const [out, inputs] = checkpoint.shapeOf(name) as [number, number];
      const weight = checkpoint.read(name);
      adapter?.mergeInto(weight, layer, kind, out, inputs);
      return transpose(weight, out, inputs);
    },
    ...(adapter && product
      ? {
          async projectionAsync(layer: number, kind: ProjectionKind) {
            const name = `model.layers.${layer}.${PROJECTION_NAMES[kind]}.weight`;
            const [out, inputs] = checkpoint.shapeOf(name) as [number, number];
            const merged = await adapter.mergeWith(product, checkpoint.read(name), layer, kind, out, inputs);
            return transpose(merged, out, inputs);
          },
        }
      : {}),
    norm: (layer, kind) => checkpoint.read(`model.layers.${layer}.${NORM_NAMES[kind]}`),
    finalNorm: () => checkpoint.read('model.norm.weight'),
    *embedChunks() {
      const rows = Math.max(1, Math.floor(EMBED_PIECE_VALUES / d));
      for (let row = 0; row < vocabSize; row += rows)
        yield checkpoint.read('model.embed_tokens.weight', row * d, Math.min(rows, vocabSize - row) * d);
    },
  };
}

/** [rows, cols] -> [cols, rows], in tiles so both sides stay in cache. */
export function transpose(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  const TILE = 64;
  for (let r0 = 0; r0 < rows; r0 += TILE)
    for (let c0 = 0; c0 < cols; c0 += TILE) {
      const rEnd = Math.min(rows, r0 + TILE);
      const cEnd = Math.min(cols, c0 + TILE);
      for (let r = r0; r < rEnd; r++)
        for (let c = c0; c < cEnd; c++) out[c * rows + r] = values[r * cols + c] as number;
    }
  return out;
}
