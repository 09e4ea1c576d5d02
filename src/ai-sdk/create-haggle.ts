import type { LanguageModelV3, ProviderV3, ProviderV4 } from '@ai-sdk/provider';
import type { ChatMessage, LanguageBackend } from '../backends/language-backend.js';
import { InvalidInputError } from '../contract/errors.js';
import { HaggleLanguageModel, type HaggleModelDefaults } from './haggle-language-model.js';
import { languageModelV3Of } from './language-model-views.js';

/** The AI SDK language model specifications `createHaggle` builds: v3 (`ai` 6 and 7) and v4 (`ai` 7). */
export type HaggleSpecificationVersion = 'v3' | 'v4';

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
  /**
   * The AI SDK language model specification the models implement. Default `v3`: the one both `ai` 6
   * (which takes v3 only) and `ai` 7 (which takes v3 and v4, reading v3 through its own adapter without
   * a warning) accept, so one model works whichever `ai` the app installed. `v4` gives `ai` 7's own
   * specification, for code typed for `LanguageModelV4`. haggle's choice: a model cannot see which
   * `ai` will call it, and a default that fails under one of them would fail most Node 20 users.
   */
  specificationVersion?: HaggleSpecificationVersion;
}

/**
 * A haggle backend as an AI SDK provider (specification v3, for `ai` 6 and 7): call it (or
 * `.languageModel()`) for the language model. The model id is the backend's; another id is refused,
 * since one provider serves one backend.
 */
export interface HaggleProvider extends ProviderV3 {
  (modelId?: string): LanguageModelV3;
  languageModel(modelId?: string): LanguageModelV3;
}

/** `createHaggle({ specificationVersion: 'v4' })`: the provider in `ai` 7's own specification. */
export interface HaggleProviderV4 extends ProviderV4 {
  (modelId?: string): HaggleLanguageModel;
  languageModel(modelId?: string): HaggleLanguageModel;
}

/**
 * An AI SDK provider over a haggle `LanguageBackend`: `generateText`, `streamText`, `generateObject` and
 * `streamObject` (with a zod or JSON schema) from `ai` 6 or 7 run on haggle's model (see
 * `specificationVersion`). With `OnnxBackend` the
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
export function createHaggle(options: CreateHaggleOptions & { specificationVersion: 'v4' }): HaggleProviderV4;
export function createHaggle(options: CreateHaggleOptions & { specificationVersion?: 'v3' }): HaggleProvider;
export function createHaggle(options: CreateHaggleOptions): HaggleProvider | HaggleProviderV4;
export function createHaggle(options: CreateHaggleOptions): HaggleProvider | HaggleProviderV4 {
  const backend = options?.backend;
  const version = options?.specificationVersion ?? 'v3';
  if (version !== 'v3' && version !== 'v4')
    throw new InvalidInputError({
      subject: 'createHaggle options',
      issues: [
        {
          path: 'specificationVersion',
          message: `must be "v3" (ai 6 and 7, the default) or "v4" (ai 7); got ${JSON.stringify(version)}`,
        },
      ],
    });
  if (typeof backend !== 'object' || backend === null || typeof backend.doGenerate !== 'function')
    throw new InvalidInputError({
      subject: 'createHaggle options',
      issues: [
        { path: 'backend', message: 'must be a haggle LanguageBackend, e.g. await OnnxBackend.load(folder)' },
      ],
    });
  const model = new HaggleLanguageModel(backend, {
    provider: options.name ?? 'haggle',
    ...(options.defaults ? { defaults: options.defaults } : {}),
    ...(options.renderPrompt ? { renderPrompt: options.renderPrompt } : {}),
  });
  const served = version === 'v3' ? languageModelV3Of(model) : model;
  const languageModel = (modelId?: string) => {
    if (modelId !== undefined && modelId !== backend.modelId)
      throw new InvalidInputError({
        subject: 'haggle model id',
        issues: [
          {
            path: 'modelId',
            message: `this provider serves "${backend.modelId}" only; call it with no id or that one`,
          },
        ],
      });
    return served;
  };
  const noOtherModels = (kind: string) => (): never => {
    throw new InvalidInputError({
      subject: `haggle ${kind}`,
      issues: [{ path: kind, message: 'haggle provides language models only' }],
    });
  };
  const provider = Object.assign((modelId?: string) => languageModel(modelId), {
    specificationVersion: version,
    languageModel,
    embeddingModel: noOtherModels('embeddingModel'),
    imageModel: noOtherModels('imageModel'),
  });
  return provider as HaggleProvider | HaggleProviderV4;
}
