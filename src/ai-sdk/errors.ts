import { HaggleError } from '../contract/errors.js';

/**
 * A model of a specification `fromLanguageModel` does not speak. It speaks v3 (`ai` 6, `@ai-sdk/provider`
 * 3, and the provider packages of that line such as `@ai-sdk/openai` 3 and `@ai-sdk/openai-compatible`
 * 2) and v4 (`ai` 7, `@ai-sdk/provider` 4, `@ai-sdk/openai` 4, `@ai-sdk/openai-compatible` 3).
 */
export class UnsupportedLanguageModelError extends HaggleError {
  static override readonly marker: string = 'haggle.error.UnsupportedLanguageModelError';
  /** The `specificationVersion` the model declared, if any. */
  readonly specificationVersion: unknown;

  constructor(specificationVersion: unknown) {
    super({
      code: 'unsupported-language-model',
      message:
        'fromLanguageModel takes an AI SDK language model of specification "v3" (ai 6: @ai-sdk/provider 3, ' +
        '@ai-sdk/openai 3, @ai-sdk/openai-compatible 2) or "v4" (ai 7: @ai-sdk/provider 4, @ai-sdk/openai 4, ' +
        `@ai-sdk/openai-compatible 3); this one declares ${JSON.stringify(specificationVersion ?? null)}. ` +
        (specificationVersion === 'v2' || specificationVersion === 'v1'
          ? 'Upgrade its provider package to the ai 6 line (npm install ai@6 @ai-sdk/<provider>@<its ai 6 major>, ' +
            'which runs on Node 20) or the ai 7 line (Node 22).'
          : 'Pass the model a provider package creates (provider(modelId) or provider.chatModel(modelId)).'),
    });
    this.name = 'UnsupportedLanguageModelError';
    this.specificationVersion = specificationVersion;
  }
}
