import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dtypeGraphOptions, KV_CACHE_DTYPE } from '../../src/onnx/model-build/dtype-graph-options.js';
import type { ModelDtype } from '../../src/onnx/model-build/stored-weights.js';
import { configJson, GENERATION_CONFIG, type TinyQwen3Config } from './config.js';
import { ExternalDataWriter } from './external-data-writer.js';
import { QWEN3_PRESETS, type Qwen3Preset } from './presets.js';
import { buildQwen3Graph, type GraphOptions } from './qwen3-graph.js';
import { seededWeights } from './seeded-weights.js';
import { qwen3TokenizerFolder } from './write-model-folder.js';

/** The exports a preset can be written as, named as transformers.js names its `dtype`s. */
export type PresetDtype = ModelDtype;

/** The file each dtype is written to, as transformers.js looks for it in `onnx/`. */
export const DTYPE_FILE: Record<PresetDtype, string> = {
  fp32: 'model.onnx',
  fp16: 'model_fp16.onnx',
  q4f16: 'model_q4f16.onnx',
  q4: 'model_q4.onnx',
  q8: 'model_q8.onnx',
};

export interface PresetOptions {
  preset: Qwen3Preset;
  /** Another shape written the same way (tests: the streaming path at a size that builds in a second). */
  config?: TinyQwen3Config;
  seed: number;
  /** One or more exports, into the same folder (default fp32). */
  dtypes?: PresetDtype[];
  /** Called after each export with its size, for progress output. */
  onWritten?: (file: string, bytes: number, ms: number) => void;
}

/**
 * Writes a real-size Qwen3-shaped model folder with seeded random weights: for each dtype
 * `onnx/<file>.onnx` (the graph, a few hundred kB) and `onnx/<file>.onnx_data` (the weights, streamed
 * tensor by tensor), `config.json` with the preset's sizes, `generation_config.json` and the real
 * Qwen3 tokenizer. fp16 and q4f16 compute in half precision throughout, as real exports of those
 * dtypes do; q4 computes in float32 around 4-bit weights (src/onnx/model-build/dtype-graph-options.ts) (the fp16 interface alone, the tiny fixture's `--fp16`, would not halve what is read).
 */
export function writePresetModel(out: string, options: PresetOptions): void {
  const config = options.config ?? QWEN3_PRESETS[options.preset];
  const dtypes = options.dtypes ?? ['fp32'];
  const staging = `${out}.tmp-${process.pid}-${Date.now()}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'onnx'), { recursive: true });
  try {
    for (const dtype of dtypes) {
      const started = Date.now();
      const file = DTYPE_FILE[dtype];
      const sink = new ExternalDataWriter(join(staging, 'onnx', `${file}_data`));
      const graphOptions: GraphOptions = {
        sink,
        ...dtypeGraphOptions(dtype),
      };
      let graph: Uint8Array;
      try {
        graph = buildQwen3Graph(config, seededWeights(config, options.seed), graphOptions);
      } finally {
        sink.close();
      }
      writeFileSync(join(staging, 'onnx', file), graph);
      options.onWritten?.(file, sink.bytes + graph.length, Date.now() - started);
    }
    const json = configJson(config);
    json.torch_dtype = dtypes.some((dtype) => KV_CACHE_DTYPE[dtype] === 'float32') ? 'float32' : 'float16';
    json['transformers.js_config'] = {
      use_external_data_format: Object.fromEntries(dtypes.map((dtype) => [DTYPE_FILE[dtype], 1])),
      kv_cache_dtype: KV_CACHE_DTYPE,
    };
    writeFileSync(join(staging, 'config.json'), `${JSON.stringify(json, null, 2)}\n`);
    writeFileSync(join(staging, 'generation_config.json'), `${JSON.stringify(GENERATION_CONFIG, null, 2)}\n`);
    for (const name of ['tokenizer.json', 'tokenizer_config.json']) {
      copyFileSync(join(qwen3TokenizerFolder(), name), join(staging, name));
    }
    writeFileSync(
      join(staging, 'fixture.json'),
      `${JSON.stringify({ preset: options.preset, seed: options.seed, dtypes, logitsToKeep: true, builder: 'scripts/build-fixture-model.ts', version: 1 })}\n`,
    );
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  renameSync(staging, out);
}
