import type { FinishReason, GenerateChoice, GenerateResult } from '../backends/language-backend.js';
import type { ToolCallPlan } from './tool-call-plan.js';
import { toolCallFinishReason, toolCallId, toolCallOf } from './tool-call-response.js';

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

/** A chat answer; with a tool-call plan each choice's text is its call (`message.tool_calls[0]`). */
export function chatCompletion(meta: ResponseMeta, result: GenerateResult, toolCall?: ToolCallPlan) {
  return {
    id: meta.id,
    object: 'chat.completion' as const,
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: result.choices.map((choice, index) => ({
      index,
      ...chatChoice(choice, toolCall),
      logprobs: null,
    })),
    usage: usageOf(result),
  };
}

function chatChoice(choice: GenerateChoice, plan: ToolCallPlan | undefined) {
  const call = plan ? toolCallOf(choice.text, plan, toolCallId()) : undefined;
  if (call)
    return {
      message: { role: 'assistant' as const, content: null, refusal: null, tool_calls: [call] },
      finish_reason: toolCallFinishReason(choice.finishReason),
    };
  return {
    message: { role: 'assistant' as const, content: choice.text, refusal: null },
    finish_reason: toOpenAIFinishReason(choice.finishReason),
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
 *
 * With a tool call, as OpenAI and vLLM stream one: a named tool's role chunk opens the call (`id`,
 * `function.name`, empty `arguments`) and each delta appends to `tool_calls[0].function.arguments`.
 * Under `"required"` over several tools the name is known only once the whole `{"name", "arguments"}`
 * is decoded, so haggle's choice is to send that call in one delta when the choice finishes.
 */
export class StreamChunks {
  private readonly base: ReturnType<typeof chunkBase>;
  /** Choices whose role chunk has gone, with their call id when they make a call. */
  private readonly started = new Map<number, string>();

  constructor(
    meta: ResponseMeta,
    private readonly kind: 'chat' | 'completions',
    private readonly toolCall?: ToolCallPlan,
  ) {
    this.base = chunkBase(meta, kind);
  }

  /** The chunks of one delta of choice `index` (with its role chunk first, for chat). */
  delta(index: number, text: string): Record<string, unknown>[] {
    const chunks = this.start(index);
    if (this.toolCall?.kind === 'any') return chunks; // sent whole at the finish
    const delta =
      this.toolCall?.kind === 'one'
        ? { tool_calls: [{ index: 0, function: { arguments: text } }] }
        : { content: text };
    chunks.push({
      ...this.base,
      choices: [
        this.kind === 'chat'
          ? { index, delta, logprobs: null, finish_reason: null }
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
      let finish: string = toOpenAIFinishReason(choice.finishReason);
      if (this.toolCall?.kind === 'one') finish = toolCallFinishReason(choice.finishReason);
      else if (this.toolCall?.kind === 'any') {
        const call = toolCallOf(choice.text, this.toolCall, this.started.get(index) ?? toolCallId());
        const delta = call ? { tool_calls: [{ index: 0, ...call }] } : { content: choice.text };
        if (call) finish = toolCallFinishReason(choice.finishReason);
        chunks.push({ ...this.base, choices: [{ index, delta, logprobs: null, finish_reason: null }] });
      }
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
    const id = toolCallId();
    this.started.set(index, id);
    const delta =
      this.toolCall?.kind === 'one'
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id, type: 'function', function: { name: this.toolCall.name, arguments: '' } },
            ],
          }
        : this.toolCall?.kind === 'any'
          ? { role: 'assistant', content: null }
          : { role: 'assistant', content: '' };
    return [{ ...this.base, choices: [{ index, delta, logprobs: null, finish_reason: null }] }];
  }
}
