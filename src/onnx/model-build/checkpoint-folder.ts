import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readModelFolderJson } from '../../internal/model-folder-file.js';
import { CheckpointFormatError, quoteValue } from './errors.js';
import { QWEN3_BOUNDS, type Qwen3Shape } from './qwen3-shape.js';
import { SafetensorsFile } from './safetensors-file.js';
import { NORM_KINDS, NORM_NAMES, PROJECTION_KINDS, PROJECTION_NAMES } from './weight-source.js';

const INDEX_FILE = 'model.safetensors.index.json';
const SINGLE_FILE = 'model.safetensors';

/**
 * A Hugging Face checkpoint folder of a Qwen3 model: `config.json`, and `model.safetensors` or the
 * shards `model-0000N-of-0000M.safetensors` that `model.safetensors.index.json` maps each tensor to.
 * Opening it checks everything a build will read (every shard there and whole, every tensor present
 * with the shape config.json implies) before a byte is written.
 */
export class CheckpointFolder {
  readonly shape: Qwen3Shape;
  readonly config: Record<string, unknown>;
  /** The files the checkpoint consists of (config, index, shards), for hashing. */
  readonly files: string[];
  private readonly byTensor = new Map<string, SafetensorsFile>();
  private readonly shards: SafetensorsFile[] = [];

