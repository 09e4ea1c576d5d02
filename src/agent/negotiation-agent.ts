import type {
  BackendDescription,
  BackendStreamPart,
  BackendWarning,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
  Usage,
} from '../backends/language-backend.js';
import { streamGenerate } from '../backends/stream-generate.js';
import {
  BackendError,
  HaggleAbortError,
  HaggleError,
  InvalidModelOutputError,
  throwIfAborted,
  type ValidationIssue,
} from '../contract/errors.js';
import type { Guardrails } from '../contract/guardrails.js';
import type { JsonSchema } from '../contract/json-schema.js';
import type { LegalMove } from '../contract/legal-moves.js';
import type { ModelProfile } from '../contract/model-profile.js';
import type {
  Negotiator,
  NegotiatorDescription,
  PredictInput,
  PredictOptions,
} from '../contract/negotiator.js';
import type { TimeUnit } from '../contract/time-unit.js';
import type { Turn } from '../contract/turn.js';
import { turnJsonSchema } from '../contract/turn-json-schema.js';
import { deriveSeed } from '../internal/random.js';
import type { PromptTemplate } from '../prompt/prompt-template.js';
import { renderPrompt } from '../prompt/render-prompt.js';
import type { Rules } from '../rules/rules.js';
import { templateHash, turnSchemaHash } from './agent-fingerprint.js';
import {
  type NegotiationAgentOptions,
  prefixPath,
  type ResolvedSampling,
  resolveAgentOptions,
} from './agent-options.js';
import { parseModelOutput } from './output-parsing.js';
import { concernsUserChoice } from './own-settings.js';
import { validatePredictInput, validatePredictOptions, validateSampleOptions } from './predict-input.js';
import { checkTurn, type TurnConstraints } from './turn-checks.js';
import type { TurnStreamEvent } from './turn-events.js';
import { movesForTurn } from './turn-moves.js';
import { TurnPreview } from './turn-preview.js';
import { TurnStream } from './turn-stream.js';

/**
 * What `predict` and `sample` take: a `PredictInput` whose `history` may be left out for an opening
 * turn (a Session always passes one; a marketplace app asking for a first offer need not).
 */
export type AgentInput = Omit<PredictInput, 'history'> & { history?: PredictInput['history'] };

/** Options of `NegotiationAgent.sample`: how many valid turns to draw for one input, and their seed. */
export interface SampleOptions {
  /** How many valid turns to return. */
  n: number;
  signal?: AbortSignal;
  /** Seed of the first request; a re-request for missing turns gets a seed derived from it. */
  seed?: number;
}

/** Everything one request for turns needs, prepared once and reused by every retry. */
interface PreparedRequest {
  base: Omit<GenerateOptions, 'n' | 'seed' | 'abortSignal'>;
  constraints: TurnConstraints;
}

/** Cumulative backend usage of one `NegotiationAgent` (see `agent.usage`). */
export interface AgentUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
}

/**
 * A negotiator backed by a language model: renders the negotiation into a prompt, asks the backend for
 * a turn under the turn's JSON Schema, and returns only turns that are valid, allowed by the rules and
 * inside the guardrails. Stateless between calls apart from the warnings it has seen and the usage it
 * has counted (neither changes a decision), so one agent can play many concurrent sessions.
 *
 * @example
 * ```ts
 * import { NegotiationAgent, OpenAICompatibleBackend } from 'haggle';
 *
 * const agent = new NegotiationAgent({
 *   backend: new OpenAICompatibleBackend({ baseURL: 'http://localhost:8000/v1', model: 'qwen3-4b-negotiation' }),
 *   sampling: { temperature: 1.0, seed: 7 }, // the model card evaluates at 1.0
 *   guardrails: { seller: { minPrice: 40 } }, // never sell below 40, whatever the model writes
 * });
 * // `context` is the listing, `history` the conversation so far; the turn is validated and legal.
 * const turn = await agent.predict({ context, history, role: 'seller' }, { signal });
 * console.log(turn.action, turn.price, turn.message);
 * ```
 * @see The guide: [NegotiationAgent](../../docs/negotiation-agent.md).
 */
