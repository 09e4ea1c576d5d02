import { createOpenAI } from '@ai-sdk/openai';
import { describe, expect, it } from 'vitest';
import { fromLanguageModel, resolveProviderModel } from '../../src/ai-sdk/index.js';
import { HaggleAbortError } from '../../src/contract/errors.js';
import { playSelfSessions } from './play-sessions.js';
import { serveFixtureModel } from './serve-helper.js';

// An AI SDK provider package (@ai-sdk/openai, the real one) pointed at a real `haggle serve` on
// loopback over the fixture ONNX model: the frontier-buyer path of the preprint's setup, with the
// hosted API swapped for a server we can run here.
const SESSIONS = Number(process.env.HAGGLE_AI_SDK_SESSIONS ?? 50);

describe('fromLanguageModel: @ai-sdk/openai against haggle serve (fixture model)', () => {
  const served = serveFixtureModel();

  const model = () =>
    createOpenAI({ baseURL: served().url, apiKey: 'not-checked-by-this-server' }).chat(served().model);

  it(`${SESSIONS} sessions, NegotiationAgent on both sides: 0 illegal turns`, {
    timeout: 600_000,
  }, async () => {
    const { agent } = await playSelfSessions(model(), SESSIONS, 11);
    expect(agent.usage.completionTokens).toBeGreaterThan(0);
  });

  it('seeds reach the server: the same seed gives the same text, another seed another', async () => {
    const backend = fromLanguageModel(model());
    const ask = (seed: number) =>
      backend
        .doGenerate({
          prompt: { messages: [{ role: 'user', content: 'Offer a price.' }] },
          responseFormat: {
            type: 'json',
            schema: {
              type: 'object',
              properties: { price: { type: 'number' } },
              required: ['price'],
              additionalProperties: false,
            },
          },
          temperature: 1,
          seed,
          maxTokens: 40,
        })
        .then((result) => result.choices[0]?.text);
    const first = await ask(4);
    expect(await ask(4)).toBe(first);
    const others = await Promise.all([5, 6, 7].map(ask));
    expect(others.some((text) => text !== first)).toBe(true);
    expect(JSON.parse(first ?? '')).toHaveProperty('price');
  });

  it('n=3 becomes three calls with derived seeds; usage adds up', async () => {
    const backend = fromLanguageModel(model());
    const result = await backend.doGenerate({
      prompt: { messages: [{ role: 'user', content: 'hi' }] },
      n: 3,
      seed: 1,
      maxTokens: 8,
    });
    expect(result.choices).toHaveLength(3);
    expect(result.usage.completionTokens).toBeGreaterThanOrEqual(3);
    expect(result.warnings.some((w) => 'message' in w && /n=3 became 3 parallel calls/.test(w.message))).toBe(
      true,
    );
  });

  it('an abort becomes HaggleAbortError; the answer cap fails the call with a BackendError', async () => {
    const backend = fromLanguageModel(model());
    const abort = new AbortController();
    abort.abort(new Error('user left'));
    await expect(
      backend.doGenerate({
        prompt: { messages: [{ role: 'user', content: 'hi' }] },
        abortSignal: abort.signal,
      }),
    ).rejects.toBeInstanceOf(HaggleAbortError);
    const capped = fromLanguageModel(model(), { maxResponseChars: 5 });
    await expect(
      capped.doGenerate({ prompt: { messages: [{ role: 'user', content: 'hi' }] }, seed: 1, maxTokens: 40 }),
    ).rejects.toThrow(/more than maxResponseChars \(5\)/);
  });

  it('doStream yields text deltas and a finish part with usage', async () => {
    const backend = fromLanguageModel(model());
    let text = '';
    let finish: unknown;
    for await (const part of backend.doStream({
      prompt: { messages: [{ role: 'user', content: 'hi' }] },
      seed: 2,
      maxTokens: 24,
    })) {
      if (part.type === 'text-delta') text += part.delta;
      else if (part.type === 'finish') finish = part;
    }
    const whole = await backend.doGenerate({
      prompt: { messages: [{ role: 'user', content: 'hi' }] },
      seed: 2,
      maxTokens: 24,
    });
    expect(text).toBe(whole.choices[0]?.text);
    expect(finish).toMatchObject({
      type: 'finish',
      result: { choices: [{ text: whole.choices[0]?.text }], usage: { completionTokens: 24 } },
    });
  });

  it('a server error is a BackendError whose message holds no key', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const wrong = createOpenAI({ baseURL: `${served().url}/nowhere`, apiKey: secret }).chat(served().model);
    const backend = fromLanguageModel(wrong, { secrets: [secret], maxRetries: 0 });
    const error = (await backend
      .doGenerate({ prompt: { messages: [{ role: 'user', content: 'hi' }] } })
      .catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ name: 'BackendError', status: 404 });
    expect(String(error.message)).not.toContain(secret);
  });
});

describe('provider packages', () => {
  it('a provider package that is not installed gives OptionalDependencyMissingError with the install command', async () => {
    // @ai-sdk/anthropic is not a dependency of this project: the real resolution fails.
    await expect(import('@ai-sdk/anthropic' as string)).rejects.toThrow();
    const error = await resolveProviderModel({ provider: 'anthropic', model: 'claude-sonnet-4-5' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      name: 'OptionalDependencyMissingError',
      code: 'optional-dependency-missing',
      packageName: '@ai-sdk/anthropic',
      installCommand: 'npm install @ai-sdk/anthropic',
    });
    expect(String((error as Error).message)).toContain('npm install @ai-sdk/anthropic');
  });

  it('openai-compatible resolves through @ai-sdk/openai-compatible (installed here)', async () => {
    const resolved = await resolveProviderModel({
      provider: 'openai-compatible',
      model: 'm',
      baseURL: 'http://127.0.0.1:9/v1',
    });
    expect(resolved.packageName).toBe('@ai-sdk/openai-compatible');
    expect(resolved.model.provider).toMatch(/^openai-compatible/);
    expect(resolved.model.specificationVersion).toBe('v4'); // the devDependency's line (3.x)
    await expect(resolveProviderModel({ provider: 'openai-compatible', model: 'm' })).rejects.toThrow(
      /needs "baseURL"/,
    );
    await expect(resolveProviderModel({ provider: 'nope', model: 'm' })).rejects.toThrow(
      /unknown provider "nope"/,
    );
  });

  it('refuses a model of another specification version, naming the packages of each line', () => {
    const refusal = (version: unknown) => {
      try {
        fromLanguageModel({ specificationVersion: version, provider: 'p', modelId: 'm' } as never);
      } catch (error) {
        return error as Error;
      }
      throw new Error('expected a refusal');
    };
    const v2 = refusal('v2');
    expect(v2).toMatchObject({ name: 'UnsupportedLanguageModelError', specificationVersion: 'v2' });
    expect(v2.message).toContain(
      '"v3" (ai 6: @ai-sdk/provider 3, @ai-sdk/openai 3, @ai-sdk/openai-compatible 2)',
    );
    expect(v2.message).toContain(
      '"v4" (ai 7: @ai-sdk/provider 4, @ai-sdk/openai 4, @ai-sdk/openai-compatible 3)',
    );
    expect(v2.message).toContain('npm install ai@6');
    expect(refusal(undefined).message).toMatch(/declares null.*provider\(modelId\)/);
  });
});
