import { describe, expect, it } from 'vitest';
import type { GenerateOptions } from '../../src/backends/language-backend.js';
import { BackendError, HaggleAbortError } from '../../src/contract/errors.js';
import { MockLanguageBackend } from '../../src/testing/index.js';

const prompt = { messages: [{ role: 'user' as const, content: 'hello' }], text: 'hello there' };

describe('MockLanguageBackend', () => {
  it('implements the backend spec as provider mock', () => {
    const mock = new MockLanguageBackend();
    expect(mock.specificationVersion).toBe('v1');
    expect(mock.provider).toBe('mock');
    expect(mock.modelId).toBe('mock-model');
    expect(new MockLanguageBackend({ modelId: 'tiny' }).modelId).toBe('tiny');
  });

  it('answers from the queue in order, one response per choice, and records each call', async () => {
    const mock = new MockLanguageBackend({ responses: ['a'] }).enqueue('b', 'c', 'd');
    expect(mock.remaining).toBe(4);

    const first = await mock.doGenerate({ prompt });
    const second = await mock.doGenerate({ prompt, n: 3, seed: 4 });

    expect(first.choices).toEqual([{ text: 'a', finishReason: 'stop' }]);
    expect(second.choices.map((choice) => choice.text)).toEqual(['b', 'c', 'd']);
    expect(second.response).toEqual({ id: 'mock-1', modelId: 'mock-model' });
    expect(second.usage).toEqual({ promptTokens: 3, completionTokens: 3 });
    expect(mock.remaining).toBe(0);
    expect(mock.calls).toEqual([{ prompt }, { prompt, n: 3, seed: 4 }]);
  });

  it('calls response functions with the options and where they stand', async () => {
    const seen: unknown[] = [];
    const mock = new MockLanguageBackend({
      responses: [
        (options: GenerateOptions, context) => {
          seen.push(context);
          return `echo ${options.prompt.text}`;
        },
        async (_options, context) => `choice ${context.choice}`,
      ],
    });
    const result = await mock.doGenerate({ prompt, n: 2 });
    expect(result.choices.map((choice) => choice.text)).toEqual(['echo hello there', 'choice 1']);
    expect(seen).toEqual([{ call: 0, choice: 0 }]);
  });

  it('rejects with what a response function throws, to simulate backend failures', async () => {
    const mock = new MockLanguageBackend({
      responses: [
        () => {
          throw new Error('connection reset');
        },
      ],
    });
    await expect(mock.doGenerate({ prompt })).rejects.toThrow('connection reset');
  });

  it('returns its configured warnings with every call', async () => {
    const warnings = [{ type: 'unsupported-setting' as const, setting: 'topK' }];
    const mock = new MockLanguageBackend({ responses: ['a', 'b'], warnings });
    expect((await mock.doGenerate({ prompt })).warnings).toEqual(warnings);
    expect((await mock.doGenerate({ prompt })).warnings).toEqual(warnings);
  });

  it('says clearly when it runs out, without consuming a partial batch', async () => {
    const mock = new MockLanguageBackend({ responses: ['only one'] });
    const error = await mock.doGenerate({ prompt, n: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).message).toContain('ran out of queued responses');
    expect((error as BackendError).message).toContain('asked for 2 choice(s), 1 queued');
    expect(mock.remaining).toBe(1);
    expect(mock.calls).toHaveLength(1);
  });

  it('rejects with HaggleAbortError when the signal has already fired, consuming nothing', async () => {
    const mock = new MockLanguageBackend({ responses: ['a'] });
    const controller = new AbortController();
    controller.abort('stop');
    await expect(mock.doGenerate({ prompt, abortSignal: controller.signal })).rejects.toBeInstanceOf(
      HaggleAbortError,
    );
    expect(mock.remaining).toBe(1);
  });

  it('rejects promptly when aborted during a slow call, and runs no further response function', async () => {
    let ran = 0;
    const mock = new MockLanguageBackend({
      responses: [
        () => {
          ran++;
          return 'late';
        },
      ],
      latencyMs: 10_000,
    });
    const controller = new AbortController();
    const pending = mock.doGenerate({ prompt, abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const started = Date.now();
    await expect(pending).rejects.toBeInstanceOf(HaggleAbortError);
    expect(Date.now() - started).toBeLessThan(5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(0);
  });

  it('rejects when a response function aborts mid-call', async () => {
    const controller = new AbortController();
    const mock = new MockLanguageBackend({
      responses: [
        () => {
          controller.abort();
          return 'a';
        },
      ],
    });
    await expect(mock.doGenerate({ prompt, abortSignal: controller.signal })).rejects.toBeInstanceOf(
      HaggleAbortError,
    );
  });
});
