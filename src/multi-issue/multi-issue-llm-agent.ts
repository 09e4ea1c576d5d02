import type { LanguageBackend } from '../backends/language-backend.js';
import {
  BackendError,
  HaggleAbortError,
  HaggleError,
  InvalidInputError,
  InvalidModelOutputError,
  type ValidationIssue,
} from '../contract/errors.js';
import { deriveSeed } from '../internal/random.js';
import { QWEN3_END_OF_TURN, renderQwen3NoThink } from '../prompt/qwen3-chat-format.js';
import { multiIssueMessages } from './multi-issue-prompt.js';
import {
  type MultiIssueInput,
  type MultiIssueNegotiator,
  type MultiIssueTurn,
  multiIssueTurnJsonSchema,
  standingProposal,
} from './multi-issue-turn.js';
import { validateMultiIssueText } from './multi-issue-validation.js';

/** Options of `MultiIssueLlmAgent`: its backend, sampling and re-asks. */
export interface MultiIssueLlmAgentOptions {
  backend: LanguageBackend;
  temperature?: number;
  /** Nucleus sampling; sent only when given. */
  topP?: number;
  /** Top-k sampling; sent only when given (a backend that cannot honour it says so in its warnings). */
  topK?: number;
  /**
   * Mixed into every request's seed (which the tournament derives from the match): two agents over the
   * same model with different seeds sample differently on the same matches, each repeatably.
   */
  seed?: number;
  maxTokens?: number;
  /** Re-asks after an invalid output before `InvalidModelOutputError`. Default 2. */
  retries?: number;
  /**
   * Replaces the system message of `multiIssueMessages` (the task and the answer format); the user
   * message with the issues, the private preferences and the history stays. For prompts a checkpoint
   * was trained with.
   */
  systemPrompt?: string;
}

/**
 * A language model as a multi-issue negotiator: the scenario's own JSON Schema is sent as the response
 * format (decoded under constraints by a local backend, structured output for a remote one), and every
 * answer is validated against the issue space before it is played.
 */
export class MultiIssueLlmAgent implements MultiIssueNegotiator {
  private readonly backend: LanguageBackend;
  private readonly temperature: number;
  private readonly topP: number | undefined;
  private readonly topK: number | undefined;
  private readonly seed: number | undefined;
  private readonly maxTokens: number;
  private readonly retries: number;
  private readonly systemPrompt: string | undefined;

  constructor(options: MultiIssueLlmAgentOptions) {
    if (typeof options?.backend?.doGenerate !== 'function') {
      throw new InvalidInputError({
        subject: 'MultiIssueLlmAgentOptions',
        issues: [{ path: 'backend', message: 'must be a LanguageBackend' }],
      });
    }
    this.backend = options.backend;
    this.temperature = options.temperature ?? 1;
    this.maxTokens = options.maxTokens ?? 256;
    this.retries = options.retries ?? 2;
    this.topP = options.topP;
    this.topK = options.topK;
    this.seed = options.seed;
    this.systemPrompt = options.systemPrompt;
    const problems: ValidationIssue[] = [];
    if (!Number.isInteger(this.retries) || this.retries < 0 || this.retries > 10)
      problems.push({ path: 'retries', message: 'must be an integer from 0 to 10' });
    if (this.topP !== undefined && !(this.topP > 0 && this.topP <= 1))
      problems.push({ path: 'topP', message: 'must be in (0, 1]' });
    if (this.topK !== undefined && !(Number.isInteger(this.topK) && this.topK >= 1))
      problems.push({ path: 'topK', message: 'must be a positive integer' });
    if (this.seed !== undefined && !(Number.isSafeInteger(this.seed) && this.seed >= 0))
      problems.push({ path: 'seed', message: 'must be a non-negative integer' });
    if (this.systemPrompt !== undefined && this.systemPrompt.trim() === '')
      problems.push({ path: 'systemPrompt', message: 'must not be empty (leave it out for the default)' });
    if (problems.length > 0)
      throw new InvalidInputError({ subject: 'MultiIssueLlmAgentOptions', issues: problems });
  }

  describe() {
    return {
      kind: 'llm-multi-issue',
      provider: this.backend.provider,
      modelId: this.backend.modelId,
      // The backend's own description (dialect, endpoint, device, where it runs), when it gives one.
      backend: {
        provider: this.backend.provider,
        modelId: this.backend.modelId,
        ...(this.backend.describe?.() ?? {}),
      },
      temperature: this.temperature,
      ...(this.topP !== undefined ? { topP: this.topP } : {}),
      ...(this.topK !== undefined ? { topK: this.topK } : {}),
      ...(this.seed !== undefined ? { seed: this.seed } : {}),
      maxTokens: this.maxTokens,
      retries: this.retries,
      ...(this.systemPrompt !== undefined ? { systemPrompt: this.systemPrompt } : {}),
    };
  }

  async predict(
    input: MultiIssueInput,
    options: { signal?: AbortSignal; seed?: number } = {},
  ): Promise<MultiIssueTurn> {
    const messages = multiIssueMessages(input);
    if (this.systemPrompt !== undefined) messages[0] = { role: 'system', content: this.systemPrompt };
    const seed =
      options.seed === undefined || this.seed === undefined
        ? options.seed
        : deriveSeed(this.seed, options.seed);
    const canAccept = standingProposal(input.history, input.role) !== null;
    const schema = multiIssueTurnJsonSchema(input.space, { canAccept });
    const rawTexts: string[] = [];
    const issues: ValidationIssue[] = [];
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (options.signal?.aborted) throw new HaggleAbortError(options.signal.reason);
      let text: string;
      try {
        const result = await this.backend.doGenerate({
          prompt: { messages, text: renderQwen3NoThink(messages) },
          responseFormat: { type: 'json', name: 'multi_issue_turn', schema },
          temperature: this.temperature,
          ...(this.topP !== undefined ? { topP: this.topP } : {}),
          ...(this.topK !== undefined ? { topK: this.topK } : {}),
          maxTokens: this.maxTokens,
          stop: [QWEN3_END_OF_TURN],
          n: 1,
          ...(seed !== undefined ? { seed: attempt === 0 ? seed : deriveSeed(seed, attempt) } : {}),
          ...(options.signal ? { abortSignal: options.signal } : {}),
        });
        text = result.choices[0]?.text ?? '';
      } catch (error) {
        if (options.signal?.aborted) throw new HaggleAbortError(options.signal.reason);
        if (HaggleError.isInstance(error)) throw error;
        throw new BackendError({
          message: `backend failed: ${(error as Error).message}`,
          backend: this.backend.provider,
          cause: error,
        });
      }
      rawTexts.push(text);
      const problems = validateMultiIssueText(text, input, canAccept);
      if (problems.turn) return problems.turn;
      issues.push(
        ...problems.issues.map((issue) => ({ ...issue, path: `attempts[${attempt}].${issue.path}` })),
      );
    }
    throw new InvalidModelOutputError({ rawTexts, issues, attempts: this.retries + 1 });
  }
}
