import type {
  LanguageModelV3,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type {
  BackendDescription,
  BackendStreamPart,
  BackendWarning,
  GenerateChoice,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
  Usage,
} from '../backends/language-backend.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../backends/openai/response-limit.js';
import { backoffDelay, DEFAULT_RETRY_POLICY } from '../backends/openai/retry-policy.js';
import { Semaphore } from '../backends/openai/semaphore.js';
import { sleep } from '../backends/openai/sleep.js';
import { BackendError, HaggleAbortError, InvalidInputError, throwIfAborted } from '../contract/errors.js';
import { deriveSeed } from '../internal/random.js';
import { Redactor } from '../internal/redact.js';
import { UnsupportedLanguageModelError } from './errors.js';
import { languageModelV4Of } from './language-model-views.js';
import { backendFinishOf, backendUsageOf, backendWarningOf, specPromptOf } from './spec-conversions.js';
import {
  answerText,
  modeRefused,
  type StructuredOutputMode,
  structuredCall,
  type UsedMode,
} from './structured-output.js';

/** Options of `fromLanguageModel`. */
export interface FromLanguageModelOptions {
  /**
   * How JSON answers are asked for (see `StructuredOutputMode`). Default `auto`: the provider's
   * JSON-schema mode, stepping down to a forced tool call, then to JSON in text, when the provider warns
   * that it cannot honour the step above. Every result's warnings say which was used.
   */
  structuredOutput?: StructuredOutputMode;
  /**
   * Longest answer accepted, in characters; a longer one fails the call with a `BackendError`. Default
   * 16 Mi, as `OpenAICompatibleBackend`'s `maxResponseBytes` (the provider package reads the HTTP body
   * itself, so the cap applies to the text it hands over).
   */
  maxResponseChars?: number;
  /**
   * Credentials to keep out of everything this backend returns or throws (answers, error messages,
   * warnings): the API key the provider was created with. haggle's experiment files pass the key they read.
   */
  secrets?: readonly string[];
  /** Calls in flight at once; more wait in a queue. Default 64 (as `concurrencyPerEndpoint`). */
  maxConcurrency?: number;
  /** Retries of a call that failed with a retryable error (429, 5xx, a reset). Default 4, with backoff. */
  maxRetries?: number;
  /** Provider options sent with every call (merged under each call's own `providerOptions`). */
  providerOptions?: SharedV4ProviderOptions;
  /** HTTP headers sent with every call, for HTTP-based providers. */
  headers?: Record<string, string>;
}

/** Default calls in flight per backend. haggle's choice, equal to the experiment files' `concurrencyPerEndpoint`. */
const DEFAULT_CONCURRENCY = 64;

/**
 * A `LanguageBackend` over an AI SDK language model of specification v3 (`ai` 6 and its `@ai-sdk/*`
 * provider packages) or v4 (`ai` 7 and its packages); a v3 model is read through `languageModelV4Of`.
 * Built by `fromLanguageModel`.
 */
export class AiSdkBackend implements LanguageBackend {
  readonly specificationVersion = 'v1' as const;
  readonly provider: string;
  readonly modelId: string;
  readonly #model: LanguageModelV4;
  /** The specification the given model declared (`v3` models are called through a v4 view). */
  readonly #specificationVersion: 'v3' | 'v4';
  readonly #options: Required<Omit<FromLanguageModelOptions, 'providerOptions' | 'headers' | 'secrets'>> &
    Pick<FromLanguageModelOptions, 'providerOptions' | 'headers'>;
  readonly #redactor: Redactor;
  readonly #outputRedactor: Redactor;
  readonly #secretRedactor: Redactor;
  readonly #hasSecrets: boolean;
  readonly #slots: Semaphore;
  /** What `auto` settled on for this model, once a provider refused a mode. */
  #mode: UsedMode | undefined;

  constructor(model: LanguageModelV4 | LanguageModelV3, options: FromLanguageModelOptions = {}) {
    const declared = (model as { specificationVersion?: unknown } | null)?.specificationVersion;
    if (typeof model !== 'object' || model === null || (declared !== 'v4' && declared !== 'v3'))
      throw new UnsupportedLanguageModelError(declared);
    const issues = [];
    const maxResponseChars = options.maxResponseChars ?? DEFAULT_MAX_RESPONSE_BYTES;
    const maxConcurrency = options.maxConcurrency ?? DEFAULT_CONCURRENCY;
    const maxRetries = options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries;
    if (!Number.isInteger(maxResponseChars) || maxResponseChars < 1)
      issues.push({ path: 'maxResponseChars', message: 'must be a positive integer' });
    if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1)
      issues.push({ path: 'maxConcurrency', message: 'must be a positive integer' });
    if (!Number.isInteger(maxRetries) || maxRetries < 0)
      issues.push({ path: 'maxRetries', message: 'must be an integer of 0 or more' });
    const mode = options.structuredOutput ?? 'auto';
    if (!['auto', 'json-schema', 'tool', 'text'].includes(mode))
      issues.push({ path: 'structuredOutput', message: 'must be one of auto, json-schema, tool, text' });
    if (issues.length > 0) throw new InvalidInputError({ subject: 'fromLanguageModel options', issues });
    this.#specificationVersion = model.specificationVersion;
    this.#model = model.specificationVersion === 'v3' ? languageModelV4Of(model) : model;
    this.provider = `ai-sdk:${model.provider}`;
    this.modelId = model.modelId;
    this.#options = {
      structuredOutput: mode,
      maxResponseChars,
      maxConcurrency,
      maxRetries,
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    };
    const secrets = [...(options.secrets ?? []), ...Object.values(options.headers ?? {})];
    this.#redactor = new Redactor(secrets);
    // As OpenAICompatibleBackend: answers lose only the given credentials, and only long ones.
    this.#outputRedactor = new Redactor(
      secrets.filter((secret) => secret.length >= 8),
      { shapes: false },
    );
    this.#secretRedactor = new Redactor(secrets, { shapes: false });
    this.#hasSecrets = secrets.length > 0;
    this.#slots = new Semaphore(maxConcurrency);
  }

  describe(): BackendDescription {
    return {
      provider: this.provider,
      modelId: this.modelId,
      aiSdkProvider: this.#model.provider,
      specificationVersion: this.#specificationVersion,
      structuredOutput: this.#options.structuredOutput,
    };
  }

  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    throwIfAborted(options.abortSignal);
    const n = options.n ?? 1;
    const warnings: BackendWarning[] = [];
    if (n > 1)
      warnings.push({
        type: 'other',
        message: `the AI SDK asks for one answer per call: n=${n} became ${n} parallel calls`,
      });
    const answers = await Promise.all(
      Array.from({ length: n }, (_, index) => {
        const seed =
          options.seed === undefined
            ? undefined
            : index === 0
              ? options.seed
              : deriveSeed(options.seed, index);
        return this.#answer(options, seed);
      }),
    );
    const usage: Usage = { promptTokens: 0, completionTokens: 0 };
    for (const answer of answers) {
      for (const warning of answer.warnings)
        if (!warnings.some((seen) => JSON.stringify(seen) === JSON.stringify(warning)))
          warnings.push(warning);
      usage.promptTokens += answer.usage.promptTokens;
      usage.completionTokens += answer.usage.completionTokens;
      if (answer.usage.cachedPromptTokens !== undefined)
        usage.cachedPromptTokens = (usage.cachedPromptTokens ?? 0) + answer.usage.cachedPromptTokens;
    }
    const first = answers[0]?.response;
    return {
      choices: answers.map((answer) => answer.choice),
      usage,
      warnings,
      response: {
        ...(first?.id !== undefined ? { id: first.id } : {}),
        modelId: first?.modelId ?? this.modelId,
      },
    };
  }

  /**
   * `LanguageBackend.doStream`: the answer's text deltas as the provider writes them (choice 0), then a
   * `finish` part whose result is what `doGenerate` would return. Structured output as in `doGenerate`
   * except `tool` mode, whose deltas are the tool input's. With `n` > 1 the calls run as in
   * `doGenerate` and each choice's text is handed out whole when they are done (haggle's choice: the
   * AI SDK's streams carry one answer each).
   */
  async *doStream(options: GenerateOptions): AsyncGenerator<BackendStreamPart> {
    throwIfAborted(options.abortSignal);
    if ((options.n ?? 1) > 1) {
      const result = await this.doGenerate(options);
      for (const [index, choice] of result.choices.entries())
        if (choice.text !== '') yield { type: 'text-delta', index, delta: choice.text };
      yield { type: 'finish', result };
      return;
    }
    const release = await this.#slots.acquire(options.abortSignal);
    try {
      const { call, mode, warnings } = this.#call(options, options.seed, this.#mode ?? 'json-schema');
      const { stream } = await this.#guard(() => this.#model.doStream(call), options.abortSignal);
      let length = 0;
      let text = '';
      let finishReason: GenerateChoice['finishReason'] = 'other';
      let usage: Usage = { promptTokens: 0, completionTokens: 0 };
      const reader = stream.getReader();
      try {
        for (;;) {
          const { done, value: part } = await this.#guard(() => reader.read(), options.abortSignal);
          if (done) break;
          if (part.type === 'stream-start') warnings.push(...part.warnings.map(backendWarningOf));
          else if (part.type === 'error') throw this.#failure(part.error);
          else if (part.type === 'finish') {
            finishReason = backendFinishOf(part.finishReason);
            usage = backendUsageOf(part.usage);
          } else if (
            (part.type === 'text-delta' && mode !== 'tool') ||
            (part.type === 'tool-input-delta' && mode === 'tool')
          ) {
            length += part.delta.length;
            if (length > this.#options.maxResponseChars) throw this.#tooLarge(length);
            const delta = this.#outputRedactor.text(part.delta);
            text += delta;
            yield { type: 'text-delta', index: 0, delta };
          }
        }
      } finally {
        reader.releaseLock();
      }
      yield {
        type: 'finish',
        result: {
          choices: [{ text, finishReason }],
          usage,
          warnings: warnings.map((w) => this.#redactWarning(w)),
        },
      };
    } finally {
      release();
    }
  }

  /** One answer: a call in the settled mode, stepping down while `auto` and the provider refuses. */
  async #answer(
    options: GenerateOptions,
    seed: number | undefined,
  ): Promise<{
    choice: GenerateChoice;
    usage: Usage;
    warnings: BackendWarning[];
    response: { id?: string; modelId?: string };
  }> {
    const release = await this.#slots.acquire(options.abortSignal);
    try {
      let attemptMode: UsedMode = this.#mode ?? 'json-schema';
      for (;;) {
        const { call, mode, warnings } = this.#call(options, seed, attemptMode);
        const result = await this.#withRetries(() => this.#model.doGenerate(call), options.abortSignal);
        if (
          mode !== 'plain' &&
          mode !== 'text' &&
          this.#options.structuredOutput === 'auto' &&
          modeRefused(mode, result.warnings)
        ) {
          // The provider cannot honour this mode: step down, and remember it for the calls after.
          attemptMode = mode === 'json-schema' ? 'tool' : 'text';
          this.#mode = attemptMode;
          continue;
        }
        const text = answerText(result, mode);
        if (text.length > this.#options.maxResponseChars) throw this.#tooLarge(text.length);
        warnings.push(...result.warnings.map(backendWarningOf));
        return {
          choice: {
            text: this.#outputRedactor.text(text),
            finishReason: backendFinishOf(result.finishReason),
          },
          usage: backendUsageOf(result.usage),
          warnings: warnings.map((w) => this.#redactWarning(w)),
          response: {
            ...(result.response?.id !== undefined ? { id: result.response.id } : {}),
            ...(result.response?.modelId !== undefined ? { modelId: result.response.modelId } : {}),
          },
        };
      }
    } finally {
      release();
    }
  }

  /** The spec call for haggle's options in `mode`, with the warnings about what did not map. */
  #call(
    options: GenerateOptions,
    seed: number | undefined,
    mode: UsedMode,
  ): { call: LanguageModelV4CallOptions; mode: UsedMode | 'plain'; warnings: BackendWarning[] } {
    const warnings: BackendWarning[] = [];
    const providerOptions = mergeProviderOptions(this.#options.providerOptions, options.providerOptions);
    const base: LanguageModelV4CallOptions = {
      prompt: specPromptOf(options.prompt.messages),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.topP !== undefined ? { topP: options.topP } : {}),
      ...(options.topK !== undefined ? { topK: options.topK } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(options.maxTokens !== undefined ? { maxOutputTokens: options.maxTokens } : {}),
      ...(options.stop && options.stop.length > 0 ? { stopSequences: options.stop } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      ...(this.#options.headers ? { headers: this.#options.headers } : {}),
      ...(providerOptions ? { providerOptions } : {}),
    };
    const format = options.responseFormat;
    if (format?.type !== 'json') return { call: base, mode: 'plain', warnings };
    const used: UsedMode = this.#options.structuredOutput === 'auto' ? mode : this.#options.structuredOutput;
    warnings.push({ type: 'other', message: MODE_NOTES[used] });
    return { call: structuredCall(base, used, format.schema, format.name), mode: used, warnings };
  }

  async #withRetries(
    run: () => PromiseLike<LanguageModelV4GenerateResult>,
    signal: AbortSignal | undefined,
  ): Promise<LanguageModelV4GenerateResult> {
    for (let retry = 0; ; retry++) {
      try {
        return await this.#guard(run, signal);
      } catch (error) {
        if (!(error instanceof BackendError) || !error.retryable || retry >= this.#options.maxRetries)
          throw error;
        await sleep(backoffDelay(DEFAULT_RETRY_POLICY, retry, Math.random), signal);
      }
    }
  }

  /** Runs a provider step; an abort becomes `HaggleAbortError`, any other failure a redacted `BackendError`. */
  async #guard<T>(run: () => PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (signal?.aborted) throw new HaggleAbortError(signal.reason);
      throw this.#failure(error);
    }
  }

  #failure(error: unknown): BackendError {
    if (error instanceof BackendError) return error;
    const details = error as {
      name?: unknown;
      message?: unknown;
      statusCode?: unknown;
      isRetryable?: unknown;
    };
    const status = typeof details.statusCode === 'number' ? details.statusCode : undefined;
    const name = typeof details.name === 'string' ? details.name : 'Error';
    const message = typeof details.message === 'string' ? details.message : String(error);
    // The provider's error is not kept as `cause`: its request and response records can hold headers.
    return new BackendError({
      message: this.#redactor.text(
        `${this.#model.provider} model ${this.modelId} failed (${name}${status !== undefined ? ` ${status}` : ''}): ${message}`,
      ),
      backend: this.provider,
      ...(status !== undefined ? { status } : {}),
      retryable: details.isRetryable === true,
    });
  }

  #tooLarge(length: number): BackendError {
    return new BackendError({
      message: `the ${this.#model.provider} model's answer reached ${length} characters, more than maxResponseChars (${this.#options.maxResponseChars}); raise maxResponseChars or lower maxTokens`,
      backend: this.provider,
    });
  }

  /**
   * A warning without the given credentials (a provider may quote a setting's value). Only given
   * secrets are looked for, not secret shapes: warnings come on every call, and haggle's own ones quote
   * nothing; with no secret given there is nothing to look for.
   */
  #redactWarning(warning: BackendWarning): BackendWarning {
    if (!this.#hasSecrets) return warning;
    return Object.fromEntries(
      Object.entries(warning).map(([key, value]) => [
        key,
        typeof value === 'string' ? this.#secretRedactor.text(value) : value,
      ]),
    ) as BackendWarning;
  }
}

