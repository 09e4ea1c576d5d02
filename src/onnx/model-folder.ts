import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readModelFolderJson } from '../internal/model-folder-file.js';
import { onnxModelFolderError } from './errors.js';
import type { OnnxDevice, OnnxDtype, OnnxModelShape } from './onnx-options.js';

/** Where a model folder comes from, for the messages that find none. */
const MAKE_ONE =
  'build one with `haggle model build` (or download a checkpoint with `haggle model pull`), see docs/local-onnx.md';

/** File names transformers.js and Optimum use for each dtype of a decoder export. */
const FILE_BY_DTYPE: Record<OnnxDtype, string> = {
  fp32: 'model.onnx',
  fp16: 'model_fp16.onnx',
  q4f16: 'model_q4f16.onnx',
  q4: 'model_q4.onnx',
  q8: 'model_q8.onnx',
};

/**
 * The exports tried, in order, when no dtype was asked for (haggle's choice, measured on the qwen3-0.6b
 * preset in docs/benchmarks.md). On a CPU: q4 (4-bit weights, float32 activations) is the fastest;
 * q8 (8-bit weights) next, about 1.4x q4's CPU per token but half fp32's, and far closer to fp32; fp32 next, ahead of q4f16, which is little faster on a CPU (onnxruntime's CPU provider computes
 * float16 slowly) and less exact; fp16 last, half-precision arithmetic without the smaller weights.
 * On a GPU: fp16, then fp32, as before.
 */
export function dtypePreference(device: OnnxDevice): readonly OnnxDtype[] {
  return device === 'cpu' ? ['q4', 'q8', 'fp32', 'q4f16', 'fp16'] : ['fp16', 'fp32'];
}

export interface ModelFiles {
  modelPath: string;
  dtype: OnnxDtype;
  /** External data files next to the graph (`model.onnx_data`, `model.onnx_data_1`, ...). */
  externalData: string[];
}

/**
 * Finds the graph for `dtype` under `folder/onnx/` (or `folder/` for a flat Optimum export). When no
 * dtype was asked for, the `preferred` ones are tried in order (`dtypePreference`), then fp32.
 * External data files are listed so that a missing one is reported here rather than as an opaque
 * onnxruntime error.
 */
export function findModelFiles(
  folder: string,
  dtype: OnnxDtype | undefined,
  preferred: OnnxDtype | readonly OnnxDtype[],
): ModelFiles {
  // A mistyped path is the commonest first failure: say so, rather than list files a folder lacks.
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (stat === undefined) throw onnxModelFolderError(folder, `no such folder (${MAKE_ONE})`);
  if (!stat.isDirectory()) throw onnxModelFolderError(folder, `is a file, not a folder (${MAKE_ONE})`);
  const candidates: OnnxDtype[] = dtype
    ? [dtype]
    : [...new Set<OnnxDtype>([...(typeof preferred === 'string' ? [preferred] : preferred), 'fp32'])];
  for (const wanted of candidates) {
    for (const dir of [join(folder, 'onnx'), folder]) {
      const modelPath = join(dir, FILE_BY_DTYPE[wanted]);
      const stat = statSync(modelPath, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      // onnxruntime opens it in native code, where a named pipe would wait for a writer for ever.
      if (!stat.isFile())
        throw onnxModelFolderError(
          folder,
          `${modelPath} is not a regular file (a named pipe, a device or a folder)`,
        );
      const base = FILE_BY_DTYPE[wanted];
      const externalData = readdirSync(dir)
        .filter((name) => name.startsWith(`${base}_data`) || name === `${base}.data`)
        .map((name) => join(dir, name));
      return { modelPath, dtype: wanted, externalData };
    }
  }
  const files = candidates.map((d) => `onnx/${FILE_BY_DTYPE[d]}`);
  const names = files.length > 1 ? `${files.slice(0, -1).join(', ')} or ${files.at(-1)}` : files.join('');
  throw onnxModelFolderError(folder, `no ${names} (${MAKE_ONE})`);
}

function readJson(folder: string, name: string): Record<string, unknown> {
  return readModelFolderJson(join(folder, name), (problem) => {
    throw onnxModelFolderError(folder, `${name} ${problem.words}`, problem.cause);
  });
}

/** The shape of the decoder from `config.json` (Qwen3 and other Llama-style configs). */
export function readModelShape(folder: string, dtype: OnnxDtype): OnnxModelShape {
  const config = readJson(folder, 'config.json');
  const int = (key: string): number => {
    const value = config[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      throw onnxModelFolderError(folder, `config.json has no positive integer ${key}`);
    }
    return value;
  };
  const heads = int('num_attention_heads');
  const hidden = int('hidden_size');
  const headDim = typeof config.head_dim === 'number' ? config.head_dim : hidden / heads;
  const kvHeads = typeof config.num_key_value_heads === 'number' ? config.num_key_value_heads : heads;
  const maxPositions = config.max_position_embeddings;
  return {
    modelType: String(config.model_type ?? 'unknown'),
    layers: int('num_hidden_layers'),
    kvHeads,
    headDim,
    vocabSize: int('vocab_size'),
    maxPositions: typeof maxPositions === 'number' ? maxPositions : undefined,
    kvDtype: dtype === 'fp32' || dtype === 'q4' || dtype === 'q8' ? 'float32' : 'float16',
  };
}