  constructor(readonly folder: string) {
    const configPath = join(folder, 'config.json');
    this.config = readJsonFile(configPath);
    this.shape = qwen3ShapeOf(this.config, configPath);
    this.files = [configPath];
    try {
      this.openShards();
      this.checkAgainstHeaders();
      this.checkTensors();
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** The tensor's values as float32, after checking its shape. */
  read(name: string, first?: number, count?: number): Float32Array {
    return this.file(name).readFloat32(name, first, count);
  }

  shapeOf(name: string): number[] {
    return this.file(name).entry(name).shape;
  }

  /** Tensor names and their stored dtypes (for the build record). */
  dtypes(): Set<string> {
    const out = new Set<string>();
    for (const shard of this.shards) for (const entry of shard.entries.values()) out.add(entry.dtype);
    return out;
  }

  close(): void {
    for (const shard of this.shards) shard.close();
  }

  private file(name: string): SafetensorsFile {
    const file = this.byTensor.get(name);
    if (!file)
      throw new CheckpointFormatError({
        file: this.folder,
        problem: 'the checkpoint has no such tensor',
        tensor: name,
      });
    return file;
  }

  private openShards(): void {
    const indexPath = join(this.folder, INDEX_FILE);
    if (existsSync(indexPath)) {
      const index = readJsonFile(indexPath);
      const map = index.weight_map;
      if (typeof map !== 'object' || map === null || Array.isArray(map))
        throw new CheckpointFormatError({
          file: indexPath,
          problem: 'it has no weight_map object (tensor name -> shard file)',
        });
      this.files.push(indexPath);
      const opened = new Map<string, SafetensorsFile>();
      for (const [tensor, shardName] of Object.entries(map as Record<string, unknown>)) {
        if (typeof shardName !== 'string' || shardName.includes('/') || shardName.includes('\\'))
          throw new CheckpointFormatError({
            file: indexPath,
            problem: `its weight_map names ${quoteValue(shardName)}, not a file in the folder`,
            tensor,
          });
        let shard = opened.get(shardName);
        if (!shard) {
          const shardPath = join(this.folder, shardName);
          if (!existsSync(shardPath))
            throw new CheckpointFormatError({
              file: shardPath,
              problem: `the shard is missing: ${INDEX_FILE} maps tensors to it (download it, or the whole checkpoint, again)`,
              tensor,
            });
          shard = new SafetensorsFile(shardPath);
          opened.set(shardName, shard);
          this.shards.push(shard);
          this.files.push(shardPath);
        }
        if (!shard.entries.has(tensor))
          throw new CheckpointFormatError({
            file: shard.path,
            problem: `${INDEX_FILE} maps this tensor here, but the shard has no such tensor`,
            tensor,
          });
        this.byTensor.set(tensor, shard);
      }
      return;
    }
    const singlePath = join(this.folder, SINGLE_FILE);
    if (!existsSync(singlePath))
      throw new CheckpointFormatError({
        file: this.folder,
        problem: `neither ${SINGLE_FILE} nor ${INDEX_FILE} is there: give the folder of a Hugging Face checkpoint (safetensors)`,
      });
    const file = new SafetensorsFile(singlePath);
    this.shards.push(file);
    this.files.push(singlePath);
    for (const name of file.entries.keys()) this.byTensor.set(name, file);
  }

  /**
   * config.json against what the shards' headers hold, before any list of expected tensors is made:
   * the embedding's [vocab_size, hidden_size] and the number of layers the tensor names count. A
   * config that claims more layers than the checkpoint has is refused here, in words, rather than by
   * the first of thousands of missing tensors.
   */
  private checkAgainstHeaders(): void {
    const { vocabSize, hiddenSize, layers } = this.shape;
    const embedding = this.byTensor.get('model.embed_tokens.weight')?.entry('model.embed_tokens.weight');
    if (
      embedding &&
      (embedding.shape.length !== 2 || embedding.shape[0] !== vocabSize || embedding.shape[1] !== hiddenSize)
    )
      throw new CheckpointFormatError({
        file: join(this.folder, 'config.json'),
        problem: `vocab_size ${vocabSize} and hidden_size ${hiddenSize} do not match the embedding's shape [${embedding.shape.join(', ')}] in the checkpoint: a config.json of another model?`,
      });
    let found = 0;
    for (const name of this.byTensor.keys()) {
      const layer = /^model\.layers\.(\d+)\./.exec(name)?.[1];
      if (layer !== undefined) found = Math.max(found, Number(layer) + 1);
    }
    if (found !== layers)
      throw new CheckpointFormatError({
        file: join(this.folder, 'config.json'),
        problem: `num_hidden_layers is ${layers}, but the checkpoint's tensors hold ${found} layers: a config.json of another model?`,
      });
  }

  /** Every tensor the graph needs, with the shape (transformers' [out, in] for projections) it must have. */
  private checkTensors(): void {
    const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m, vocabSize, layers } = this.shape;
    const expected = new Map<string, number[]>();
    expected.set('model.embed_tokens.weight', [vocabSize, d]);
    expected.set('model.norm.weight', [d]);
    const projection = {
      q: [heads * headDim, d],
      k: [kvHeads * headDim, d],
      v: [kvHeads * headDim, d],
      o: [d, heads * headDim],
      gate: [m, d],
      up: [m, d],
      down: [d, m],
    };
    const norm = { inputNorm: [d], postNorm: [d], qNorm: [headDim], kNorm: [headDim] };
    for (let l = 0; l < layers; l++) {
      for (const kind of PROJECTION_KINDS)
        expected.set(`model.layers.${l}.${PROJECTION_NAMES[kind]}.weight`, projection[kind]);
      for (const kind of NORM_KINDS) expected.set(`model.layers.${l}.${NORM_NAMES[kind]}`, norm[kind]);
    }
    for (const [name, shape] of expected) {
      const file = this.byTensor.get(name);
      if (!file)
        throw new CheckpointFormatError({
          file: this.folder,
          problem: 'the checkpoint lacks this tensor, which a Qwen3 of this config.json has',
          tensor: name,
        });
      const found = file.entry(name).shape;
      if (found.length !== shape.length || found.some((size, i) => size !== shape[i]))
        throw new CheckpointFormatError({
          file: file.path,
          problem: `shape [${found.join(', ')}], but config.json implies [${shape.join(', ')}]`,
          tensor: name,
        });
    }
  }
}

/** A checkpoint's JSON file (config, index, adapter config) as an object, or a `CheckpointFormatError`. */
export function readJsonFile(path: string): Record<string, unknown> {
  return readModelFolderJson(path, (problem) => {
    throw new CheckpointFormatError({ file: path, problem: problem.words, cause: problem.cause });
  });
}

/** The graph's sizes from a transformers `config.json`; only Qwen3 with tied embeddings is built. */
export function qwen3ShapeOf(config: Record<string, unknown>, path: string): Qwen3Shape {
  const architectures = config.architectures;
  if (config.model_type !== 'qwen3')
    throw new CheckpointFormatError({
      file: path,
      problem: `model_type is ${quoteValue(config.model_type)}; haggle model build writes Qwen3 decoders only (model_type "qwen3", e.g. Qwen/Qwen3-4B)`,
    });
  if (Array.isArray(architectures) && !architectures.includes('Qwen3ForCausalLM'))
    throw new CheckpointFormatError({
      file: path,
      problem: `architectures is ${quoteValue(architectures)}, not Qwen3ForCausalLM`,
    });
  if (config.tie_word_embeddings === false)
    throw new CheckpointFormatError({
      file: path,
      problem:
        'tie_word_embeddings is false (a separate lm_head, as Qwen3-8B and larger have): the graph haggle writes ties the head to the embedding, as Qwen3-0.6B to 4B do',
    });
  const int = (key: keyof typeof QWEN3_BOUNDS): number => {
    const value = config[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
      throw new CheckpointFormatError({
        file: path,
        problem: `${key} must be a positive integer, got ${quoteValue(value)}`,
      });
    if (value > QWEN3_BOUNDS[key])
      throw new CheckpointFormatError({
        file: path,
        problem: `${key} is ${value}, over ${QWEN3_BOUNDS[key]}, the most haggle builds (far above any released Qwen3): not a Qwen3 config.json`,
      });
    return value;
  };
  const number = (key: string, fallback: number): number => {
    const value = config[key] ?? fallback;
    if (typeof value !== 'number' || !(value > 0))
      throw new CheckpointFormatError({
        file: path,
        problem: `${key} must be a positive number, got ${quoteValue(value)}`,
      });
    return value;
  };
  const heads = int('num_attention_heads');
  const hiddenSize = int('hidden_size');
  const shape: Qwen3Shape = {
    vocabSize: int('vocab_size'),
    hiddenSize,
    intermediateSize: int('intermediate_size'),
    layers: int('num_hidden_layers'),
    heads,
    kvHeads: config.num_key_value_heads === undefined ? heads : int('num_key_value_heads'),
    headDim: config.head_dim === undefined ? hiddenSize / heads : int('head_dim'),
    rmsNormEps: number('rms_norm_eps', 1e-6),
    ropeTheta: number('rope_theta', 1_000_000),
  };
  if (shape.headDim > QWEN3_BOUNDS.head_dim)
    throw new CheckpointFormatError({
      file: path,
      problem: `head_dim is ${shape.headDim}, over ${QWEN3_BOUNDS.head_dim}, the most haggle builds (far above any released Qwen3): not a Qwen3 config.json`,
    });
  if (shape.heads % shape.kvHeads !== 0)
    throw new CheckpointFormatError({
      file: path,
      problem: `num_attention_heads ${heads} is not a multiple of num_key_value_heads ${shape.kvHeads}`,
    });
  if (!Number.isInteger(shape.headDim) || shape.headDim % 2 !== 0)
    throw new CheckpointFormatError({
      file: path,
      problem: `head_dim ${shape.headDim} must be an even integer (rotary halves)`,
    });
  if (config.rope_scaling !== undefined && config.rope_scaling !== null)
    throw new CheckpointFormatError({
      file: path,
      problem: 'rope_scaling is set (YaRN or another): the graph haggle writes has plain RoPE only',
    });
  return shape;
}
