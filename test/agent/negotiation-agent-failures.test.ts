import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import type {
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../../src/backends/language-backend.js';
import { BackendError, HaggleAbortError, HaggleError, InvalidInputError } from '../../src/contract/errors.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import { buyerOpenedAt80, camera, entry, json, offer } from './fixtures.js';

const sellerInput = { context: camera, history: buyerOpenedAt80, role: 'seller' as const };

function backendThat(doGenerate: (options: GenerateOptions) => Promise<GenerateResult>): LanguageBackend {
  return { specificationVersion: 'v1', provider: 'custom', modelId: 'm-1', doGenerate };
}

describe('NegotiationAgent aborts', () => {
  it('does not call the backend when the signal has already fired', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(100))] });
    const agent = new NegotiationAgent({ backend: mock });
    const controller = new AbortController();
    controller.abort(new Error('user left'));

    const error = await agent.predict(sellerInput, { signal: controller.signal }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(HaggleAbortError);
    expect((error as HaggleAbortError).message).toBe('Aborted: user left');
    expect(mock.calls).toHaveLength(0);
  });

  it('passes the signal to the backend and stops when it fires during the call', async () => {
    const controller = new AbortController();
    const mock = new MockLanguageBackend({
      responses: [
        () => {
          controller.abort();
          return json(offer(100));
        },
        json(offer(100)),
      ],
    });
    const agent = new NegotiationAgent({ backend: mock });

    await expect(agent.predict(sellerInput, { signal: controller.signal })).rejects.toBeInstanceOf(
      HaggleAbortError,
    );
    expect(mock.calls).toHaveLength(1);
    expect(mock.calls[0]?.abortSignal).toBe(controller.signal);
  });

  it('stops a slow call as soon as the signal fires', async () => {
    const mock = new MockLanguageBackend({ responses: [json(offer(100))], latencyMs: 10_000 });
    const agent = new NegotiationAgent({ backend: mock });
    const started = Date.now();
    const pending = agent.predict(sellerInput, { signal: AbortSignal.timeout(20) });
    await expect(pending).rejects.toBeInstanceOf(HaggleAbortError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('turns a backend rejection caused by the abort into HaggleAbortError', async () => {
    const controller = new AbortController();
    const backend = backendThat(async () => {
      controller.abort();
      throw new DOMException('This operation was aborted', 'AbortError');
    });
    const agent = new NegotiationAgent({ backend });
    await expect(agent.predict(sellerInput, { signal: controller.signal })).rejects.toBeInstanceOf(
      HaggleAbortError,
    );
  });

  it('throws HaggleAbortError when a backend that ignores the signal answers after the abort', async () => {
    const controller = new AbortController();
    const backend = backendThat(async () => {
      controller.abort();
      return {
        choices: [{ text: json(offer(100)), finishReason: 'stop' }],
        usage: { promptTokens: 0, completionTokens: 0 },
        warnings: [],
      };
    });
    const agent = new NegotiationAgent({ backend });
    await expect(agent.predict(sellerInput, { signal: controller.signal })).rejects.toBeInstanceOf(
      HaggleAbortError,
    );
  });
});

describe('NegotiationAgent backend errors', () => {
  it('wraps an error that is not a HaggleError in a BackendError', async () => {
    const cause = new TypeError('fetch failed');
    const agent = new NegotiationAgent({ backend: backendThat(() => Promise.reject(cause)) });

    const error = (await agent.predict(sellerInput).catch((e: unknown) => e)) as BackendError;

    expect(error).toBeInstanceOf(BackendError);
    expect(error.cause).toBe(cause);
    expect(error.backend).toBe('custom:m-1');
    expect(error.message).toContain('fetch failed');
  });

  it('passes a HaggleError from the backend through unchanged', async () => {
    const original = new BackendError({
      message: 'HTTP 503',
      backend: 'custom',
      status: 503,
      retryable: true,
    });
    const agent = new NegotiationAgent({ backend: backendThat(() => Promise.reject(original)) });
    await expect(agent.predict(sellerInput)).rejects.toBe(original);
  });

  it('reports a mock that ran out of responses', async () => {
    const agent = new NegotiationAgent({ backend: new MockLanguageBackend() });
    const error = await agent.predict(sellerInput).catch((e: unknown) => e);
    expect(HaggleError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('ran out of queued responses');
  });

  it('rejects a malformed backend result', async () => {
    const backend = backendThat(async () => ({}) as GenerateResult);
    await expect(new NegotiationAgent({ backend }).predict(sellerInput)).rejects.toThrow(
      'without a choices array',
    );
  });
});

describe('NegotiationAgent input validation', () => {
  it('names the path of a bad history entry', async () => {
    const mock = new MockLanguageBackend();
    const agent = new NegotiationAgent({ backend: mock });
    const history = [entry('buyer', { ...offer(80), price: -5 }, 0)];

    const error = (await agent
      .predict({ ...sellerInput, history })
      .catch((e: unknown) => e)) as InvalidInputError;

    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.subject).toBe('PredictInput');
    expect(error.issues.map((issue) => issue.path)).toContain('history[0].turn.price');
    expect(error.message).toContain('history[0].turn.price');
    expect(mock.calls).toHaveLength(0);
  });

  it('names the paths of a bad context, role and legalActions', async () => {
    const agent = new NegotiationAgent({ backend: new MockLanguageBackend() });
    const input = {
      context: { ...camera, item: { title: '  ' }, listPrice: 0 },
      history: [],
      role: 'broker',
      legalActions: ['haggle'],
    };
    // biome-ignore lint/suspicious/noExplicitAny: feeding invalid input on purpose.
    const error = (await agent.predict(input as any).catch((e: unknown) => e)) as InvalidInputError;
    expect(error.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['context.item.title', 'context.listPrice', 'role', 'legalActions[0]']),
    );
  });

  it('names the path of bad call options', async () => {
    const agent = new NegotiationAgent({ backend: new MockLanguageBackend() });
    await expect(agent.predict(sellerInput, { seed: -1 })).rejects.toMatchObject({
      subject: 'PredictOptions',
      issues: [{ path: 'seed' }],
    });
    // biome-ignore lint/suspicious/noExplicitAny: feeding invalid input on purpose.
    await expect(agent.predict(sellerInput, { signal: 'stop' as any })).rejects.toMatchObject({
      issues: [{ path: 'signal' }],
    });
  });
});

