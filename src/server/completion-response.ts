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

/** Characters per streamed delta: small enough that clients see several chunks per choice. */
const DELTA_SIZE = 32;

/**
 * The chunks of a streamed answer, in OpenAI's order: per choice a role chunk, content deltas and a
 * finish chunk; then, when asked for, one usage chunk with no choices. Backends answer whole texts,
 * so the stream starts when the text is ready; the shape is what clients parse.
 */
export function* streamChunks(
  meta: ResponseMeta,
  result: GenerateResult,
  kind: 'chat' | 'completions',
  includeUsage: boolean,
): Generator<Record<string, unknown>> {
  const base = {
    id: meta.id,
    object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
  };
  for (const [index, choice] of result.choices.entries()) {
    if (kind === 'chat') {
      yield {
        ...base,
        choices: [{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      };
    }
    for (let at = 0; at < choice.text.length; at += DELTA_SIZE) {
      const piece = choice.text.slice(at, at + DELTA_SIZE);
      yield {
        ...base,
        choices: [
          kind === 'chat'
            ? { index, delta: { content: piece }, logprobs: null, finish_reason: null }
            : { index, text: piece, logprobs: null, finish_reason: null },
        ],
      };
    }
    const finish = toOpenAIFinishReason(choice.finishReason);
    yield {
      ...base,
      choices: [
        kind === 'chat'
          ? { index, delta: {}, logprobs: null, finish_reason: finish }
          : { index, text: '', logprobs: null, finish_reason: finish },
      ],
    };
  }
  if (includeUsage) yield { ...base, choices: [], usage: usageOf(result) };
}
