import { generateText, streamObject, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchDecoderSchemas } from '../../bench/shared/decoder-schemas.js';
import { createHaggle } from '../../src/ai-sdk/index.js';
import type {
  BackendStreamPart,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../../src/backends/language-backend.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { fixtureModel } from '../onnx/fixture-model.js';

/** The real OnnxBackend, noting when its answer is finished (its stream's `finish` part). */
function watched(backend: OnnxBackend): {
  backend: LanguageBackend;
  finished: () => boolean;
  closed: () => boolean;
} {
  let done = false;
  let closed = false;
  return {
    finished: () => done,
    closed: () => closed,
    backend: {
      specificationVersion: 'v1',
      provider: backend.provider,
      modelId: backend.modelId,
      // A whole answer counts as finished too, so a model that replays a finished text fails here.
      doGenerate: async (options) => {
        const result = await backend.doGenerate(options);
        done = true;
        return result;
      },
      async *doStream(options) {
        done = false;
        closed = false;
        try {
          for await (const part of backend.doStream(options)) {
            if (part.type === 'finish') done = true;
            yield part;
          }
        } finally {
          closed = true;
        }
      },
    },
  };
}

describe('HaggleLanguageModel.doStream forwards the backend deltas as they are decoded (fixture model)', () => {
  let onnx: OnnxBackend;
  beforeAll(async () => {
    onnx = await OnnxBackend.load(fixtureModel(1));
  }, 120_000);
  afterAll(async () => {
    await onnx?.dispose();
  });

  it('streamText: several chunks arrive before the model finishes; they join to the result text', {
    timeout: 120_000,
  }, async () => {
    const { backend, finished } = watched(onnx);
    const result = streamText({
      model: createHaggle({ backend })(),
      prompt: 'Say hi.',
      maxOutputTokens: 24,
      providerOptions: { haggle: { seed: 4 } },
    });
    let early = 0;
    let joined = '';
    for await (const delta of result.textStream) {
      if (!finished()) early++;
      joined += delta;
    }
    expect(early).toBeGreaterThan(1);
    expect(joined).toBe(await result.text);
    expect(await result.finishReason).toBe('length');
    expect((await result.usage).outputTokens).toBe(24);
  });

  it('an abort mid-stream ends the generation early; the backend serves the next call', {
    timeout: 120_000,
  }, async () => {
    const { backend, finished, closed } = watched(onnx);
    const abort = new AbortController();
    const errors: unknown[] = [];
    const result = streamText({
      model: createHaggle({ backend })(),
      prompt: 'Describe the lamp at length.',
      maxOutputTokens: 400,
      abortSignal: abort.signal,
      providerOptions: { haggle: { seed: 6 } },
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    let chunks = 0;
    await expect(
      (async () => {
        for await (const _delta of result.textStream) if (++chunks === 2) abort.abort(new Error('user left'));
      })(),
    ).resolves.toBeUndefined();
    // The backend's stream was closed before its answer was finished: the generation stopped there.
    for (let i = 0; i < 200 && !closed(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed()).toBe(true);
    expect(finished()).toBe(false);
    expect(chunks).toBeLessThan(400);
    const next = await generateText({
      model: createHaggle({ backend: onnx })(),
      prompt: 'Say hi.',
      maxOutputTokens: 4,
      providerOptions: { haggle: { seed: 1 } },
    });
    expect(next.usage.outputTokens).toBe(4);
  });

  it('streamObject: partial objects arrive before the model finishes, and the final object is valid', {
    timeout: 120_000,
  }, async () => {
    const { backend, finished } = watched(onnx);
    const schema = benchDecoderSchemas()['offer: contract'] as Record<string, unknown>;
    const { z } = await import('zod');
    const zod = z.fromJSONSchema(schema as never);
    const result = streamObject({
      model: createHaggle({ backend })(),
      schema: zod,
      prompt: 'Propose a contract.',
      maxOutputTokens: 400,
      providerOptions: { haggle: { seed: 3 } },
    });
    let early = 0;
    let last: unknown;
    for await (const partial of result.partialObjectStream) {
      if (!finished()) early++;
      last = partial;
    }
    const object = await result.object;
    expect(early).toBeGreaterThan(1);
    expect(zod.safeParse(object).success).toBe(true);
    expect(last).toEqual(object);
  });
});

/**
 * A backend that streams a first attempt, resets, and streams a second: the shape a remote backend
 * gives when it retries after its first part (a scripted stand-in for that retry, no model behind it).
 */
function retrying(first: string[], second: string[]): LanguageBackend {
  const result = (text: string): GenerateResult => ({
    choices: [{ text, finishReason: 'stop' }],
    usage: { promptTokens: 3, completionTokens: 5 },
    warnings: [],
  });
  return {
    specificationVersion: 'v1',
    provider: 'scripted-retry',
    modelId: 'scripted',
    doGenerate: async (_options: GenerateOptions) => result(second.join('')),
    async *doStream(): AsyncGenerator<BackendStreamPart> {
      for (const delta of first) yield { type: 'text-delta', index: 0, delta };
      yield { type: 'reset' };
      for (const delta of second) yield { type: 'text-delta', index: 0, delta };
      yield { type: 'finish', result: result(second.join('')) };
    },
  };
}

describe('HaggleLanguageModel.doStream maps a backend reset', () => {
  it('a retry that repeats the streamed text only adds what goes beyond it', async () => {
    const result = streamText({
      model: createHaggle({ backend: retrying(['Hel', 'lo'], ['He', 'llo', ', world']) })(),
      prompt: 'hi',
    });
    const chunks: string[] = [];
    for await (const delta of result.textStream) chunks.push(delta);
    expect(chunks).toEqual(['Hel', 'lo', ', world']);
    expect(await result.text).toBe('Hello, world');
    expect(await result.finishReason).toBe('stop');
  });

  it('a retry with other text ends the stream with a retryable BackendError, never two answers joined', async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: createHaggle({ backend: retrying(['Hello'], ['Good', 'bye']) })(),
      prompt: 'hi',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    let joined = '';
    for await (const delta of result.textStream) joined += delta;
    expect(joined).toBe('Hello');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'BackendError', retryable: true });
    expect(String((errors[0] as Error).message)).toMatch(/differs from the text already streamed/);
    expect(await result.finishReason).toBe('error');
  });
});