export class NegotiationAgent implements Negotiator {
  readonly backend: LanguageBackend;
  readonly profile: ModelProfile;
  readonly template: PromptTemplate;
  /** Effective sampling: the options given, the profile's defaults for the rest. */
  readonly sampling: Readonly<ResolvedSampling>;
  readonly guardrails: Guardrails | undefined;
  /** The rules legal moves are derived under when a caller passes none (Best Offer by default). */
  readonly rules: Rules;
  /** How many times an invalid output is asked again before `InvalidModelOutputError`. */
  readonly retries: number;
  private readonly onWarning: ((warning: BackendWarning) => void) | undefined;
  private readonly seenWarnings = new Map<string, BackendWarning>();
  private readonly spent: AgentUsage = {
    requests: 0,
    promptTokens: 0,
    completionTokens: 0,
    cachedPromptTokens: 0,
  };
  // A turn schema depends only on the moves (profile and guardrails are fixed per agent); a session's
  // turns often repeat them (the opening offer, a counter to the same price), so recent ones are kept.
  private readonly schemas = new Map<string, JsonSchema>();
  // describe() runs for every session record: the hashes are computed once, on first use.
  private fingerprint: { templateHash: string; turnSchemaHash: string } | undefined;

  constructor(options: NegotiationAgentOptions) {
    const resolved = resolveAgentOptions(options);
    this.backend = resolved.backend;
    this.profile = resolved.profile;
    this.template = resolved.template;
    this.sampling = Object.freeze({ ...resolved.sampling });
    this.guardrails = resolved.guardrails;
    this.rules = resolved.rules;
    this.retries = resolved.retries;
    this.onWarning = resolved.onWarning;
  }

  /** The unit of the `response_time` this agent's turns carry: the profile's. */
  get responseTimeUnit(): TimeUnit {
    return this.profile.responseTimeUnit;
  }

  /**
   * Every distinct warning the backend has reported to this agent, oldest first: about settings the
   * user chose (sampling, the profile, the backend's options), never about the `stop` strings the agent
   * sets itself (see own-settings.ts).
   */
  get warnings(): BackendWarning[] {
    return [...this.seenWarnings.values()];
  }

  /**
   * What this agent's backend requests have cost so far, re-asks included: requests answered, prompt and
   * completion tokens as the backend counted them, and prompt tokens served from a prefix cache (0 where
   * the backend does not say). For a researcher's token accounting; never part of a decision.
   */
  get usage(): AgentUsage {
    return { ...this.spent };
  }

  /** The next turn for `input.role`: valid, allowed, and inside the guardrails, or an error. */
  async predict(input: AgentInput, options?: PredictOptions): Promise<Turn> {
    const call = validatePredictOptions(options);
    const [turn] = await this.collectTurns(input, 1, call.seed, call.signal, 'predict');
    // collectTurns returns exactly the count asked for or throws.
    return turn as Turn;
  }

  /**
   * The next turn as it is written: `action`, `price` (once the number is whole), `labels`,
   * `message-delta`s and `response-time` as the model writes them, then `{ type: 'turn', turn }` with
   * the validated turn, the same that `predict` returns for the same input and seed. A re-ask after an
   * invalid turn, or a remote retry after the first event, comes as `{ type: 'reset' }`: forget what
   * was shown. Field events are checked one by one against the legal moves and guardrails before they
   * are shown; only `turn` is the whole check. See docs/streaming.md.
   *
   * @example
   * ```ts
   * import { foldTurnEvent, type PartialTurn } from 'haggle';
   *
   * let shown: PartialTurn = {};
   * for await (const event of agent.stream({ context, history, role: 'seller' }, { signal })) {
   *   shown = foldTurnEvent(shown, event); // action and price first, then the message as written
   *   console.log(shown.action, shown.price, shown.message ?? '');
   * }
   * ```
   */
  stream(input: AgentInput, options?: PredictOptions): TurnStream {
    const call = validatePredictOptions(options);
    return new TurnStream((signal) => this.streamTurn(input, call.seed, signal), call.signal);
  }

