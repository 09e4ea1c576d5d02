import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LoraOptions,
  writeHfCheckpoint,
  writeLoraAdapter,
} from '../../../scripts/fixture-model/hf-checkpoint.js';
import { OnnxWeightsReader } from '../../../scripts/fixture-model/onnx-weights-reader.js';
import { HaggleAbortError } from '../../../src/contract/errors.js';
import { HAGGLE_VERSION } from '../../../src/internal/haggle-version.js';
import { compareLogits, graphLogits } from '../../../src/onnx/model-build/build-check.js';
import {
  type BuildRecord,
  buildModel,
  CheckpointFormatError,
  UnsupportedAdapterError,
} from '../../../src/onnx/model-build/index.js';
import { quantize4 } from '../../../src/onnx/model-build/quantize-4bit.js';
import { referenceLogits } from '../../../src/onnx/model-build/reference-forward.js';
import { mergedReferenceWeights, SMALL_QWEN3, tempFolder } from './checkpoints.js';

const shape = SMALL_QWEN3;
const SEED = 11;
// `<|im_start|>user\nHello, world!` in the real Qwen3 vocabulary.
const TOKENS = [151644, 872, 198, 9707, 11, 1879, 0];
const root = tempFolder('model-build');
const base = join(root, 'base');
const RANK = 8;
const ALPHA = 16;
const lora: LoraOptions = { rank: RANK, alpha: ALPHA, seed: 5 };

