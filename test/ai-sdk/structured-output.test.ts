import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromLanguageModel } from '../../src/ai-sdk/index.js';
import { jsonInText } from '../../src/ai-sdk/structured-output.js';
import type { GenerateOptions } from '../../src/backends/language-backend.js';

// The step-down of `structuredOutput: 'auto'` against providers that lack a JSON-schema mode (Cohere,
// say, which this machine cannot reach): the AI SDK's own test model (`ai/test`) stands in for the
// hosted API and answers as such a provider's package does, with an `unsupported` warning.

const TURN = '{"action":"offer","price":42,"message_labels":[],"message":"","response_time":1}';
const usage = {
  inputTokens: { total: 10, noCache: undefined, cacheRead: 4, cacheWrite: undefined },
  outputTokens: { total: 5, text: undefined, reasoning: undefined },
};
const result = (
  content: LanguageModelV4GenerateResult['content'],
  warnings: LanguageModelV4GenerateResult['warnings'] = [],
) =>
  ({
    content,
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings,
  }) satisfies LanguageModelV4GenerateResult;

const call: GenerateOptions = {
  prompt: { messages: [{ role: 'user', content: 'Your turn.' }] },
  responseFormat: { type: 'json', schema: { type: 'object' }, name: 'turn' },
  seed: 3,
};

/** A provider without a JSON-schema mode: it warns on `responseFormat`, and answers a forced tool. */
function toolOnlyProvider(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      if (options.tools?.length)
        return result([
          { type: 'tool-call', toolCallId: '1', toolName: options.tools[0]?.name ?? '', input: TURN },
        ]);
      return result(
        [{ type: 'text', text: 'Sure! Here is my offer.' }],
        [
          {
            type: 'unsupported',
            feature: 'responseFormat',
            details: 'JSON response format is not supported.',
          },
        ],
      );
    },
  });
}

describe('structured output modes', () => {
  it('auto steps down to a forced tool call when the provider warns, says so, and stays there', async () => {
    const model = toolOnlyProvider();
    const backend = fromLanguageModel(model);
    const first = await backend.doGenerate(call);
    expect(first.choices[0]?.text).toBe(TURN);
    expect(first.warnings).toContainEqual({
      type: 'other',
      message: 'structured output through a forced tool call (the provider has no JSON-schema mode)',
    });
    expect(first.usage).toEqual({ promptTokens: 10, completionTokens: 5, cachedPromptTokens: 4 });
    expect(model.doGenerateCalls[0]?.responseFormat).toMatchObject({ type: 'json', name: 'turn' });
    expect(model.doGenerateCalls[1]?.toolChoice).toEqual({ type: 'tool', toolName: 'turn' });
    expect(model.doGenerateCalls[1]?.tools?.[0]).toMatchObject({
      type: 'function',
      name: 'turn',
      inputSchema: { type: 'object' },
    });
    await backend.doGenerate(call);
    // Remembered: the next call asks with the tool at once (3 calls in all, not 4).
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(model.doGenerateCalls[2]?.tools).toHaveLength(1);
  });

  it('with neither mode, the schema goes into the prompt and the JSON is read out of the text', async () => {
    // Warns on whichever of the two it was asked for; plain text it answers without a word.
    const model = new MockLanguageModelV4({
      doGenerate: async (options: LanguageModelV4CallOptions) =>
        result(
          [{ type: 'text', text: `Here you go:\n\`\`\`json\n${TURN}\n\`\`\`` }],
          options.tools?.length
            ? [{ type: 'unsupported', feature: 'tools' }]
            : options.responseFormat?.type === 'json'
              ? [{ type: 'unsupported', feature: 'responseFormat' }]
              : [],
        ),
    });
    const backend = fromLanguageModel(model);
    const answer = await backend.doGenerate(call);
    expect(answer.choices[0]?.text).toBe(TURN);
    const last = model.doGenerateCalls.at(-1);
    expect(last?.prompt[0]).toMatchObject({ role: 'system' });
    expect(JSON.stringify(last?.prompt[0])).toContain('{\\"type\\":\\"object\\"}');
    expect(answer.warnings.some((w) => 'message' in w && /JSON in text/.test(w.message))).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it('a fixed mode is kept even when the provider warns', async () => {
    const model = toolOnlyProvider();
    const backend = fromLanguageModel(model, { structuredOutput: 'json-schema' });
    const answer = await backend.doGenerate(call);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(answer.choices[0]?.text).toBe('Sure! Here is my offer.');
    expect(answer.warnings).toContainEqual({
      type: 'unsupported-setting',
      setting: 'responseFormat',
      details: 'JSON response format is not supported.',
    });
  });

  it('jsonInText: a fence, else the outermost brackets, else the text unchanged', () => {
    expect(jsonInText('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(jsonInText('My answer is {"a":{"b":2}} as asked.')).toBe('{"a":{"b":2}}');
    expect(jsonInText('[1,2] done')).toBe('[1,2]');
    expect(jsonInText('no json here')).toBe('no json here');
  });
});