/** What each mode's warning says: every JSON call tells the caller how its structure was asked for. */
const MODE_NOTES: Record<UsedMode, string> = {
  'json-schema':
    "structured output through the provider's JSON-schema mode (responseFormat json with a schema)",
  tool: 'structured output through a forced tool call (the provider has no JSON-schema mode)',
  text: 'structured output as JSON in text: the schema is in the prompt and nothing enforces it (the agent validates and re-asks)',
};

function mergeProviderOptions(
  base: SharedV4ProviderOptions | undefined,
  call: Record<string, Record<string, unknown>> | undefined,
): SharedV4ProviderOptions | undefined {
  if (!base && !call) return undefined;
  const merged: SharedV4ProviderOptions = { ...(base ?? {}) };
  for (const [provider, values] of Object.entries(call ?? {}))
    merged[provider] = { ...(merged[provider] ?? {}), ...(values as SharedV4ProviderOptions[string]) };
  return merged;
}

/**
 * Any AI SDK language model (specification v3 from `ai` 6's provider packages, or v4 from `ai` 7's) as
 * a haggle `LanguageBackend`: a hosted frontier model
 * through its own provider package (`@ai-sdk/anthropic`, `@ai-sdk/google`, `@ai-sdk/mistral`, ...), kept
 * to the turn's JSON Schema by the provider's structured output where it has one. `NegotiationAgent`
 * validates every answer and re-asks, as with every backend.
 *
 * @example
 * ```ts
 * import { createOpenAI } from '@ai-sdk/openai'; // or @ai-sdk/anthropic, @ai-sdk/google, ...
 * import { NegotiationAgent } from 'haggle';
 * import { fromLanguageModel } from 'haggle/ai-sdk';
 *
 * const apiKey = process.env.OPENAI_API_KEY ?? '';
 * const backend = fromLanguageModel(createOpenAI({ apiKey })('gpt-4.1'), { secrets: [apiKey] });
 * const buyer = new NegotiationAgent({ backend, sampling: { temperature: 1.0, seed: 7 } });
 * ```
 * @see The guide: [The AI SDK both ways](../../docs/ai-sdk.md).
 */
export function fromLanguageModel(
  model: LanguageModelV4 | LanguageModelV3,
  options: FromLanguageModelOptions = {},
): AiSdkBackend {
  return new AiSdkBackend(model, options);
}
