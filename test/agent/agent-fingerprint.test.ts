import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { OpenAICompatibleBackend } from '../../src/backends/openai/openai-compatible-backend.js';
import { createPromptTemplate } from '../../src/prompt/create-template.js';
import { qwen3NoThinkTemplate } from '../../src/prompt/default-template.js';
import { defaultWording } from '../../src/prompt/default-wording.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';

const mock = () => new MockLanguageBackend({ responses: [] });

describe('NegotiationAgent.describe() fingerprints', () => {
  it('the template hash follows what the template says, not its id', () => {
    const base = new NegotiationAgent({ backend: mock() }).describe();
    const sameWords = createPromptTemplate({
      id: 'renamed',
      format: qwen3NoThinkTemplate.format,
      wording: defaultWording,
    });
    const otherWords = createPromptTemplate({
      id: 'qwen3_nothink',
      format: qwen3NoThinkTemplate.format,
      wording: (input) => defaultWording(input).map((m) => ({ ...m, content: `${m.content}\nBe brief.` })),
    });
    expect(new NegotiationAgent({ backend: mock(), template: sameWords }).describe().templateHash).toBe(
      base.templateHash,
    );
    expect(new NegotiationAgent({ backend: mock(), template: otherWords }).describe().templateHash).not.toBe(
      base.templateHash,
    );
  });

  it('the turn schema hash changes with guardrails and the profile, and is stable otherwise', () => {
    const hash = (options: Partial<ConstructorParameters<typeof NegotiationAgent>[0]>) =>
      new NegotiationAgent({ backend: mock(), ...options }).describe().turnSchemaHash;
    expect(hash({})).toBe(hash({}));
    expect(hash({ guardrails: { seller: { minPrice: 40 } } })).not.toBe(hash({}));
    expect(
      hash({
        profile: {
          id: 'known-labels',
          labels: { kind: 'known', values: ['build_rapport'] },
          responseTimeUnit: 'hours',
          template: 'qwen3_nothink',
          sampling: { temperature: 1 },
        },
      }),
    ).not.toBe(hash({}));
  });

  it('carries the backend description: dialect, endpoint, replicas without credentials; sampling with max tokens', () => {
    const backend = new OpenAICompatibleBackend({
      baseURL: 'http://alice:PWSECRET@127.0.0.1:9/v1?api-key=QSECRET',
      model: 'qwen3-4b-negotiation-50k-ep3',
      apiKey: 'sk-KEYSECRET',
      dialect: 'vllm',
      endpoint: 'completions',
    });
    const agent = new NegotiationAgent({ backend, sampling: { maxTokens: 200, seed: 3 } });
    const description = agent.describe();
    expect(description.backend).toEqual({
      provider: 'openai-compatible',
      modelId: 'qwen3-4b-negotiation-50k-ep3',
      dialect: 'vllm',
      endpoint: 'completions',
      chatTemplateKwargs: { enable_thinking: false },
      cleanOutput: true,
      location: { replicas: ['http://127.0.0.1:9/v1'] },
    });
    expect(description.sampling).toEqual({ temperature: 1, maxTokens: 200, seed: 3 });
    const text = JSON.stringify(description);
    for (const secret of ['PWSECRET', 'QSECRET', 'KEYSECRET', 'alice']) expect(text).not.toContain(secret);
  });
});
