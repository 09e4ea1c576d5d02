import { HaggleAbortError, InvalidInputError, throwIfAborted } from '../../contract/errors.js';
import { deriveSeed } from '../../internal/random.js';
import { Redactor } from '../../internal/redact.js';
import { urlCredentials } from '../../internal/redact-url.js';
import {
  CrossOriginRequestError,
  httpStatusError,
  InvalidResponseError,
  type RemoteBackendError,
  RemoteConnectionError,
  RemoteTimeoutError,
  ResponseTooLargeError,
} from '../errors.js';
import type {
  BackendDescription,
  BackendStreamPart,
  BackendWarning,
  GenerateChoice,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
  Usage,
} from '../language-backend.js';
import { suggestedBaseURL } from './base-url-hint.js';
import { DIALECTS, type Dialect, type DialectName, type Endpoint } from './dialect.js';
import { createFetchTransport } from './fetch-transport.js';
import { type AttemptFailure, attemptRequest } from './http-attempt.js';
import type { HttpTransport } from './node-transport.js';
import {
  type OpenAICompatibleBackendOptions,
  type ResolvedBackendOptions,
  resolveBackendOptions,
} from './openai-options.js';
import { cleanOutputText } from './output-cleaning.js';
import { endpointUrl, type Replica, ReplicaPool } from './replica-pool.js';
import { buildRequestBody } from './request-body.js';
import { type ParsedResponse, parseCompletionResponse } from './response-parsing.js';
import { backoffDelay } from './retry-policy.js';
import { sleep } from './sleep.js';
import { streamAttempt } from './stream-attempt.js';
import { StreamRedaction } from './stream-redaction.js';
import { createFetchStreamTransport, type HttpStreamTransport } from './stream-transport.js';

/**
 * Plain data about the backend for run records and logs. Holds no credential: replica URLs lose their
 * user:password and their whole query (gateways take keys as `?api-key=`), and headers are left out.
 */
export interface OpenAICompatibleBackendDescription extends BackendDescription {
  provider: 'openai-compatible';
  modelId: string;
  dialect: DialectName;
  endpoint: Endpoint;
  /** Passed to the server's chat template (Qwen3's `enable_thinking`); null when the dialect sends none. */
  chatTemplateKwargs: Record<string, unknown> | null;
  /** Whether output text is cleaned of stray chat-template tokens before parsing. */
  cleanOutput: boolean;
  location: { replicas: string[] };
}

/**
 * A `LanguageBackend` for any OpenAI-compatible server: vLLM, SGLang, llama.cpp's server, OpenAI
 * itself, or `haggle serve`. Asks for structured output in the server's dialect, retries what a
 * network breaks (with backoff, jitter and `retry-after`), keeps each replica under its concurrency
 * limit, and cancels the HTTP request when the caller's signal fires. Posts through the runtime's
 * `fetch` (browsers, Deno, Bun, edge runtimes); under Node, `haggle` resolves to a build whose
 * `OpenAICompatibleBackend` posts through `node:http` instead (Node 20's `fetch` costs about 10x the CPU
 * per request). A `fetch` passed in the options is used everywhere. No runtime dependency.
 *
 * @example
 * ```ts
 * import { NegotiationAgent, OpenAICompatibleBackend } from 'haggle';
 *
 * // vLLM serving the LoRA adapter, or `haggle serve` on a GPU machine.
 * const backend = new OpenAICompatibleBackend({
 *   baseURL: 'http://localhost:8000/v1',
 *   model: 'qwen3-4b-negotiation',
 *   apiKey: process.env.VLLM_API_KEY,
 * });
 * const agent = new NegotiationAgent({ backend, sampling: { temperature: 1.0, seed: 7 } });
 * const turn = await agent.predict({ context, history, role: 'buyer' }, { signal });
 * ```
 * @see The guide: [Remote backend and haggle serve](../../../docs/remote.md).
 */
export class OpenAICompatibleBackend implements LanguageBackend {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'openai-compatible';
  readonly modelId: string;
  readonly dialect: DialectName;
  readonly endpoint: Endpoint;
  // A private field, not a property: JSON.stringify, spreading and console.log never see it.
  readonly #apiKey: string | undefined;
  readonly #options: ResolvedBackendOptions;
  readonly #pool: ReplicaPool;
  readonly #redactor: Redactor;
  /** For model output: only the credentials themselves, and only long ones (see the constructor). */
  readonly #outputRedactor: Redactor;
  readonly #transport: HttpTransport;
  readonly #streamTransport: HttpStreamTransport;
  /** Length of the longest secret `#outputRedactor` removes (0: none), for streamed text. */
  readonly #longestOutputSecret: number;

