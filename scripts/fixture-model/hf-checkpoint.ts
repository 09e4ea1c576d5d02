import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Qwen3Shape } from '../../src/onnx/model-build/qwen3-shape.js';
import {
  NORM_KINDS,
  NORM_NAMES,
  PROJECTION_KINDS,
  PROJECTION_NAMES,
  type ProjectionKind,
} from '../../src/onnx/model-build/weight-source.js';
import { configJson, GENERATION_CONFIG } from './config.js';
import { roundToBfloat16, type TensorToWrite, writeSafetensors } from './safetensors-writer.js';
import { seededNorm, seededTensor } from './seeded-tensor.js';
import { qwen3TokenizerFolder } from './write-model-folder.js';

/**
 * Random Qwen3 checkpoints and LoRA adapters in the files Hugging Face and PEFT write (safetensors
 * with transformers' and PEFT's tensor names, sharded with an index), for the tests and the benchmark
 * of `haggle model build`: nothing is downloaded. Each tensor is made from the seed and its name when
 * written, so a 4B checkpoint is written in bounded memory and any tensor can be made again.
 */
export interface HfTensor {
  name: string;
  /** transformers' layout: projections [out, in]. */
  shape: number[];
  /** The values in float32, before rounding to the file's dtype. */
  make: () => Float32Array;
}

export type StoredDtype = 'BF16' | 'F16' | 'F32';

/** The shapes of each projection in transformers' [out, in] layout. */
export function projectionShape(shape: Qwen3Shape, kind: ProjectionKind): [number, number] {
  const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m } = shape;
  return {
    q: [heads * headDim, d],
    k: [kvHeads * headDim, d],
    v: [kvHeads * headDim, d],
    o: [d, heads * headDim],
    gate: [m, d],
    up: [m, d],
    down: [d, m],
  }[kind] as [number, number];
}

/** Every tensor of a Qwen3 checkpoint (tied head: no lm_head), in transformers' order and names. */
export function checkpointTensors(shape: Qwen3Shape, seed: number): HfTensor[] {
  const { hiddenSize: d, headDim, vocabSize, layers } = shape;
  const residual = 1 / Math.sqrt(2 * layers);
  const out: HfTensor[] = [
    {
      name: 'model.embed_tokens.weight',
      shape: [vocabSize, d],
      make: () => seededTensor(seed, 'embed', vocabSize * d, 3 / Math.sqrt(d)),
    },
  ];
  for (let l = 0; l < layers; l++) {
    for (const kind of PROJECTION_KINDS) {
      const [rows, cols] = projectionShape(shape, kind);
      const scale = kind === 'o' || kind === 'down' ? residual : 1;
      out.push({
        name: `model.layers.${l}.${PROJECTION_NAMES[kind]}.weight`,
        shape: [rows, cols],
        make: () => seededTensor(seed, `layer.${l}.${kind}`, rows * cols, scale / Math.sqrt(cols)),
      });
    }
    for (const kind of NORM_KINDS) {
      const size = kind === 'qNorm' || kind === 'kNorm' ? headDim : d;
      out.push({
        name: `model.layers.${l}.${NORM_NAMES[kind]}`,
        shape: [size],
        make: () => seededNorm(seed, `layer.${l}.${kind}`, size),
      });
    }
  }
  out.push({ name: 'model.norm.weight', shape: [d], make: () => seededNorm(seed, 'final_norm', d) });
  return out;
}

/** The float32 values a reader of the file gets back for a tensor stored in `dtype`. */
export function storedValues(tensor: HfTensor, dtype: StoredDtype): Float32Array {
  const values = tensor.make();
  if (dtype === 'BF16') return roundToBfloat16(values);
  if (dtype === 'F32') return values;
  throw new Error('F16 read-back is not needed by the tests');
}

export interface CheckpointOptions {
  shape: Qwen3Shape;
  seed: number;
  /** The tensors' dtype in the files (default BF16, as Qwen3's checkpoints are). */
  dtype?: StoredDtype;
  /** 1 writes `model.safetensors`; more write `model-0000N-of-0000M.safetensors` and the index. */
  shards?: number;
}

