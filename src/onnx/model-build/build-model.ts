import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { HaggleAbortError, HaggleError, OptionalDependencyMissingError } from '../../contract/errors.js';
import { HAGGLE_VERSION } from '../../internal/haggle-version.js';
import { parseModelFolderJson, readModelFolderText } from '../../internal/model-folder-file.js';
import { ONNX_RUNTIME_PACKAGE } from '../runtime-package.js';
import { type BuildCheck, CHECK_TOKENS, checkBuiltGraph } from './build-check.js';
import { CheckpointFolder } from './checkpoint-folder.js';
import { checkpointWeights } from './checkpoint-weights.js';
import { dtypeGraphOptions, KV_CACHE_DTYPE } from './dtype-graph-options.js';
import { BuildOutputExistsError, CheckpointFormatError } from './errors.js';
import { ExternalDataWriter } from './external-data-writer.js';
import { combinedHash, sha256OfFile } from './file-hash.js';
import { LoraAdapter } from './lora-adapter.js';
import { onnxruntimeMergeProduct } from './onnxruntime-merge.js';
import { type GraphOptions, qwen3GraphBuilder } from './qwen3-graph.js';
import { MODEL_DTYPES, type ModelDtype, storedWeights } from './stored-weights.js';

/** The graph file of each dtype, as transformers.js and `OnnxBackend` look for it in `onnx/`. */
export const MODEL_FILE: Record<ModelDtype, string> = {
  fp32: 'model.onnx',
  fp16: 'model_fp16.onnx',
  q4f16: 'model_q4f16.onnx',
  q4: 'model_q4.onnx',
  q8: 'model_q8.onnx',
};

/** The build record written beside the model. */
export const BUILD_RECORD_FILE = 'haggle-model.json';

/** Tokenizer and chat-template files copied when there (the first two must be, in one of the folders). */
const TOKENIZER_FILES = [
  'tokenizer.json',
  'tokenizer_config.json',
  'chat_template.jinja',
  'special_tokens_map.json',
  'added_tokens.json',
  'vocab.json',
  'merges.txt',
];
const REQUIRED_TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json'];
/** The base's sampling defaults, copied beside the model when there. */
const GENERATION_CONFIG = 'generation_config.json';

export interface BuildModelOptions {
  /** A Hugging Face checkpoint folder of a Qwen3 model (config.json, safetensors, tokenizer files). */
  base: string;
  /** A PEFT LoRA adapter folder (adapter_config.json, adapter_model.safetensors); none builds the base. */
  adapter?: string;
  /** The ONNX model folder to write (as `OnnxBackend.load` reads it). */
  out: string;
  /** One export or several into the same folder (default `fp32`). */
  dtype?: ModelDtype | readonly ModelDtype[];
  /** Replace a non-empty `out` (default false: refuse). */
  overwrite?: boolean;
  /** After writing, compare each export's logits with a float64 reference forward pass. */
  check?: boolean | { tokens?: number[] };
  signal?: AbortSignal;
  /** Called as the build moves from tensor to tensor and export to export, for a progress bar. */
  onProgress?: (event: BuildProgress) => void;
  /**
   * Who multiplies the LoRA factors: `onnxruntime` (its GEMM; the default when onnxruntime-node is
   * installed) or `javascript` (the default without it). The same float32 merge up to summation order.
   */
  mergeWith?: 'onnxruntime' | 'javascript';
}

export type BuildProgress =
  | { phase: 'hash'; file: string }
  | { phase: 'tensor'; dtype: ModelDtype; name: string; index: number; total: number; bytes: number }
  | { phase: 'written'; dtype: ModelDtype; file: string; bytes: number; ms: number }
  | { phase: 'check'; dtype: ModelDtype };

/** `haggle-model.json`: what was built from what, so a folder can be traced to its inputs. */
export interface BuildRecord {
  format: 'haggle-model';
  version: 1;
  haggle: string;
  dtypes: ModelDtype[];
  files: Record<string, string>;
  base: { sha256: string; files: { name: string; sha256: string }[] };
  adapter: {
    sha256: string;
    files: { name: string; sha256: string }[];
    r: number;
    loraAlpha: number;
    useRslora: boolean;
    scale: number;
    mergedProjections: number;
  } | null;
  shape: Record<string, number>;
  /** Each tokenizer file copied, and whose it was (an adapter's own tokenizer files win). */
  tokenizerFiles: Record<string, 'base' | 'adapter'>;
}

