import type { createOpenAICompatible as CreateOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { streamText as StreamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { fromLanguageModel } from '../../src/ai-sdk/index.js';
import { playSelfSessions } from './play-sessions.js';
import { serveFixtureModel } from './serve-helper.js';

/**
 * One line of the AI SDK as a user on it installs it: its `@ai-sdk/openai-compatible` (3 for `ai` 7,
 * whose models are specification v4; 2 for `ai` 6, v3) and that line's `streamText`, typed as the
 * newest line's: the call shapes the suite uses are the same in both.
 */
export interface OpenAICompatibleLine {
  label: string;
  createOpenAICompatible: typeof CreateOpenAICompatible;
  streamText: typeof StreamText;
  /** The package's own version and the major it must have, so an alias never points at the other line. */
  packageVersion: string;
  packageMajor: number;
  specificationVersion: 'v3' | 'v4';
  /** Sessions with `supportsStructuredOutputs: true` (the default-options run plays `SESSIONS`). */
  structuredSessions: number;
}

const SESSIONS = Number(process.env.HAGGLE_AI_SDK_SESSIONS ?? 50);

/**
 * The done-means with the real @ai-sdk/openai-compatible package of one AI SDK line against a
 * real `haggle serve` of the fixture ONNX model on loopback: no network, no key. The same suite runs
 * for each line (openai-compatible.test.ts, openai-compatible-v2.test.ts).
 */
export function describeOpenAICompatible(line: OpenAICompatibleLine): void {
  describe(`@ai-sdk/openai-compatible ${line.packageVersion} (${line.label}) against haggle serve (fixture model)`, () => {
    const served = serveFixtureModel();

    it(`is the ${line.label} package, whose models are specification ${line.specificationVersion}`, () => {
      expect(Number(line.packageVersion.split('.')[0])).toBe(line.packageMajor);
      const model = line
        .createOpenAICompatible({ name: 'x', baseURL: 'http://127.0.0.1:9/v1' })
        .chatModel('m');
      expect(model.specificationVersion).toBe(line.specificationVersion);
      expect(fromLanguageModel(model).describe()).toMatchObject({
        specificationVersion: line.specificationVersion,
      });
    });

    // What a user writes first, and what failed before haggle serve took tools: no flags. The package
    // then sends no schema (`json_object` and an `unsupported` warning), so fromLanguageModel's `auto`
    // steps down to a forced tool call, which haggle serve decodes under the schema and returns as
    // `tool_calls`.
    it(`at its default options: fromLanguageModel plays ${SESSIONS} sessions over forced tool calls, 0 illegal turns`, {
      timeout: 600_000,
    }, async () => {
      const defaults = line
        .createOpenAICompatible({ name: 'haggle-serve', baseURL: served().url })
        .chatModel(served().model);
      const { warnings } = await playSelfSessions(defaults, SESSIONS, 13, /forced tool call/);
      const notes = warnings.flatMap((w) =>
        'message' in w && /^structured output/.test(w.message) ? [w.message] : [],
      );
      expect(new Set(notes)).toEqual(
        new Set(['structured output through a forced tool call (the provider has no JSON-schema mode)']),
      );
    });

    // haggle serve takes `json_schema` and `stream_options.include_usage`: the package sends each only
    // when told the server takes it.
    const structured = () =>
      line
        .createOpenAICompatible({
          name: 'haggle-serve',
          baseURL: served().url,
          supportsStructuredOutputs: true,
          includeUsage: true,
        })
        .chatModel(served().model);

    it(`with supportsStructuredOutputs: fromLanguageModel plays ${line.structuredSessions} sessions in JSON-schema mode, 0 illegal turns`, {
      timeout: 600_000,
    }, async () => {
      const { warnings } = await playSelfSessions(structured(), line.structuredSessions, 12);
      expect(warnings.some((w) => 'message' in w && /tool/.test(w.message))).toBe(false);
    });

    it(`streamText from ${line.label} reads the server stream chunk by chunk`, {
      timeout: 120_000,
    }, async () => {
      const result = line.streamText({
        model: structured(),
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
}