  /**
   * `n` valid turns for the same moment: a distribution to show a user options or to study. One backend
   * request for `n` choices; invalid choices are dropped and only the missing count is requested again,
   * while the retries last.
   */
  async sample(input: AgentInput, options: SampleOptions): Promise<Turn[]> {
    const call = validateSampleOptions(options);
    return this.collectTurns(input, call.n, call.seed, call.signal, 'sample');
  }

  /**
   * Plain data for run records: the backend's own description (kind, model, dialect or device, where it
   * runs), the profile, the template's id and a hash of what it renders, a hash of the turn schema, the
   * effective sampling (max tokens included), guardrails and the invalid-output policy. No credential.
   */
  describe(): NegotiatorDescription {
    this.fingerprint ??= {
      templateHash: templateHash(this.template, this.profile),
      turnSchemaHash: turnSchemaHash(this.profile, this.guardrails),
    };
    return {
      kind: 'llm',
      provider: this.backend.provider,
      modelId: this.backend.modelId,
      backend: describeBackend(this.backend),
      profile: this.profile.id,
      template: this.template.id,
      templateHash: this.fingerprint.templateHash,
      turnSchemaHash: this.fingerprint.turnSchemaHash,
      sampling: { ...this.sampling },
      guardrails: this.guardrails ?? {},
      invalidOutput: { retries: this.retries },
    };
  }

  private schemaFor(moves: readonly LegalMove[]): JsonSchema {
    const key = JSON.stringify(moves);
    let schema = this.schemas.get(key);
    if (!schema) {
      // Frozen: every request shares it, so a backend that edited it in place would corrupt the next.
      schema = deepFreeze(turnJsonSchema({ profile: this.profile, moves }));
      if (this.schemas.size >= SCHEMA_CACHE_SIZE)
        this.schemas.delete(this.schemas.keys().next().value as string);
      this.schemas.set(key, schema);
    }
    return schema;
  }

  private prepare(input: AgentInput): PreparedRequest {
    const valid = validatePredictInput(input);
    const { context, history, role } = valid;
    // The rules' moves, narrowed by the guardrails: the schema and the validation both read these.
    const moves = movesForTurn(valid, this.rules, this.guardrails);
    // renderPrompt sanitises the untrusted fields before the template sees them, so a template of the
    // caller's that prints a title raw still cannot inject control tokens.
    const { messages, text, stop } = renderPrompt(
      { context, history, role, profile: this.profile },
      { template: this.template },
    );
    const schema = this.schemaFor(moves);
    const { seed: _defaultSeed, ...sampling } = this.sampling;
    return {
      base: {
        prompt: { messages, text },
        responseFormat: { type: 'json', name: 'turn', schema },
        ...sampling,
        stop,
      },
      constraints: {
        role,
        moves,
        labels: this.profile.labels,
        responseTimeUnit: this.profile.responseTimeUnit,
      },
    };
  }

  private async collectTurns(
    input: AgentInput,
    wanted: number,
    callSeed: number | undefined,
    signal: AbortSignal | undefined,
    operation: 'predict' | 'sample',
  ): Promise<Turn[]> {
    throwIfAborted(signal);
    const { base, constraints } = this.prepare(input);
    const seed = callSeed ?? this.sampling.seed;
    const turns: Turn[] = [];
    const rawTexts: string[] = [];
    const issues: ValidationIssue[] = [];

    for (let attempt = 0; ; attempt++) {
      const missing = wanted - turns.length;
      const options: GenerateOptions = { ...base, n: missing };
      // The first request uses the seed as given, so a caller's seed reaches the backend unchanged; each
      // re-request gets its own derived seed, or it would repeat the same invalid output.
      if (seed !== undefined) options.seed = attempt === 0 ? seed : deriveSeed(seed, attempt);
      if (signal) options.abortSignal = signal;

      const result = await this.generate(options, signal);
      const choices = result.choices.slice(0, missing);
      const where = (choice: number) =>
        operation === 'sample' ? `attempts[${attempt}].choices[${choice}]` : `attempts[${attempt}]`;

      choices.forEach((choice, index) => {
        rawTexts.push(choice.text);
        const parsed = parseModelOutput(choice.text);
        const checked = parsed.ok ? checkTurn(parsed.value, constraints) : parsed;
        if (checked.ok) {
          turns.push(checked.turn);
          return;
        }
        const cutOff =
          choice.finishReason === 'length'
            ? [{ path: '(root)', message: 'the output was cut off at maxTokens (finishReason "length")' }]
            : [];
        for (const issue of [...cutOff, ...checked.issues]) {
          issues.push({ ...issue, path: prefixPath(where(index), issue.path) });
        }
      });
      if (choices.length < missing) {
        issues.push({
          path: `attempts[${attempt}]`,
          message: `the backend returned ${choices.length} of ${missing} requested choice(s)`,
        });
      }

      if (turns.length === wanted) return turns;
      if (attempt >= this.retries) {
        throw new InvalidModelOutputError({ rawTexts, issues, attempts: attempt + 1 });
      }
    }
  }

