import type { FinishReason, GenerateResult } from '../backends/language-backend.js';

export type OpenAIFinishReason = 'stop' | 'length' | 'content_filter';

/** The spec's finish reasons in OpenAI's words; `error` and `other` have no better name than `stop`. */
export function toOpenAIFinishReason(reason: FinishReason): OpenAIFinishReason {
  if (reason === 'length') return 'length';
  if (reason === 'content-filter') return 'content_filter';
  return 'stop';
}

export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
}

function usageOf(result: GenerateResult) {
  return {
    prompt_tokens: result.usage.promptTokens,
    completion_tokens: result.usage.completionTokens,
    total_tokens: result.usage.promptTokens + result.usage.completionTokens,
  };
}

export function chatCompletion(meta: ResponseMeta, result: GenerateResult) {
  return {
    id: meta.id,
    object: 'chat.completion' as const,
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: result.choices.map((choice, index) => ({
      index,
      message: { role: 'assistant' as const, content: choice.text, refusal: null },
      logprobs: null,
      finish_reason: toOpenAIFinishReason(choice.finishReason),
    })),
    usage: usageOf(result),
  };
}

export function textCompletion(meta: ResponseMeta, result: GenerateResult) {
  return {
    id: meta.id,
    object: 'text_completion' as const,
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: result.choices.map((choice, index) => ({
      index,
      text: choice.text,
      logprobs: null,
      finish_reason: toOpenAIFinishReason(choice.finishReason),
    })),
    usage: usageOf(result),
  };
}

/** The fields every chunk of one streamed answer shares. */
export function chunkBase(meta: ResponseMeta, kind: 'chat' | 'completions') {
  return {
    id: meta.id,
    object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
  };
}

/**
 * The chunks of a streamed answer, in OpenAI's order, built as the backend hands the text out: per
 * choice a role chunk (chat) before its first delta, content deltas as they come, a finish chunk;
 * then, when asked for, one usage chunk with no choices.
 */
export class StreamChunks {
  private readonly base: ReturnType<typeof chunkBase>;
  private readonly started = new Set<number>();

  constructor(
    meta: ResponseMeta,
    private readonly kind: 'chat' | 'completions',
  ) {
    this.base = chunkBase(meta, kind);
  }

  /** The chunks of one delta of choice `index` (with its role chunk first, for chat). */
  delta(index: number, text: string): Record<string, unknown>[] {
    const chunks = this.start(index);
    chunks.push({
      ...this.base,
      choices: [
        this.kind === 'chat'
          ? { index, delta: { content: text }, logprobs: null, finish_reason: null }
          : { index, text, logprobs: null, finish_reason: null },
      ],
    });
    return chunks;
  }

  /** The finish chunks of every choice, then the usage chunk when asked for. */
  finish(result: GenerateResult, includeUsage: boolean): Record<string, unknown>[] {
    const chunks: Record<string, unknown>[] = [];
    for (const [index, choice] of result.choices.entries()) {
      chunks.push(...this.start(index));
      const finish = toOpenAIFinishReason(choice.finishReason);
      chunks.push({
        ...this.base,
        choices: [
          this.kind === 'chat'
            ? { index, delta: {}, logprobs: null, finish_reason: finish }
            : { index, text: '', logprobs: null, finish_reason: finish },
        ],
      });
    }
    if (includeUsage) chunks.push({ ...this.base, choices: [], usage: usageOf(result) });
    return chunks;
  }

  private start(index: number): Record<string, unknown>[] {
    if (this.kind !== 'chat' || this.started.has(index)) return [];
    this.started.add(index);
    return [
      {
        ...this.base,
        choices: [{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      },
    ];
  }
}
