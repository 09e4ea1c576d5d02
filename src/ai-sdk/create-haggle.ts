import type { ProviderV4 } from '@ai-sdk/provider';
import type { ChatMessage, LanguageBackend } from '../backends/language-backend.js';
import { InvalidInputError } from '../contract/errors.js';
import { HaggleLanguageModel, type HaggleModelDefaults } from './haggle-language-model.js';

/** Options of `createHaggle`. */
export interface CreateHaggleOptions {
  /** The backend that answers: the local `OnnxBackend` (constrained decoding), or any `LanguageBackend`. */
  backend: LanguageBackend;
  /** The provider name the AI SDK records (telemetry, `response.modelId`'s provider). Default `haggle`. */
  name?: string;
  /** Sampling a call gets when it sets none. */
  defaults?: HaggleModelDefaults;
  /**
   * The prompt string a local model reads, from the call's (sanitised) messages. Default: the
   * `qwen3_nothink` chat format, the one the card states for its 50k model. A chat endpoint
   * (`OpenAICompatibleBackend` with `endpoint: 'chat'`) reads the messages instead.
   */
  renderPrompt?: (messages: readonly ChatMessage[]) => string;
}

/**
 * A haggle backend as an AI SDK provider: call it (or `.languageModel()`) for the language model.
 * The model id is the backend's; another id is refused, since one provider serves one backend.
 */
export interface HaggleProvider extends ProviderV4 {
  (modelId?: string): HaggleLanguageModel;
  languageModel(modelId?: string): HaggleLanguageModel;
}

/**
 * An AI SDK provider over a haggle `LanguageBackend`: `generateText`, `streamText`, `generateObject` and
 * `streamObject` (with a zod or JSON schema) from `ai` run on haggle's model. With `OnnxBackend` the
 * object is decoded under the schema token by token, so it is valid by construction, which hosted JSON
 * modes do not promise. `providerOptions.haggle` takes a seed and sampling settings.
 *
 * @example
 * ```ts
 * import { generateObject } from 'ai';
 * import { z } from 'zod';
 * import { createHaggle } from 'haggle/ai-sdk';
 * import { OnnxBackend } from 'haggle/onnx';
 *
 * const haggle = createHaggle({ backend: await OnnxBackend.load('./qwen3-4b-negotiation-onnx') });
 * const { object } = await generateObject({
 *   model: haggle(),
 *   schema: z.object({ price: z.number().min(40).max(60), note: z.string() }),
 *   prompt: 'Counter the buyer who offered 35.',
 *   providerOptions: { haggle: { seed: 7 } },
 * });
 * ```
 * @see The guide: [The AI SDK both ways](../../docs/ai-sdk.md).
 */
export function createHaggle(options: CreateHaggleOptions): HaggleProvider {
  const backend = options?.backend;
  if (typeof backend !== 'object' || backend === null || typeof backend.doGenerate !== 'function')
    throw new InvalidInputError('createHaggle options', [
      { path: 'backend', message: 'must be a haggle LanguageBackend, e.g. await OnnxBackend.load(folder)' },
    ]);
  const model = new HaggleLanguageModel(backend, {
    provider: options.name ?? 'haggle',
    ...(options.defaults ? { defaults: options.defaults } : {}),
    ...(options.renderPrompt ? { renderPrompt: options.renderPrompt } : {}),
  });
  const languageModel = (modelId?: string): HaggleLanguageModel => {
    if (modelId !== undefined && modelId !== backend.modelId)
      throw new InvalidInputError('haggle model id', [
        {
          path: 'modelId',
          message: `this provider serves "${backend.modelId}" only; call it with no id or that one`,
        },
      ]);
    return model;
  };
  const noOtherModels = (kind: string) => (): never => {
    throw new InvalidInputError(`haggle ${kind}`, [
      { path: kind, message: 'haggle provides language models only' },
    ]);
  };
  const provider = Object.assign((modelId?: string) => languageModel(modelId), {
    specificationVersion: 'v4' as const,
    languageModel,
    embeddingModel: noOtherModels('embeddingModel'),
    imageModel: noOtherModels('imageModel'),
  });
  return provider;
}