  private async *streamTurn(
    input: AgentInput,
    callSeed: number | undefined,
    signal: AbortSignal,
  ): AsyncGenerator<TurnStreamEvent> {
    throwIfAborted(signal);
    const { base, constraints } = this.prepare(input);
    const seed = callSeed ?? this.sampling.seed;
    const rawTexts: string[] = [];
    const issues: ValidationIssue[] = [];
    const usage: Usage = { promptTokens: 0, completionTokens: 0 };
    const warnings: BackendWarning[] = [];
    // Whether the caller has been shown something since the start or the last reset.
    let shown = false;

    for (let attempt = 0; ; attempt++) {
      // The same requests as `predict` (one choice, the same seeds), so the same turn comes out.
      const options: GenerateOptions = { ...base, n: 1, abortSignal: signal };
      if (seed !== undefined) options.seed = attempt === 0 ? seed : deriveSeed(seed, attempt);
      if (shown) {
        yield { type: 'reset', reason: 'invalid-turn' };
        shown = false;
      }
      let preview = new TurnPreview(constraints);
      let result: GenerateResult | undefined;
      for await (const part of this.generateStream(options, signal)) {
        if (part.type === 'text-delta') {
          if (part.index !== 0 || result) continue;
          for (const event of preview.push(part.delta)) {
            shown = true;
            yield event;
          }
        } else if (part.type === 'reset') {
          if (shown) yield { type: 'reset', reason: 'retry' };
          shown = false;
          preview = new TurnPreview(constraints);
        } else {
          result = part.result;
        }
      }
      if (!result) {
        throw new BackendError({
          message: `The ${this.backendName} backend's stream ended without its finish part`,
          backend: this.backendName,
        });
      }
      this.checkResult(result);
      for (const warning of result.warnings ?? []) {
        if (!warnings.some((seen) => JSON.stringify(seen) === JSON.stringify(warning)))
          warnings.push(warning);
      }
      addUsage(usage, result.usage);

      const choice = result.choices[0];
      if (choice) {
        rawTexts.push(choice.text);
        const parsed = parseModelOutput(choice.text);
        const checked = parsed.ok ? checkTurn(parsed.value, constraints) : parsed;
        if (checked.ok) {
          yield { type: 'turn', turn: checked.turn, usage: { ...usage }, warnings: [...warnings] };
          return;
        }
        const cutOff =
          choice.finishReason === 'length'
            ? [{ path: '(root)', message: 'the output was cut off at maxTokens (finishReason "length")' }]
            : [];
        for (const issue of [...cutOff, ...checked.issues]) {
          issues.push({ ...issue, path: prefixPath(`attempts[${attempt}]`, issue.path) });
        }
      } else {
        issues.push({
          path: `attempts[${attempt}]`,
          message: 'the backend returned 0 of 1 requested choice(s)',
        });
      }
      if (attempt >= this.retries) {
        throw new InvalidModelOutputError({ rawTexts, issues, attempts: attempt + 1 });
      }
    }
  }

