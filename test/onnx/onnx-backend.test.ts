import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HaggleAbortError, InvalidInputError } from '../../src/contract/errors.js';
import { OnnxBackend, OnnxDeviceUnavailableError } from '../../src/onnx/index.js';
import { ModelFolderError } from '../../src/prompt/errors.js';
import { fixtureModel, repoRoot } from './fixture-model.js';

const schema = {
  type: 'object',
  properties: {
    action: { enum: ['offer', 'accept'] },
    price: { type: 'number' },
    message: { type: 'string', maxLength: 40 },
  },
  required: ['action', 'price', 'message'],
  additionalProperties: false,
};
const prompt = {
  messages: [{ role: 'user' as const, content: 'Make an offer.' }],
  text: '<|im_start|>user\nMake an offer.<|im_end|>\n<|im_start|>assistant\n',
};

let backend: OnnxBackend;
beforeAll(async () => {
  backend = await OnnxBackend.load(fixtureModel(1), { device: 'cpu' });
});
afterAll(async () => {
  await backend?.dispose();
});

describe('OnnxBackend', () => {
  it('loads the folder on the CPU and reports what it loaded', () => {
    expect(backend.device).toBe('cpu');
    expect(backend.dtype).toBe('fp32');
    expect(backend.loadWarnings).toEqual([]);
    expect(backend.shape).toMatchObject({ modelType: 'qwen3', layers: 2, kvHeads: 2, headDim: 16 });
    expect(backend.provider).toBe('onnx');
  });

  it('returns n schema-valid JSON samples, reproducible with a seed', async () => {
    const call = () =>
      backend.doGenerate({ prompt, responseFormat: { type: 'json', schema }, seed: 5, n: 3, maxTokens: 80 });
    const first = await call();
    expect(first.choices).toHaveLength(3);
    for (const choice of first.choices) {
      const value = JSON.parse(choice.text) as { action: string; message: string };
      expect(['offer', 'accept']).toContain(value.action);
      expect(value.message.length).toBeLessThanOrEqual(40);
      expect(choice.finishReason).toBe('stop');
    }
    expect(new Set(first.choices.map((c) => c.text)).size).toBeGreaterThan(1);
    expect((await call()).choices).toEqual(first.choices);
    expect(first.usage.promptTokens).toBeGreaterThan(5);
  });

  it('gives the same samples alone and batched with other requests', async () => {
    const alone = await backend.doGenerate({
      prompt,
      responseFormat: { type: 'json', schema },
      seed: 9,
      maxTokens: 80,
    });
    const together = await Promise.all(
      [9, 10, 11, 12].map((seed) =>
        backend.doGenerate({ prompt, responseFormat: { type: 'json', schema }, seed, maxTokens: 80 }),
      ),
    );
    expect(together[0]?.choices).toEqual(alone.choices);
  });

  it('gives the same turns alone and with prompts of other lengths prefilled in the same run', async () => {
    // No prefix cache: every prompt is fresh, so those that arrive together are prefilled together.
    const uncached = await OnnxBackend.load(fixtureModel(1), { prefixCacheBytes: 0 });
    try {
      const asks = ['Make an offer.', 'Offer less than 50 for the lamp, please, it has a scratch.', 'Hi?'];
      const call = (ask: string, seed: number, temperature: number) =>
        uncached.doGenerate({
          prompt: { messages: [], text: `<|im_start|>user\n${ask}<|im_end|>\n<|im_start|>assistant\n` },
          responseFormat: { type: 'json', schema },
          seed,
          temperature,
          maxTokens: 60,
        });
      for (const temperature of [0, 1]) {
        const alone = [];
        for (const [i, ask] of asks.entries()) alone.push((await call(ask, i, temperature)).choices);
        const together = await Promise.all(asks.map((ask, i) => call(ask, i, temperature)));
        expect(together.map((result) => result.choices)).toEqual(alone);
      }
    } finally {
      await uncached.dispose();
    }
  });

  it('gives the same samples with the prefix cache as without, and reports the cached tokens', async () => {
    const uncached = await OnnxBackend.load(fixtureModel(1), { prefixCacheBytes: 0 });
    try {
      // A conversation that grows turn by turn, as a negotiation's prompts do.
      const turns = ['Make an offer.', 'I can do 40.', 'How about 45?', 'Deal at 44 then.'];
      let sofar = '<|im_start|>system\nYou sell a camera.<|im_end|>\n';
      for (const [i, turn] of turns.entries()) {
        sofar += `<|im_start|>user\n${turn}<|im_end|>\n`;
        const request = {
          prompt: { messages: [], text: `${sofar}<|im_start|>assistant\n` },
          responseFormat: { type: 'json' as const, schema },
          seed: 20 + i,
          n: 2,
          maxTokens: 60,
        };
        const cached = await backend.doGenerate(request);
        const fresh = await uncached.doGenerate(request);
        expect(cached.choices).toEqual(fresh.choices);
        expect(fresh.usage.cachedPromptTokens).toBe(0);
        // From the second turn on, the last prompt's tokens come from the cache.
        if (i > 0) expect(cached.usage.cachedPromptTokens).toBeGreaterThan(10);
        expect(cached.usage.cachedPromptTokens).toBeLessThan(cached.usage.promptTokens);
      }
    } finally {
      await uncached.dispose();
    }
  });

  it('loads an export whose weights are in external data files, and names a missing one', async () => {
    const folder = fixtureModel(1, { externalData: true });
    expect(existsSync(join(folder, 'onnx', 'model.onnx_data'))).toBe(true);
    expect(statSync(join(folder, 'onnx', 'model.onnx')).size).toBeLessThan(100_000);
    const external = await OnnxBackend.load(folder);
    try {
      const request = {
        prompt,
        responseFormat: { type: 'json' as const, schema },
        seed: 3,
        n: 2,
        maxTokens: 60,
      };
      expect((await external.doGenerate(request)).choices).toEqual(
        (await backend.doGenerate(request)).choices,
      );
    } finally {
      await external.dispose();
    }
    // The same folder without its data file.
    const broken = mkdtempSync(join(repoRoot, '.cache', 'no-data-'));
    try {
      cpSync(folder, broken, { recursive: true });
      rmSync(join(broken, 'onnx', 'model.onnx_data'));
      const error = await OnnxBackend.load(broken, { device: 'cuda' }).catch((e: unknown) => e);
      expect(ModelFolderError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/model\.onnx_data is missing/);
      expect((error as Error).message.match(/Cannot load/g)).toHaveLength(1);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('rejects load options it cannot use, naming each', async () => {
    const error = await OnnxBackend.load(fixtureModel(1), {
      maxBatchSize: 0,
      prefixCacheBytes: -1,
    }).catch((e: unknown) => e);
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/maxBatchSize/);
    expect(String((error as Error).message)).toMatch(/prefixCacheBytes/);
  });

  it('generates plain text up to maxTokens or a stop string', async () => {
    const result = await backend.doGenerate({ prompt, seed: 1, maxTokens: 12 });
    expect(result.choices[0]?.finishReason).toBe('length');
    expect(result.usage.completionTokens).toBe(12);
  });

  it('says so when no seed is given', async () => {
    const result = await backend.doGenerate({
      prompt,
      responseFormat: { type: 'json', schema },
      maxTokens: 60,
    });
    expect(result.warnings.some((w) => w.type === 'other' && /seed/.test(w.message))).toBe(true);
  });

  it('rejects with the abort error when the signal fires mid-generation, and keeps serving', async () => {
    const controller = new AbortController();
    const running = backend.doGenerate({
      prompt,
      seed: 2,
      maxTokens: 1_000_000,
      abortSignal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const error = await running.catch((e: unknown) => e);
    expect(HaggleAbortError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/user left/);
    const after = await backend.doGenerate({
      prompt,
      responseFormat: { type: 'json', schema },
      seed: 5,
      maxTokens: 60,
    });
    expect(() => JSON.parse(after.choices[0]?.text ?? '')).not.toThrow();
  });

  it('rejects at once when the signal has already fired', async () => {
    const error = await backend
      .doGenerate({ prompt, abortSignal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(HaggleAbortError.isInstance(error)).toBe(true);
  });
});

describe('OnnxBackend.load', () => {
  it('falls back to the CPU when CUDA is asked for but not installed, and says so', async () => {
    const onCuda = await OnnxBackend.load(fixtureModel(1), { device: 'cuda' });
    try {
      expect(onCuda.device).toBe('cpu');
      expect(onCuda.loadWarnings).toHaveLength(1);
      expect(onCuda.loadWarnings[0]).toMatchObject({ type: 'fallback' });
      expect(JSON.stringify(onCuda.loadWarnings)).toMatch(/--onnxruntime-node-install=cuda12/);
      const result = await onCuda.doGenerate({
        prompt,
        responseFormat: { type: 'json', schema },
        seed: 1,
        maxTokens: 60,
      });
      expect(result.warnings.map((w) => w.type)).toContain('fallback');
    } finally {
      await onCuda.dispose();
    }
  });

  it('throws a typed error that says how to install CUDA when fallback is off', async () => {
    const error = await OnnxBackend.load(fixtureModel(1), { device: 'cuda', fallback: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OnnxDeviceUnavailableError);
    expect((error as Error).message).toMatch(/--onnxruntime-node-install=cuda12/);
    expect((error as OnnxDeviceUnavailableError).device).toBe('cuda');
  });

  it('says a missing folder is missing, and names the commands that make one', async () => {
    const error = await OnnxBackend.load('/nonexistent/model').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelFolderError);
    expect((error as Error).message).toMatch(
      /\/nonexistent\/model: no such folder \(build one with `haggle model build`/,
    );
  });

  it('names a config.json that is not an object and a graph that is a named pipe, with typed errors', async () => {
    const folder = fixtureModel(1);
    const copy = mkdtempSync(join(repoRoot, '.cache', 'bad-folder-'));
    try {
      cpSync(folder, copy, { recursive: true });
      writeFileSync(join(copy, 'config.json'), 'null');
      // Before, `null` reached `config[key]`: a TypeError, not a folder error.
      const notObject = await OnnxBackend.load(copy).catch((e: unknown) => e);
      expect(notObject).toBeInstanceOf(ModelFolderError);
      expect((notObject as Error).message).toMatch(/config\.json does not hold a JSON object/);
      cpSync(join(folder, 'config.json'), join(copy, 'config.json'));
      rmSync(join(copy, 'onnx', 'model.onnx'));
      expect(spawnSync('mkfifo', [join(copy, 'onnx', 'model.onnx')]).status).toBe(0);
      // onnxruntime would open the pipe in native code and wait for a writer for ever.
      const pipe = await OnnxBackend.load(copy).catch((e: unknown) => e);
      expect(pipe).toBeInstanceOf(ModelFolderError);
      expect((pipe as Error).message).toMatch(/model\.onnx is not a regular file/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('decodes the same on an export without num_logits_to_keep (exactly Optimum names)', async () => {
    const strict = await OnnxBackend.load(fixtureModel(1, { optimumStrict: true }));
    try {
      const options = {
        prompt,
        responseFormat: { type: 'json' as const, schema },
        seed: 5,
        n: 2,
        maxTokens: 80,
      };
      expect((await strict.doGenerate(options)).choices).toEqual((await backend.doGenerate(options)).choices);
    } finally {
      await strict.dispose();
    }
  });
});