  constructor(options: OpenAICompatibleBackendOptions) {
    const resolved = resolveBackendOptions(options);
    this.#options = resolved;
    this.#apiKey = resolved.apiKey;
    this.modelId = resolved.model;
    this.dialect = resolved.dialect;
    this.endpoint = resolved.endpoint;
    this.#pool = new ReplicaPool(resolved.baseURLs, resolved.maxConcurrencyPerReplica);
    this.#transport = resolved.fetch
      ? createFetchTransport(resolved.fetch)
      : this.defaultTransport(resolved.maxConcurrencyPerReplica * resolved.baseURLs.length);
    // Everything this backend says (errors, log lines, warnings, its description) passes through here.
    this.#redactor = new Redactor([
      ...(resolved.apiKey ? [resolved.apiKey] : []),
      ...Object.values(resolved.headers),
      ...resolved.baseURLs.flatMap(urlCredentials),
    ]);
    // A hostile server can also put the key in the answer itself, which the agent records (as a turn's
    // message, or in the error of an invalid turn). Answers lose the key, header values and URL
    // passwords, when 8 characters or longer: a short query value (`?v=true`) must not touch the JSON.
    const passwords = resolved.baseURLs.flatMap((url) => {
      try {
        return [decodeURIComponent(new URL(url).password)];
      } catch {
        return [];
      }
    });
    const outputSecrets = [
      ...(resolved.apiKey ? [resolved.apiKey] : []),
      ...Object.values(resolved.headers),
      ...passwords,
    ].filter((secret) => secret.length >= 8);
    this.#outputRedactor = new Redactor(outputSecrets, { shapes: false });
    this.#longestOutputSecret = Math.max(0, ...outputSecrets.map((secret) => secret.length));
    this.#streamTransport = resolved.fetch
      ? createFetchStreamTransport(resolved.fetch)
      : this.defaultStreamTransport(resolved.maxConcurrencyPerReplica * resolved.baseURLs.length);
  }

  /**
   * The streaming transport used when no `fetch` is passed: the runtime's `fetch`, looked up at each
   * call. The Node build overrides this with `node:http`.
   * @internal
   */
  protected defaultStreamTransport(_maxSockets: number): HttpStreamTransport {
    return createFetchStreamTransport((input, init) => {
      if (typeof globalThis.fetch !== 'function') {
        throw new InvalidInputError({
          subject: 'OpenAICompatibleBackend options',
          issues: [
            {
              path: 'fetch',
              message: 'this runtime has no global fetch: pass one as `fetch` (for example from undici)',
            },
          ],
        });
      }
      return globalThis.fetch(input, init);
    });
  }

  /**
   * The transport used when no `fetch` is passed: the runtime's global `fetch`, looked up at each call
   * (so a runtime or test that swaps it is honoured). The Node build overrides this with `node:http`.
   * @internal
   */
  protected defaultTransport(_maxSockets: number): HttpTransport {
    if (typeof globalThis.fetch !== 'function') {
      throw new InvalidInputError({
        subject: 'OpenAICompatibleBackend options',
        issues: [
          {
            path: 'fetch',
            message: 'this runtime has no global fetch: pass one as `fetch` (for example from undici)',
          },
        ],
      });
    }
    return createFetchTransport((input, init) => globalThis.fetch(input, init));
  }

  /** Replica URLs as errors show them: without credentials. */
  get replicas(): string[] {
    return this.#pool.replicas.map((replica) => this.#redactor.text(replica.label));
  }

  describe(): OpenAICompatibleBackendDescription {
    return {
      provider: this.provider,
      modelId: this.modelId,
      dialect: this.dialect,
      endpoint: this.endpoint,
      chatTemplateKwargs: this.#options.chatTemplateKwargs,
      cleanOutput: this.#options.cleanOutput,
      location: { replicas: this.replicas },
    };
  }

  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    const signal = options.abortSignal;
    throwIfAborted(signal);
    const dialect = DIALECTS[this.dialect];
    const n = options.n ?? 1;
    const deadline = Date.now() + this.#options.totalTimeoutMs;
    const counts = splitChoices(n, dialect.maxChoicesPerRequest);
    const warnings: BackendWarning[] = [];
    if (counts.length > 1) {
      warnings.push({
        type: 'other',
        message: `the ${dialect.name} dialect takes at most ${dialect.maxChoicesPerRequest} choice(s) per request; n=${n} became ${counts.length} parallel requests`,
      });
    }

    // Parallel requests of one call share fate: the first failure cancels the rest.
    const group = new AbortController();
    const callSignal = signal ? linkSignals(signal, group.signal) : group.signal;
    try {
      const parts = await Promise.all(
        counts.map((count, index) => {
          const seed =
            options.seed === undefined
              ? undefined
              : index === 0
                ? options.seed
                : deriveSeed(options.seed, index);
          return this.#request(dialect, options, count, seed, deadline, callSignal).catch(
            (error: unknown) => {
              group.abort(error);
              throw error;
            },
          );
        }),
      );
      const choices: GenerateChoice[] = [];
      const usage: Usage = { promptTokens: 0, completionTokens: 0 };
      for (const part of parts) {
        for (const warning of part.warnings) {
          if (!warnings.some((seen) => JSON.stringify(seen) === JSON.stringify(warning)))
            warnings.push(warning);
        }
        for (const choice of part.response.choices) {
          const text = this.#options.cleanOutput ? cleanOutputText(choice.text) : choice.text;
          choices.push({ ...choice, text: this.#outputRedactor.text(text) });
        }
        usage.promptTokens += part.response.usage.promptTokens;
        usage.completionTokens += part.response.usage.completionTokens;
        const cached = part.response.usage.cachedPromptTokens;
        if (cached !== undefined) usage.cachedPromptTokens = (usage.cachedPromptTokens ?? 0) + cached;
      }
      const first = parts[0]?.response;
      return {
        choices,
        usage,
        warnings,
        response: {
          ...(first?.id !== undefined ? { id: first.id } : {}),
          modelId: first?.model ?? this.modelId,
        },
      };
    } catch (error) {
      if (signal?.aborted)
        throw error instanceof HaggleAbortError ? error : new HaggleAbortError(signal.reason);
      throw error;
    }
  }

  /**
   * The same request as `doGenerate` with `stream: true`: text deltas as the server's events arrive
   * (SSE read incrementally, under the same size limit, timeouts, retries and redaction), then the
   * whole result. A retry before the first delta is invisible; after it, a `reset` part comes first.
   * A call whose `n` the dialect splits over several requests is answered by `doGenerate`, one delta
   * per choice. Abandoning the iterable closes the connection.
   */
  async *doStream(options: GenerateOptions): AsyncGenerator<BackendStreamPart> {
    const signal = options.abortSignal;
    throwIfAborted(signal);
    const dialect = DIALECTS[this.dialect];
    const n = options.n ?? 1;
    if (n > dialect.maxChoicesPerRequest) {
      const result = await this.doGenerate(options);
      for (const [index, choice] of result.choices.entries())
        if (choice.text !== '') yield { type: 'text-delta', index, delta: choice.text };
      yield { type: 'finish', result };
      return;
    }
    // Our own controller as well as the caller's: abandoning the stream must close the connection.
    const abandoned = new AbortController();
    const callSignal = signal ? linkSignals(signal, abandoned.signal) : abandoned.signal;
    const deadline = Date.now() + this.#options.totalTimeoutMs;
    const planned = buildRequestBody({
      dialect,
      endpoint: this.endpoint,
      model: this.modelId,
      options,
      n,
      seed: options.seed,
      chatTemplateKwargs: this.#options.chatTemplateKwargs,
      stream: true,
    });
    const body = JSON.stringify(planned.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...this.#options.headers,
      ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}),
    };
    const failed = new Set<Replica>();
    let shown = false;
    try {
      for (let attempt = 1; ; attempt++) {
        const replica = this.#pool.pick(failed);
        const release = await this.#acquire(replica, callSignal, deadline, attempt);
        const redactions = Array.from(
          { length: n },
          () => new StreamRedaction(this.#outputRedactor, this.#longestOutputSecret),
        );
        let failure: AttemptFailure;
        const events = streamAttempt({
          url: endpointUrl(replica.baseURL, planned.path),
          headers,
          body,
          endpoint: planned.endpoint,
          n,
          timeoutMs: this.#options.timeoutMs,
          deadline,
          signal: callSignal,
          redactor: this.#redactor,
          transport: this.#streamTransport,
          maxResponseBytes: this.#options.maxResponseBytes,
        });
        try {
          let step = await events.next();
          for (; !step.done; step = await events.next()) {
            const delta = (redactions[step.value.index] as StreamRedaction).push(step.value.text);
            if (delta === '') continue;
            shown = true;
            yield { type: 'text-delta', index: step.value.index, delta };
          }
          const outcome = step.value;
          if (outcome.ok) {
            for (const [index, redaction] of redactions.entries()) {
              const tail = redaction.end();
              if (tail !== '') yield { type: 'text-delta', index, delta: tail };
            }
            const response = outcome.response;
            const choices = response.choices.map((choice) => {
              const text = this.#options.cleanOutput ? cleanOutputText(choice.text) : choice.text;
              return { ...choice, text: this.#outputRedactor.text(text) };
            });
            yield {
              type: 'finish',
              result: {
                choices,
                usage: response.usage,
                warnings: [...planned.warnings, ...outcome.serverWarnings],
                response: {
                  ...(response.id !== undefined ? { id: response.id } : {}),
                  modelId: response.model ?? this.modelId,
                },
              },
            };
            return;
          }
          failure = outcome.failure;
        } finally {
          release();
          // Abandoned mid-stream: the attempt's own `finally` closes the connection.
          await events.return(undefined as never).catch(() => undefined);
        }
        failed.add(replica);
        const delay = this.#retryDelay(failure, replica, planned.path, attempt, deadline);
        await sleep(delay, callSignal);
        if (shown) {
          // What was streamed is void: the next attempt starts the text again.
          shown = false;
          yield { type: 'reset' };
        }
      }
    } catch (error) {
      if (signal?.aborted)
        throw error instanceof HaggleAbortError ? error : new HaggleAbortError(signal.reason);
      throw error;
    } finally {
      abandoned.abort(new HaggleAbortError('the stream was abandoned'));
    }
  }

  /**
   * How long to wait before attempt `attempt + 1`, or the error to throw when the policy gives up:
   * not retryable, out of retries, a `retry-after` past `maxRetryAfterMs`, or past the total timeout.
   */
  #retryDelay(
    failure: AttemptFailure,
    replica: Replica,
    path: string,
    attempt: number,
    deadline: number,
  ): number {
    const { retry } = this.#options;
    const fail = (why?: string) => this.#error(failure, replica, path, attempt, why);
    if (!failure.retryable) throw fail();
    if (attempt > retry.maxRetries) throw fail();
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > retry.maxRetryAfterMs) {
      throw fail(`the server asked to wait ${failure.retryAfterMs} ms, more than maxRetryAfterMs`);
    }
    const delay = failure.retryAfterMs ?? backoffDelay(retry, attempt - 1, this.#options.random);
    if (Date.now() + delay >= deadline) throw fail('the total timeout leaves no time for another attempt');
    this.#options.logger?.warn(
      this.#redactor.text(
        `haggle: ${replica.label}${path} attempt ${attempt} failed (${failure.message}); retrying in ${delay} ms`,
      ),
    );
    return delay;
  }

  /** One logical request: attempts on replicas until one answers or the policy gives up. */
  async #request(
    dialect: Dialect,
    options: GenerateOptions,
    n: number,
    seed: number | undefined,
    deadline: number,
    signal: AbortSignal,
  ): Promise<{ response: ParsedResponse; warnings: BackendWarning[] }> {
    const planned = buildRequestBody({
      dialect,
      endpoint: this.endpoint,
      model: this.modelId,
      options,
      n,
      seed,
      chatTemplateKwargs: this.#options.chatTemplateKwargs,
    });
    const body = JSON.stringify(planned.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...this.#options.headers,
      ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}),
    };
    const failed = new Set<Replica>();

    for (let attempt = 1; ; attempt++) {
      const replica = this.#pool.pick(failed);
      const release = await this.#acquire(replica, signal, deadline, attempt);
      let failure: AttemptFailure;
      try {
        const result = await attemptRequest({
          url: endpointUrl(replica.baseURL, planned.path),
          headers,
          body,
          timeoutMs: this.#options.timeoutMs,
          deadline,
          signal,
          redactor: this.#redactor,
          transport: this.#transport,
          maxResponseBytes: this.#options.maxResponseBytes,
        });
        if (result.ok) {
          const parsed = parseCompletionResponse(result.json, planned.endpoint);
          if (typeof parsed !== 'string') {
            return { response: parsed, warnings: [...planned.warnings, ...result.serverWarnings] };
          }
          failure = { kind: 'invalid-response', retryable: true, message: parsed };
        } else {
          failure = result.failure;
        }
      } finally {
        release();
      }
      failed.add(replica);
      await sleep(this.#retryDelay(failure, replica, planned.path, attempt, deadline), signal);
    }
  }

  /** A slot on the replica, waiting no longer than the total timeout allows. */
  async #acquire(
    replica: Replica,
    signal: AbortSignal,
    deadline: number,
    attempt: number,
  ): Promise<() => void> {
    // The common case, a free slot, costs no controller and no timer.
    const free = signal.aborted ? undefined : replica.semaphore.tryAcquire();
    if (free) return free;
    const waiting = new AbortController();
    const onAbort = () => waiting.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => waiting.abort(new Error('deadline')), Math.max(0, deadline - Date.now()));
    try {
      return await replica.semaphore.acquire(waiting.signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new RemoteTimeoutError({
        message: `${replica.label}: the total timeout ran out while waiting for one of its ${replica.semaphore.limit} request slots (attempt ${attempt})`,
        backend: this.#name,
        replica: replica.label,
        kind: 'timeout',
        scope: 'total',
        retryable: false,
        attempts: attempt - 1,
      });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  #error(
    failure: AttemptFailure,
    replica: Replica,
    path: string,
    attempts: number,
    why: string | undefined,
  ): RemoteBackendError {
    const tail = why ? `; ${why}` : '';
    const suggested = failure.status === 404 ? suggestedBaseURL(replica.label) : undefined;
    const hint = suggested
      ? `; did you mean baseURL "${suggested}"? (haggle appends ${path} to the base URL, and OpenAI-compatible servers serve it under /v1)`
      : '';
    const message = `${replica.label}${path} failed after ${attempts} attempt(s): ${failure.message}${tail}${hint}`;
    const args = {
      message: this.#redactor.text(message),
      backend: this.#name,
      replica: replica.label,
      kind: failure.kind,
      retryable: failure.retryable,
      attempts,
      cause: failure.cause,
      ...(failure.responseBody !== undefined ? { responseBody: failure.responseBody } : {}),
    };
    if (failure.kind === 'status' && failure.status !== undefined) {
      return httpStatusError({
        ...args,
        status: failure.status,
        ...(suggested ? { suggestedBaseURL: suggested } : {}),
      });
    }
    if (failure.kind === 'timeout')
      return new RemoteTimeoutError({ ...args, scope: failure.scope ?? 'attempt' });
    if (failure.kind === 'connection' && failure.crossOrigin)
      return new CrossOriginRequestError({ ...args, ...failure.crossOrigin });
    if (failure.kind === 'connection') return new RemoteConnectionError(args);
    if (failure.kind === 'too-large') {
      const url = this.#redactor.text(`${replica.label}${path}`);
      return new ResponseTooLargeError({ ...args, limitBytes: failure.limitBytes ?? 0, url });
    }
    return new InvalidResponseError(args);
  }

  get #name(): string {
    return `${this.provider}:${this.modelId}`;
  }
}

/**
 * A signal that fires when either does. `AbortSignal.any` links without an event listener on the
 * caller's signal, so 64 concurrent sessions sharing one run signal trigger no MaxListeners warning.
 */
function linkSignals(outer: AbortSignal, inner: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([outer, inner]);
  const controller = new AbortController();
  const forward = (from: AbortSignal) => () => controller.abort(from.reason);
  outer.addEventListener('abort', forward(outer), { once: true });
  inner.addEventListener('abort', forward(inner), { once: true });
  if (outer.aborted) controller.abort(outer.reason);
  return controller.signal;
}

/** `n` split into requests of at most `max` choices each. */
function splitChoices(n: number, max: number): number[] {
  const counts: number[] = [];
  for (let left = n; left > 0; left -= max) counts.push(Math.min(left, max));
  return counts.length > 0 ? counts : [1];
}
