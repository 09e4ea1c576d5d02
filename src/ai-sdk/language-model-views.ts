import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import {
  mapStream,
  v3ContentOf,
  v3FinishReasonOf,
  v3PromptOf,
  v3StreamPartOf,
  v3WarningOf,
  v4ContentOf,
  v4PromptOf,
  v4StreamPartOf,
} from './spec-v3-parts.js';

/**
 * A specification-v4 model seen as v3, for `ai` 6 (which takes v3 models only; `ai` 7 takes both).
 * Calls come in as v3 and go to the model as v4; answers come back as v3, without the parts v3 has no
 * name for (spec-v3-parts.ts). `createHaggle` builds its models so.
 */
export function languageModelV3Of(model: LanguageModelV4): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
      const { structuredOutputText: _v4Only, ...result } = await model.doGenerate(v4CallOf(options));
      return {
        ...result,
        content: result.content.flatMap((part) => {
          const converted = v3ContentOf(part);
          return converted ? [converted] : ([] as LanguageModelV3Content[]);
        }),
        finishReason: v3FinishReasonOf(result.finishReason),
        warnings: result.warnings.map(v3WarningOf),
      };
    },
    async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
      const result = await model.doStream(v4CallOf(options));
      return { ...result, stream: mapStream(result.stream, v3StreamPartOf) };
    },
  };
}

/**
 * A specification-v3 model (`ai` 6's providers, e.g. `@ai-sdk/openai-compatible` 2) seen as v4, for
 * `fromLanguageModel`, which speaks v4: calls go to the model as v3, answers come back as v4.
 */
export function languageModelV4Of(model: LanguageModelV3): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
      const result = await model.doGenerate(v3CallOf(options));
      return { ...result, content: result.content.map(v4ContentOf) };
    },
    async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
      const result = await model.doStream(v3CallOf(options));
      return { ...result, stream: mapStream(result.stream, v4StreamPartOf) };
    },
  };
}

/** v3 call options as v4's: the prompt's files get v4's wrapper; every other option is the same. */
function v4CallOf(options: LanguageModelV3CallOptions): LanguageModelV4CallOptions {
  return { ...options, prompt: v4PromptOf(options.prompt) } as LanguageModelV4CallOptions;
}

/**
 * v4 call options as v3's. v3 has no `reasoning` option: it is left out (fromLanguageModel, the one
 * caller, never sets it).
 */
function v3CallOf(options: LanguageModelV4CallOptions): LanguageModelV3CallOptions {
  const { reasoning: _v4Only, ...rest } = options;
  return { ...rest, prompt: v3PromptOf(options.prompt) } as LanguageModelV3CallOptions;
}