describe('NegotiationAgent options', () => {
  const backend = new MockLanguageBackend();

  function optionIssues(options: unknown): string[] {
    try {
      // biome-ignore lint/suspicious/noExplicitAny: feeding invalid options on purpose.
      new NegotiationAgent(options as any);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).subject).toBe('NegotiationAgentOptions');
      return (error as InvalidInputError).issues.map((issue) => issue.path);
    }
    throw new Error('expected the options to be rejected');
  }

  it('rejects bad options with readable paths, all at once', () => {
    expect(
      optionIssues({
        backend,
        sampling: { temperature: 5, topK: 0.5 },
        invalidOutput: { retries: -1 },
        guardrails: { seller: { minPrice: 50, maxPrice: 10 } },
      }),
    ).toEqual(
      expect.arrayContaining([
        'sampling.temperature',
        'sampling.topK',
        'invalidOutput.retries',
        'guardrails.seller',
      ]),
    );
  });

  it('rejects a missing backend, an unknown profile, a bad template and typos', () => {
    expect(optionIssues({})).toContain('backend');
    expect(optionIssues({ backend, profile: 'gpt-negotiator' })).toContain('profile');
    expect(optionIssues({ backend, profile: { id: 'x' } })).toContain('profile.labels');
    expect(optionIssues({ backend, template: { id: 'x' } })).toContain('template');
    expect(optionIssues({ backend, template: 'llama3' })).toContain('template');
    const profile = {
      id: 'p',
      labels: { kind: 'open' },
      responseTimeUnit: 'hours',
      template: 'llama3',
      sampling: { temperature: 1 },
    };
    expect(optionIssues({ backend, profile })).toContain('profile.template');
    expect(optionIssues({ backend, guardrail: {} })).toContain('(root)');
    expect(optionIssues({ backend, invalidOutput: { retries: 11 } })).toContain('invalidOutput.retries');
    expect(optionIssues(undefined)).toContain('(root)');
  });

  it('takes a built-in profile by id and fills sampling from it', () => {
    const agent = new NegotiationAgent({ backend, profile: 'qwen3-4b-negotiation-msg-sessions-ep4' });
    expect(agent.profile.id).toBe('qwen3-4b-negotiation-msg-sessions-ep4');
    expect(agent.sampling).toEqual({ temperature: 1 });
    expect(agent.retries).toBe(2);
    expect(agent.responseTimeUnit).toBe('hours');
  });
});
