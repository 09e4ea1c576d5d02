import type { FinishReason, GenerateChoice, Usage } from '../language-backend.js';
import type { Endpoint } from './dialect.js';

export interface ParsedResponse {
  choices: GenerateChoice[];
  usage: Usage;
  id: string | undefined;
  model: string | undefined;
}

/** OpenAI's finish reasons in the spec's words; anything unknown (tool calls, null) is `other`. */
export function mapFinishReason(reason: unknown): FinishReason {
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'content-filter';
  return 'other';
}

/**
 * Reads a chat or completions response body; returns a sentence saying what is wrong instead when it
 * is not one (the caller turns that into a retryable `InvalidResponseError`). Choices are put in
 * `index` order, as a server may send them otherwise.
 */
export function parseCompletionResponse(json: unknown, endpoint: Endpoint): ParsedResponse | string {
  if (typeof json !== 'object' || json === null) return 'the response body is not a JSON object';
  const body = json as { id?: unknown; model?: unknown; choices?: unknown; usage?: unknown };
  if (!Array.isArray(body.choices)) return 'the response has no choices array';
  const indexed: { index: number; choice: GenerateChoice }[] = [];
  for (const [position, raw] of body.choices.entries()) {
    if (typeof raw !== 'object' || raw === null) return `choices[${position}] is not an object`;
    const item = raw as {
      index?: unknown;
      text?: unknown;
      message?: { content?: unknown };
      finish_reason?: unknown;
    };
    let text: unknown;
    if (endpoint === 'chat') {
      if (typeof item.message !== 'object' || item.message === null)
        return `choices[${position}] has no message`;
      // A refusal or an empty answer has content null: an empty text the agent will reject and re-ask.
      text = item.message.content ?? '';
    } else {
      text = item.text;
    }
    if (typeof text !== 'string') return `choices[${position}] has no text`;
    const index = typeof item.index === 'number' ? item.index : position;
    indexed.push({ index, choice: { text, finishReason: mapFinishReason(item.finish_reason) } });
  }
  indexed.sort((a, b) => a.index - b.index);
  const usage = (typeof body.usage === 'object' && body.usage !== null ? body.usage : {}) as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
  };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    choices: indexed.map((entry) => entry.choice),
    usage: {
      promptTokens: typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0,
      completionTokens: typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0,
      ...(typeof cached === 'number' ? { cachedPromptTokens: cached } : {}),
    },
    id: typeof body.id === 'string' ? body.id : undefined,
    model: typeof body.model === 'string' ? body.model : undefined,
  };
}