/** Writes config.json, generation_config.json, the real Qwen3 tokenizer files and the weights. */
export function writeHfCheckpoint(
  folder: string,
  options: CheckpointOptions,
): { files: string[]; bytes: number } {
  const dtype = options.dtype ?? 'BF16';
  const shards = options.shards ?? 1;
  mkdirSync(folder, { recursive: true });
  const config = configJson(options.shape);
  config.torch_dtype = { BF16: 'bfloat16', F16: 'float16', F32: 'float32' }[dtype];
  delete config['transformers.js_config'];
  writeFileSync(join(folder, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  writeFileSync(join(folder, 'generation_config.json'), `${JSON.stringify(GENERATION_CONFIG, null, 2)}\n`);
  for (const name of ['tokenizer.json', 'tokenizer_config.json'])
    copyFileSync(join(qwen3TokenizerFolder(), name), join(folder, name));
  const tensors = checkpointTensors(options.shape, options.seed).map(
    (t): TensorToWrite => ({ name: t.name, shape: t.shape, dtype, values: t.make }),
  );
  if (shards === 1) {
    const bytes = writeSafetensors(join(folder, 'model.safetensors'), tensors);
    return { files: ['model.safetensors'], bytes };
  }
  // Contiguous runs of tensors per shard, as transformers' save_pretrained splits them by size.
  const per = Math.ceil(tensors.length / shards);
  const files: string[] = [];
  const weightMap: Record<string, string> = {};
  let bytes = 0;
  let totalSize = 0;
  for (let s = 0; s < shards; s++) {
    const name = `model-${String(s + 1).padStart(5, '0')}-of-${String(shards).padStart(5, '0')}.safetensors`;
    const part = tensors.slice(s * per, (s + 1) * per);
    bytes += writeSafetensors(join(folder, name), part);
    for (const t of part) {
      weightMap[t.name] = name;
      totalSize += t.shape.reduce((a, b) => a * b, 1) * (dtype === 'F32' ? 4 : 2);
    }
    files.push(name);
  }
  writeFileSync(
    join(folder, 'model.safetensors.index.json'),
    `${JSON.stringify({ metadata: { total_size: totalSize }, weight_map: weightMap }, null, 2)}\n`,
  );
  return { files: [...files, 'model.safetensors.index.json'], bytes };
}

export interface LoraOptions {
  rank: number;
  alpha: number;
  seed: number;
  rslora?: boolean;
  fanInFanOut?: boolean;
  /** Projections targeted (default all seven, as the model card's adapter). */
  targets?: ProjectionKind[];
  /** lora_B all zeros, as PEFT initialises it: a no-op adapter. */
  zeroB?: boolean;
  dtype?: StoredDtype;
  /** Extra adapter_config.json keys (to write adapters the builder must refuse). */
  config?: Record<string, unknown>;
}

/** PEFT's tensors of a LoRA adapter: `base_model.model.<module>.lora_A.weight` [r, in], `lora_B` [out, r]. */
export function loraTensors(shape: Qwen3Shape, options: LoraOptions): HfTensor[] {
  const out: HfTensor[] = [];
  const r = options.rank;
  for (let l = 0; l < shape.layers; l++)
    for (const kind of options.targets ?? PROJECTION_KINDS) {
      const [rows, cols] = projectionShape(shape, kind);
      const prefix = `base_model.model.model.layers.${l}.${PROJECTION_NAMES[kind]}`;
      out.push({
        name: `${prefix}.lora_A.weight`,
        shape: [r, cols],
        make: () => seededTensor(options.seed, `lora_A.${l}.${kind}`, r * cols, 1 / Math.sqrt(cols)),
      });
      out.push({
        name: `${prefix}.lora_B.weight`,
        shape: [rows, r],
        // Large enough that the merged model's logits differ clearly from the base's (haggle's choice).
        make: () =>
          options.zeroB
            ? new Float32Array(rows * r)
            : seededTensor(options.seed, `lora_B.${l}.${kind}`, rows * r, 0.1 / Math.sqrt(r)),
      });
    }
  return out;
}

/** The PEFT module names of the targets, as `target_modules` lists them. */
export function targetModules(targets: readonly ProjectionKind[] = PROJECTION_KINDS): string[] {
  return targets.map((kind) => PROJECTION_NAMES[kind].split('.')[1] as string);
}

export function writeLoraAdapter(folder: string, shape: Qwen3Shape, options: LoraOptions): void {
  mkdirSync(folder, { recursive: true });
  const config = {
    base_model_name_or_path: 'Qwen/Qwen3-4B',
    peft_type: 'LORA',
    task_type: 'CAUSAL_LM',
    r: options.rank,
    lora_alpha: options.alpha,
    lora_dropout: 0.05,
    target_modules: targetModules(options.targets),
    use_rslora: options.rslora === true,
    use_dora: false,
    fan_in_fan_out: options.fanInFanOut === true,
    bias: 'none',
    modules_to_save: null,
    rank_pattern: {},
    alpha_pattern: {},
    inference_mode: true,
    ...options.config,
  };
  writeFileSync(join(folder, 'adapter_config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const dtype = options.dtype ?? 'F32';
  writeSafetensors(
    join(folder, 'adapter_model.safetensors'),
    loraTensors(shape, options).map((t) => ({ name: t.name, shape: t.shape, dtype, values: t.make })),
  );
}