beforeAll(() => {
  // bf16 in three shards with an index, as Qwen/Qwen3-4B is published.
  writeHfCheckpoint(base, { shape, seed: SEED, dtype: 'BF16', shards: 3 });
  // Owner-only sources: a copy would keep this mode, a file written by the build gets the umask's.
  for (const name of ['tokenizer.json', 'generation_config.json']) chmodSync(join(base, name), 0o600);
  writeLoraAdapter(join(root, 'adapter'), shape, lora);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const modelFile = (out: string, dtype: 'fp32' | 'fp16' | 'q4f16' = 'fp32') =>
  join(out, 'onnx', { fp32: 'model.onnx', fp16: 'model_fp16.onnx', q4f16: 'model_q4f16.onnx' }[dtype]);

async function logitsOf(out: string, dtype: 'fp32' | 'fp16' | 'q4f16' = 'fp32') {
  return graphLogits(modelFile(out, dtype), shape, TOKENS);
}

describe('buildModel: a bf16 sharded Qwen3 checkpoint + a PEFT LoRA adapter -> ONNX', () => {
  it('fp32: the logits equal a float64 forward pass of base + scale * B A, which differs from the base', async () => {
    const out = join(root, 'out-fp32');
    const result = await buildModel({
      base,
      adapter: join(root, 'adapter'),
      out,
      dtype: 'fp32',
      mergeWith: 'onnxruntime',
    });
    const got = await logitsOf(out);
    const merged = mergedReferenceWeights(shape, SEED, 'BF16', { ...lora, scale: ALPHA / RANK });
    const check = compareLogits(got, referenceLogits(shape, merged, TOKENS), 'fp32');
    expect(check.relative).toBeLessThan(1e-4);
    expect(check.sameArgmax).toBe(TOKENS.length);
    // The adapter matters: the base alone is far outside the tolerance.
    const baseOnly = compareLogits(
      got,
      referenceLogits(shape, mergedReferenceWeights(shape, SEED, 'BF16'), TOKENS),
      'fp32',
    );
    expect(baseOnly.relative).toBeGreaterThan(1e-2);

    const record = JSON.parse(readFileSync(join(out, 'haggle-model.json'), 'utf8')) as BuildRecord;
    expect(record).toMatchObject({ format: 'haggle-model', haggle: HAGGLE_VERSION, dtypes: ['fp32'] });
    expect(record.base.files.map((f) => f.name)).toEqual([
      'config.json',
      'model.safetensors.index.json',
      'model-00001-of-00003.safetensors',
      'model-00002-of-00003.safetensors',
      'model-00003-of-00003.safetensors',
    ]);
    expect(record.base.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(record.adapter).toMatchObject({
      r: RANK,
      loraAlpha: ALPHA,
      useRslora: false,
      scale: 2,
      mergedProjections: 14,
    });
    expect(record.adapter?.files.map((f) => f.name)).toEqual([
      'adapter_config.json',
      'adapter_model.safetensors',
    ]);
    // The tokenizer comes from the base folder; the weights lie in external data beside the graph.
    for (const name of ['tokenizer.json', 'tokenizer_config.json', 'config.json', 'generation_config.json']) {
      expect(readFileSync(join(out, name)).length, name).toBeGreaterThan(0);
      // Written with the process's umask, not the source's mode (a device's 0666 was copied before).
      expect(statSync(join(out, name)).mode & 0o777, name).toBe(0o666 & ~process.umask());
    }
    expect(readFileSync(join(out, 'tokenizer.json')).equals(readFileSync(join(base, 'tokenizer.json')))).toBe(
      true,
    );
    expect(readdirSync(join(out, 'onnx')).sort()).toEqual(['model.onnx', 'model.onnx_data']);
    expect(result.sizes['onnx/model.onnx']).toBeGreaterThan(151936 * 64 * 4);
  });

  it("fp16 and q4f16: within the presets' tolerance of a float64 pass over the weights each stores, which are the merged ones", async () => {
    const out = join(root, 'out-half');
    await buildModel({ base, adapter: join(root, 'adapter'), out, dtype: ['fp16', 'q4f16'] });
    const merged = mergedReferenceWeights(shape, SEED, 'BF16', { ...lora, scale: ALPHA / RANK });
    // fp16: half-precision weights and arithmetic against the full-precision merged model.
    const fp16 = compareLogits(await logitsOf(out, 'fp16'), referenceLogits(shape, merged, TOKENS), 'fp16');
    expect(fp16.relative).toBeLessThan(2e-2);
    // q4f16: the 4-bit weights read back from the file, checked against the merged weights block by
    // block, then the graph against a float64 pass over exactly those weights.
    const reader = new OnnxWeightsReader(modelFile(out, 'q4f16'), shape);
    try {
      for (const kind of ['q', 'down'] as const) {
        const stored = reader.projection(1, kind);
        const expected = merged.projection(1, kind);
        const [k, n] = kind === 'q' ? [64, 128] : [128, 64];
        const { scales } = quantize4(expected, k, n, 32);
        for (let row = 0; row < k; row++)
          for (let col = 0; col < n; col++) {
            const scale = scales[col * (k / 32) + Math.floor(row / 32)] as number;
            expect(
              Math.abs((stored[row * n + col] as number) - (expected[row * n + col] as number)),
            ).toBeLessThanOrEqual(0.52 * scale + 1e-6);
          }
      }
      const q4 = compareLogits(await logitsOf(out, 'q4f16'), referenceLogits(shape, reader, TOKENS), 'q4f16');
      expect(q4.relative).toBeLessThan(2e-2);
    } finally {
      reader.close();
    }
  });

  it('an adapter whose lora_B is all zeros builds a model identical in logits to the base', async () => {
    writeLoraAdapter(join(root, 'zero'), shape, { ...lora, zeroB: true });
    await buildModel({ base, adapter: join(root, 'zero'), out: join(root, 'out-zero') });
    await buildModel({ base, out: join(root, 'out-base') });
    const zero = await logitsOf(join(root, 'out-zero'));
    const alone = await logitsOf(join(root, 'out-base'));
    expect(zero.length).toBe(alone.length);
    expect(zero).toEqual(alone);
    const record = JSON.parse(
      readFileSync(join(root, 'out-base', 'haggle-model.json'), 'utf8'),
    ) as BuildRecord;
    expect(record.adapter).toBeNull();
  });

  it('rsLoRA scales by alpha / sqrt(r), not alpha / r', async () => {
    const options = { ...lora, rslora: true, seed: 6 };
    writeLoraAdapter(join(root, 'rslora'), shape, options);
    const out = join(root, 'out-rslora');
    // Merged by the JavaScript loop here (onnxruntime's GEMM elsewhere): both must meet the reference.
    const result = await buildModel({ base, adapter: join(root, 'rslora'), out, mergeWith: 'javascript' });
    expect(result.record.adapter?.scale).toBeCloseTo(ALPHA / Math.sqrt(RANK), 12);
    const got = await logitsOf(out);
    const right = compareLogits(
      got,
      referenceLogits(
        shape,
        mergedReferenceWeights(shape, SEED, 'BF16', { ...options, scale: ALPHA / Math.sqrt(RANK) }),
        TOKENS,
      ),
      'fp32',
    );
    const wrong = compareLogits(
      got,
      referenceLogits(
        shape,
        mergedReferenceWeights(shape, SEED, 'BF16', { ...options, scale: ALPHA / RANK }),
        TOKENS,
      ),
      'fp32',
    );
    expect(right.relative).toBeLessThan(1e-4);
    expect(wrong.relative).toBeGreaterThan(1e-2);
  });

  it('fan_in_fan_out on nn.Linear targets merges as PEFT does (it resets the flag), with a warning', async () => {
    writeLoraAdapter(join(root, 'fifo'), shape, { ...lora, fanInFanOut: true });
    const result = await buildModel({ base, adapter: join(root, 'fifo'), out: join(root, 'out-fifo') });
    expect(result.warnings.join('\n')).toMatch(/fan_in_fan_out: true.*PEFT itself sets it to false/);
    const fifo = await logitsOf(join(root, 'out-fifo'));
    const plain = await logitsOf(join(root, 'out-fp32'));
    expect(fifo).toEqual(plain);
  });

  it('a partial adapter (attention only, bf16 tensors) merges only what it targets', async () => {
    const options: LoraOptions = { ...lora, seed: 9, targets: ['q', 'v'], dtype: 'BF16' };
    writeLoraAdapter(join(root, 'qv'), shape, options);
    // An adapter repository with its own chat template (the card loads its tokenizer from the adapter's).
    writeFileSync(join(root, 'qv', 'chat_template.jinja'), '{{ messages }}');
    const out = join(root, 'out-qv');
    const result = await buildModel({ base, adapter: join(root, 'qv'), out, check: true });
    expect(result.record.adapter?.mergedProjections).toBe(4);
    expect(readFileSync(join(out, 'chat_template.jinja'), 'utf8')).toBe('{{ messages }}');
    expect(result.record.tokenizerFiles).toEqual({
      'tokenizer.json': 'base',
      'tokenizer_config.json': 'base',
      'chat_template.jinja': 'adapter',
    });
    const reference = mergedReferenceWeights(shape, SEED, 'BF16', { ...options, scale: ALPHA / RANK });
    expect(
      compareLogits(await logitsOf(out), referenceLogits(shape, reference, TOKENS), 'fp32').relative,
    ).toBeLessThan(1e-4);
    // --check: the builder's own comparison, run on the folder it wrote.
    expect(result.checks).toHaveLength(1);
    expect(result.checks[0]).toMatchObject({ dtype: 'fp32', ok: true, tokens: 7 });
  });

  it('stops between tensors when aborted and leaves no folder behind', async () => {
    const controller = new AbortController();
    let tensors = 0;
    const out = join(root, 'out-aborted');
    await expect(
      buildModel({
        base,
        out,
        signal: controller.signal,
        onProgress: (event) => {
          if (event.phase === 'tensor' && ++tensors === 3) controller.abort(new Error('stop'));
        },
      }),
    ).rejects.toThrow(HaggleAbortError);
    expect(tensors).toBe(3);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(root).filter((name) => name.includes('out-aborted'))).toEqual([]);
  });
});

describe('buildModel refuses inputs it cannot build from, with a typed error naming the file or tensor', () => {
  const broken = (name: string) => {
    const folder = join(root, name);
    writeHfCheckpoint(folder, { shape, seed: SEED, dtype: 'BF16', shards: 2 });
    return folder;
  };

  it('a truncated shard', async () => {
    const folder = broken('truncated');
    const shard = join(folder, 'model-00002-of-00002.safetensors');
    truncateSync(shard, 5000);
    const error = await buildModel({ base: folder, out: join(root, 'x1') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointFormatError);
    expect((error as CheckpointFormatError).file).toBe(shard);
    expect((error as CheckpointFormatError).tensor).toMatch(/^model\.layers\.\d+\./);
    expect((error as Error).message).toMatch(/model-00002-of-00002\.safetensors.*truncated/);
    expect(existsSync(join(root, 'x1'))).toBe(false);
  });

  it('a shard the index names but the folder lacks', async () => {
    const folder = broken('missing-shard');
    rmSync(join(folder, 'model-00001-of-00002.safetensors'));
    const error = await buildModel({ base: folder, out: join(root, 'x2') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointFormatError);
    expect((error as CheckpointFormatError).file).toBe(join(folder, 'model-00001-of-00002.safetensors'));
    expect((error as Error).message).toMatch(/shard is missing/);
  });

  it('a shard that is a named pipe (opening it would wait for a writer for ever)', async () => {
    const folder = broken('pipe-shard');
    const shard = join(folder, 'model-00001-of-00002.safetensors');
    rmSync(shard);
    expect(spawnSync('mkfifo', [shard]).status).toBe(0);
    const error = await buildModel({ base: folder, out: join(root, 'x-pipe') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointFormatError);
    expect((error as CheckpointFormatError).file).toBe(shard);
    expect((error as Error).message).toMatch(/is a named pipe \(FIFO\), not a file/);
  });

  it('a config.json that is JSON but not an object', async () => {
    const folder = broken('null-config');
    writeFileSync(join(folder, 'config.json'), 'null');
    const error = await buildModel({ base: folder, out: join(root, 'x-null') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointFormatError);
    expect((error as Error).message).toMatch(/config\.json.*does not hold a JSON object/);
  });

  it('a base tensor of the wrong shape', async () => {
    const folder = join(root, 'wrong-shape');
    writeHfCheckpoint(folder, { shape, seed: SEED, dtype: 'BF16', shards: 1 });
    // The same weights under a config.json that says the MLP is wider.
    const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...config, intermediate_size: 256 }));
    const error = await buildModel({ base: folder, out: join(root, 'x3') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointFormatError);
    expect((error as CheckpointFormatError).tensor).toBe('model.layers.0.mlp.gate_proj.weight');
    expect((error as Error).message).toMatch(/shape \[128, 64\], but config\.json implies \[256, 64\]/);
  });

  it('an adapter of another PEFT type, DoRA, a module it cannot map, or a LoRA matrix of the wrong shape', async () => {
    const cases: [string, LoraOptions, RegExp, string][] = [
      ['loha', { ...lora, config: { peft_type: 'LOHA' } }, /peft_type is "LOHA"/, 'adapter_config.json'],
      ['dora', { ...lora, config: { use_dora: true } }, /DoRA/, 'adapter_config.json'],
      [
        'lm-head',
        { ...lora, config: { target_modules: ['q_proj', 'lm_head'] } },
        /"lm_head"/,
        'adapter_config.json',
      ],
      ['rank', { ...lora, config: { r: 4 } }, /r = 4/, 'adapter_model.safetensors'],
    ];
    for (const [name, options, message, file] of cases) {
      writeLoraAdapter(join(root, name), shape, options);
      const error = await buildModel({ base, adapter: join(root, name), out: join(root, `x-${name}`) }).catch(
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(UnsupportedAdapterError);
      expect((error as UnsupportedAdapterError).file).toBe(join(root, name, file));
      expect((error as Error).message).toMatch(message);
      if (name === 'rank')
        expect((error as UnsupportedAdapterError).tensor).toBe(
          'base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight',
        );
      expect(existsSync(join(root, `x-${name}`))).toBe(false);
    }
  });
});
