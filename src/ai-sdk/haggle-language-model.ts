import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type {
  ChatMessage,
  GenerateOptions,
  LanguageBackend,
  ResponseFormat,
} from '../backends/language-backend.js';
import { streamGenerate } from '../backends/stream-generate.js';
import type { JsonSchema } from '../contract/json-schema.js';
import { renderQwen3NoThink } from '../prompt/qwen3-chat-format.js';
import { parseHaggleCallSettings } from './haggle-call-settings.js';
import { specFinishOf, specUsageOf, specWarningOf } from './spec-conversions.js';
import { chatMessagesOf } from './spec-prompt.js';
import { specStreamOf } from './spec-stream.js';

/** Settings a haggle model applies to every call unless the call sets them. */
export interface HaggleModelDefaults {
  temperature?: number;
  topP?: number;
  topK?: number;
  /** Tokens an answer may take when the call gives no `maxOutputTokens`. Default: the backend's. */
  maxOutputTokens?: number;
}

/**
 * An AI SDK language model (specification v4) that runs a haggle `LanguageBackend`: with the local
 * `OnnxBackend`, a JSON answer (`generateObject`, `streamObject`, `Output.object`) is decoded under its
 * schema token by token, so it is an instance of the schema by construction. Built by `createHaggle`.
 */
export class HaggleLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4' as const;
  readonly provider: string;
  readonly modelId: string;
  /** haggle models read text only: no URL is fetched by the model itself. */
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #backend: LanguageBackend;
  readonly #defaults: HaggleModelDefaults;
  readonly #renderPrompt: (messages: readonly ChatMessage[]) => string;

  constructor(
    backend: LanguageBackend,
    options: {
      provider?: string;
      defaults?: HaggleModelDefaults;
      renderPrompt?: (messages: readonly ChatMessage[]) => string;
    } = {},
  ) {
    this.#backend = backend;
    this.provider = options.provider ?? 'haggle';
    this.modelId = backend.modelId;
    this.#defaults = options.defaults ?? {};
    this.#renderPrompt = options.renderPrompt ?? renderQwen3NoThink;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { request, warnings } = this.#request(options);
    const result = await this.#backend.doGenerate(request);
    const choice = result.choices[0];
    const text = choice?.text ?? '';
    return {
      content: text === '' ? [] : [{ type: 'text', text }],
      finishReason: specFinishOf(choice?.finishReason ?? 'other'),
      usage: specUsageOf(result.usage),
      warnings: [...warnings, ...result.warnings.map(specWarningOf)],
      request: {
        body: { backend: this.#backend.provider, responseFormat: request.responseFormat?.type ?? 'text' },
      },
      response: {
        ...(result.response?.id !== undefined ? { id: result.response.id } : {}),
        modelId: result.response?.modelId ?? this.modelId,
        timestamp: new Date(),
      },
    };
  }

  /**
   * The answer through the spec's stream parts, forwarded as the backend writes them (`OnnxBackend`
   * hands out each decoding step's text; a backend without `doStream` answers in one delta). A backend
   * `reset` is mapped as `specStreamOf` says: text already seen is never repeated, and a retry that
   * changes it ends the stream with a retryable `BackendError`.
   */
  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { request, warnings } = this.#request(options);
    const stream = specStreamOf(streamGenerate(this.#backend, request), {
      warnings,
      modelId: this.modelId,
      backend: this.#backend.provider,
    });
    return {
      stream,
      request: {
        body: { backend: this.#backend.provider, responseFormat: request.responseFormat?.type ?? 'text' },
      },
    };
  }

  /** haggle's options for an AI SDK call, with warnings for each setting the backend cannot take. */
  #request(options: LanguageModelV4CallOptions): { request: GenerateOptions; warnings: SharedV4Warning[] } {
    const settings = parseHaggleCallSettings(options.providerOptions?.haggle);
    const { messages, warnings } = chatMessagesOf(options.prompt);
    for (const feature of ['presencePenalty', 'frequencyPenalty'] as const)
      if (options[feature] !== undefined) warnings.push({ type: 'unsupported', feature });
    if (
      options.reasoning !== undefined &&
      options.reasoning !== 'provider-default' &&
      options.reasoning !== 'none'
    )
      warnings.push({
        type: 'unsupported',
        feature: 'reasoning',
        details: 'haggle models answer without thinking',
      });
    if (options.tools !== undefined && options.tools.length > 0 && options.toolChoice?.type !== 'none')
      warnings.push({
        type: 'unsupported',
        feature: 'tools',
        details: 'haggle models answer in text or JSON; use generateObject or Output.object for structure',
      });
    const temperature = settings.temperature ?? options.temperature ?? this.#defaults.temperature;
    const topP = settings.topP ?? options.topP ?? this.#defaults.topP;
    const topK = settings.topK ?? options.topK ?? this.#defaults.topK;
    const seed = settings.seed ?? options.seed;
    const maxTokens = options.maxOutputTokens ?? this.#defaults.maxOutputTokens;
    const request: GenerateOptions = {
      prompt: { messages, text: this.#renderPrompt(messages) },
      ...(temperature !== undefined ? { temperature } : {}),
      ...(topP !== undefined ? { topP } : {}),
      ...(topK !== undefined ? { topK } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(options.stopSequences && options.stopSequences.length > 0 ? { stop: options.stopSequences } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    };
    const format = responseFormatOf(options.responseFormat);
    if (format) request.responseFormat = format;
    return { request, warnings };
  }
}

/**
 * The AI SDK's response format as haggle's: JSON without a schema (`generateObject` with
 * `output: 'no-schema'`) is any JSON value, which the decoder enforces as the empty schema.
 */
function responseFormatOf(format: LanguageModelV4CallOptions['responseFormat']): ResponseFormat | undefined {
  if (format?.type !== 'json') return undefined;
  return {
    type: 'json',
    schema: (format.schema ?? {}) as JsonSchema,
    ...(format.name !== undefined ? { name: format.name } : {}),
  };
}
