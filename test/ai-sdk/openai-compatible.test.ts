import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { playSelfSessions } from './play-sessions.js';
import { serveFixtureModel } from './serve-helper.js';

// The done-means with the real @ai-sdk/openai-compatible package against a real `haggle serve`
// of the fixture ONNX model on loopback: no network, no key.
const SESSIONS = Number(process.env.HAGGLE_AI_SDK_SESSIONS ?? 50);

describe('@ai-sdk/openai-compatible against haggle serve (fixture model)', () => {
  const served = serveFixtureModel();

  // haggle serve takes `json_schema` and `stream_options.include_usage`: the package sends each only
  // when told the server takes it.
  const model = () =>
    createOpenAICompatible({
      name: 'haggle-serve',
      baseURL: served().url,
      supportsStructuredOutputs: true,
      includeUsage: true,
    }).chatModel(served().model);

  it(`fromLanguageModel plays ${SESSIONS} sessions, NegotiationAgent on both sides: 0 illegal turns`, {
    timeout: 600_000,
  }, async () => {
    const { warnings } = await playSelfSessions(model(), SESSIONS, 12);
    expect(warnings.some((w) => 'message' in w && /tool/.test(w.message))).toBe(false);
  });

  // What a user writes first, and what the issue found failing: no flags. The package then sends no
  // schema (`json_object` and an `unsupported` warning), so fromLanguageModel's `auto` steps down to a
  // forced tool call, which haggle serve decodes under the schema and returns as `tool_calls`.
  it(`at its default options: fromLanguageModel plays ${SESSIONS} sessions over forced tool calls, 0 illegal turns`, {
    timeout: 600_000,
  }, async () => {
    const defaults = createOpenAICompatible({ name: 'haggle-serve', baseURL: served().url }).chatModel(
      served().model,
    );
    const { warnings } = await playSelfSessions(defaults, SESSIONS, 13, /forced tool call/);
    const notes = warnings.flatMap((w) =>
      'message' in w && /^structured output/.test(w.message) ? [w.message] : [],
    );
    expect(new Set(notes)).toEqual(
      new Set(['structured output through a forced tool call (the provider has no JSON-schema mode)']),
    );
  });

  it('streamText from ai reads the server stream chunk by chunk', { timeout: 120_000 }, async () => {
    const result = streamText({
      model: model(),
      prompt: 'Describe the item for sale.',
      maxOutputTokens: 48,
      seed: 3,
    });
    const chunks: string[] = [];
    for await (const delta of result.textStream) chunks.push(delta);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(await result.text);
    expect(await result.finishReason).toBe('length');
    expect((await result.usage).outputTokens).toBe(48);
  });
});