  /** One streamed backend call, with the same abort handling, error wrapping and counting as `generate`. */
  private async *generateStream(
    options: GenerateOptions,
    signal: AbortSignal,
  ): AsyncGenerator<BackendStreamPart> {
    throwIfAborted(signal);
    const parts = streamGenerate(this.backend, options)[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<BackendStreamPart>;
        try {
          next = await parts.next();
        } catch (error) {
          throw this.backendFailure(error, signal);
        }
        if (next.done) return;
        throwIfAborted(signal);
        yield next.value;
      }
    } finally {
      // Abandoned early (the caller stopped reading, or an error): the backend's stream stops too.
      await parts.return?.()?.catch(() => undefined);
    }
  }

  /** What a backend's failure becomes: the caller's abort, a typed error as is, anything else wrapped. */
  private backendFailure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted) {
      return HaggleError.isInstance(error) && error.code === 'aborted'
        ? error
        : new HaggleAbortError(signal.reason);
    }
    if (HaggleError.isInstance(error)) return error;
    return new BackendError({
      message: `The ${this.backendName} backend failed: ${error instanceof Error ? error.message : String(error)}`,
      backend: this.backendName,
      cause: error,
    });
  }

  /** A backend's result checked for shape, its warnings reported and its usage counted. */
  private checkResult(result: GenerateResult): void {
    if (typeof result !== 'object' || result === null || !Array.isArray(result.choices)) {
      throw new BackendError({
        message: `The ${this.backendName} backend returned a result without a choices array`,
        backend: this.backendName,
      });
    }
    this.report(result.warnings ?? []);
    this.count(result);
  }

  /** One backend call, with abort handling, error wrapping and warning collection. */
  private async generate(options: GenerateOptions, signal: AbortSignal | undefined): Promise<GenerateResult> {
    throwIfAborted(signal);
    let result: GenerateResult;
    try {
      result = await this.backend.doGenerate(options);
    } catch (error) {
      // Backends reject in their own ways when aborted (a DOMException, a fetch error); the caller
      // asked to stop, so that is what they hear about.
      throw this.backendFailure(error, signal);
    }
    this.checkResult(result);
    throwIfAborted(signal);
    return result;
  }

  private count(result: GenerateResult): void {
    const usage = result.usage;
    this.spent.requests++;
    // A custom backend's numbers are taken as given, but only numbers: a missing field adds nothing.
    const add = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
    this.spent.promptTokens += add(usage?.promptTokens);
    this.spent.completionTokens += add(usage?.completionTokens);
    this.spent.cachedPromptTokens += add(usage?.cachedPromptTokens);
  }

  private get backendName(): string {
    return `${this.backend.provider}:${this.backend.modelId}`;
  }

  private report(warnings: readonly BackendWarning[]): void {
    for (const warning of warnings) {
      if (!concernsUserChoice(warning)) continue;
      const key = JSON.stringify(warning);
      if (this.seenWarnings.has(key)) continue;
      this.seenWarnings.set(key, warning);
      try {
        this.onWarning?.(warning);
      } catch {
        // A listener's failure must not fail the turn: warnings are advice, the turn is the product.
      }
    }
  }
}

/** Adds a backend's usage to a total, counting only numbers (a custom backend may leave fields out). */
function addUsage(total: Usage, usage: Usage | undefined): void {
  const add = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  total.promptTokens += add(usage?.promptTokens);
  total.completionTokens += add(usage?.completionTokens);
  if (usage?.cachedPromptTokens !== undefined)
    total.cachedPromptTokens = (total.cachedPromptTokens ?? 0) + add(usage.cachedPromptTokens);
}

/** Distinct turn schemas an agent keeps; a Session's turns reuse few of them at a time. */
const SCHEMA_CACHE_SIZE = 256;
/** A backend's own description, or provider and model id for a backend that gives none. */
function describeBackend(backend: LanguageBackend): BackendDescription {
  const fallback = { provider: backend.provider, modelId: backend.modelId };
  if (typeof backend.describe !== 'function') return fallback;
  const described = backend.describe();
  return typeof described === 'object' && described !== null ? { ...fallback, ...described } : fallback;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