export interface BuildModelResult {
  out: string;
  record: BuildRecord;
  /** Bytes on disk of each export (graph + external data). */
  sizes: Record<string, number>;
  checks: BuildCheck[];
  warnings: string[];
}

/**
 * Turns a Qwen3 checkpoint (and optionally a LoRA adapter, merged in float32 first) into the ONNX
 * folder `OnnxBackend` loads: `onnx/model*.onnx` with its weights in `onnx/model*.onnx_data`,
 * `config.json`, the tokenizer files, and `haggle-model.json`. Tensors are read, merged, converted and
 * written one at a time, so memory stays near one tensor's worth (the embedding in pieces), whatever
 * the model's size. Written to a sibling folder and renamed, so `out` is either whole or untouched;
 * an abort (`signal`) stops between tensors and removes what was written.
 */
export async function buildModel(options: BuildModelOptions): Promise<BuildModelResult> {
  const out = resolve(options.out);
  const dtypes: ModelDtype[] = [
    ...new Set<ModelDtype>(typeof options.dtype === 'string' ? [options.dtype] : (options.dtype ?? ['fp32'])),
  ];
  for (const dtype of dtypes)
    if (!MODEL_DTYPES.includes(dtype))
      throw new TypeError(`dtype must be fp32, fp16, q4f16, q4 or q8, got ${dtype}`);
  if (existsSync(out) && readdirSync(out).length > 0 && !options.overwrite)
    throw new BuildOutputExistsError(out);
  const signal = options.signal;
  const progress = options.onProgress ?? (() => {});
  const checkpoint = new CheckpointFolder(resolve(options.base));
  let adapter: LoraAdapter | undefined;
  let merger: Awaited<ReturnType<typeof onnxruntimeMergeProduct>>;
  const staging = join(dirname(out), `.${basename(out)}.tmp-${process.pid}-${Date.now()}`);
  try {
    adapter =
      options.adapter === undefined ? undefined : new LoraAdapter(resolve(options.adapter), checkpoint.shape);
    // Read (and checked) now, before hours of conversion: a tokenizer.json that is a device, a pipe or
    // a link out of its folder is refused here, by name, instead of being copied into a built folder.
    const copied = readCopiedFiles(checkpoint.folder, adapter?.folder);
    const hashFiles = async (files: string[]) => {
      const hashed: { name: string; sha256: string }[] = [];
      for (const file of files) {
        progress({ phase: 'hash', file });
        hashed.push({ name: basename(file), sha256: await sha256OfFile(file, signal) });
      }
      return hashed;
    };
    const baseFiles = await hashFiles(checkpoint.files);
    const adapterFiles = adapter ? await hashFiles(adapter.files) : [];

    rmSync(staging, { recursive: true, force: true });
    mkdirSync(join(staging, 'onnx'), { recursive: true });
    merger = adapter && options.mergeWith !== 'javascript' ? await onnxruntimeMergeProduct() : undefined;
    if (adapter && options.mergeWith === 'onnxruntime' && !merger)
      throw new OptionalDependencyMissingError({
        packageName: ONNX_RUNTIME_PACKAGE,
        neededFor: "buildModel's mergeWith: 'onnxruntime'",
        optionalPeer: true,
      });
    const weights = checkpointWeights(checkpoint, adapter, merger?.product);
    const sizes: Record<string, number> = {};
    for (const dtype of dtypes) {
      const started = Date.now();
      const file = MODEL_FILE[dtype];
      const sink = new ExternalDataWriter(join(staging, 'onnx', `${file}_data`));
      const graphOptions: GraphOptions = {
        sink,
        ...dtypeGraphOptions(dtype),
      };
      let graph: Uint8Array;
      try {
        const builder = qwen3GraphBuilder(checkpoint.shape, weights, graphOptions);
        await builder.writeTensors({
          ...(signal ? { signal } : {}),
          onTensor: (tensor) => progress({ phase: 'tensor', dtype, ...tensor }),
        });
        graph = builder.encode('qwen3', 'haggle');
      } finally {
        sink.close();
      }
      writeFileSync(join(staging, 'onnx', file), graph);
      sizes[`onnx/${file}`] = graph.length + sink.bytes;
      progress({
        phase: 'written',
        dtype,
        file: `onnx/${file}`,
        bytes: graph.length + sink.bytes,
        ms: Date.now() - started,
      });
    }

    const config = { ...checkpoint.config };
    config['transformers.js_config'] = {
      use_external_data_format: Object.fromEntries(dtypes.map((dtype) => [MODEL_FILE[dtype], 1])),
      kv_cache_dtype: KV_CACHE_DTYPE,
    };
    writeFileSync(join(staging, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
    const tokenizerFiles: Record<string, 'base' | 'adapter'> = {};
    // Written, not copied: a copy takes the source's mode, and the process's umask decides here.
    for (const [name, file] of copied) {
      writeFileSync(join(staging, name), file.text);
      if (name !== GENERATION_CONFIG) tokenizerFiles[name] = file.from;
    }
    const shape = checkpoint.shape;
    const record: BuildRecord = {
      format: 'haggle-model',
      version: 1,
      haggle: HAGGLE_VERSION,
      dtypes,
      files: Object.fromEntries(dtypes.map((dtype) => [dtype, `onnx/${MODEL_FILE[dtype]}`])),
      base: { sha256: combinedHash(baseFiles), files: baseFiles },
      adapter: adapter
        ? {
            sha256: combinedHash(adapterFiles),
            files: adapterFiles,
            r: adapter.rank,
            loraAlpha: adapter.alpha,
            useRslora: adapter.rslora,
            scale: adapter.scale,
            mergedProjections: adapter.targetCount,
          }
        : null,
      shape: { ...shape },
      tokenizerFiles,
    };
    writeFileSync(join(staging, BUILD_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
    signal?.throwIfAborted();
    if (existsSync(out)) rmSync(out, { recursive: true, force: true });
    mkdirSync(dirname(out), { recursive: true });
    renameSync(staging, out);

    const checks: BuildCheck[] = [];
    // The folder is whole now; a failed check is reported through `checks`, an error through the caller.
    if (options.check) {
      const tokens =
        typeof options.check === 'object' && options.check.tokens ? options.check.tokens : CHECK_TOKENS;
      for (const dtype of dtypes) {
        signal?.throwIfAborted();
        progress({ phase: 'check', dtype });
        checks.push(
          await checkBuiltGraph(
            join(out, 'onnx', MODEL_FILE[dtype]),
            shape,
            storedWeights(weights, dtype, shape),
            dtype,
            tokens,
          ),
        );
      }
    }
    return { out, record, sizes, checks, warnings: adapter ? [...adapter.warnings] : [] };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // However the abort surfaced (a stream's AbortError, the reason itself), the caller gets one type.
    if (signal?.aborted && !HaggleError.isInstance(error)) throw new HaggleAbortError(signal.reason);
    throw error;
  } finally {
    await merger?.release();
    adapter?.close();
    checkpoint.close();
  }
}

/**
 * The files copied into the built folder (tokenizer files, and the base's generation_config.json),
 * each read through the model folder's one bounded reader and a JSON file checked to be JSON. The card
 * loads its tokenizer from the adapter's repository: an adapter folder's tokenizer files (its chat
 * template, above all) win over the base's, each file on its own.
 */
function readCopiedFiles(
  base: string,
  adapter: string | undefined,
): Map<string, { text: string; from: 'base' | 'adapter' }> {
  const read = (folder: string, name: string): string | undefined => {
    const path = join(folder, name);
    const fail = (problem: { words: string; cause?: unknown }): never => {
      throw new CheckpointFormatError({ file: path, problem: problem.words, cause: problem.cause });
    };
    const text = readModelFolderText(path, fail, true);
    if (text !== undefined && name.endsWith('.json')) {
      const value = parseModelFolderJson(text, fail);
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        fail({ words: 'does not hold a JSON object' });
    }
    return text;
  };
  const files = new Map<string, { text: string; from: 'base' | 'adapter' }>();
  for (const name of TOKENIZER_FILES) {
    const own = adapter === undefined ? undefined : read(adapter, name);
    const text = own ?? read(base, name);
    if (text !== undefined) files.set(name, { text, from: own === undefined ? 'base' : 'adapter' });
    else if (REQUIRED_TOKENIZER_FILES.includes(name))
      throw new CheckpointFormatError({
        file: join(base, name),
        problem: "missing: the model folder needs the base model's tokenizer (or the adapter's)",
      });
  }
  const generation = read(base, GENERATION_CONFIG);
  if (generation !== undefined) files.set(GENERATION_CONFIG, { text: generation, from: 'base' });
  return files;
}

/** Bytes of a folder's files (for reports). */
export function folderBytes(folder: string): number {
  let total = 0;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? folderBytes(path) : stat.size;
  }
  return total;
}
