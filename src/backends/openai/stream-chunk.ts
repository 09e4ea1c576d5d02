import type { FinishReason, Usage } from '../language-backend.js';
import type { Endpoint } from './dialect.js';
import { mapFinishReason } from './response-parsing.js';

/** What one chunk of a streamed chat or completions answer says. */
export interface ParsedChunk {
  deltas: { index: number; text: string }[];
  finished: { index: number; reason: FinishReason }[];
  usage: Usage | undefined;
  id: string | undefined;
  model: string | undefined;
}

/**
 * Reads one `data:` payload of a streamed answer (OpenAI's `chat.completion.chunk` or a streamed
 * `text_completion`); returns a sentence saying what is wrong instead when it is not one. A chunk may
 * carry several choices, none (the usage chunk), or an `error` object (vLLM and others report a
 * failure mid-stream that way).
 */
export function parseStreamChunk(data: string, endpoint: Endpoint): ParsedChunk | string {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return `a stream event is not JSON: ${JSON.stringify(data.length > 80 ? `${data.slice(0, 80)}…` : data)}`;
  }
  if (typeof json !== 'object' || json === null) return 'a stream event is not a JSON object';
  const body = json as { id?: unknown; model?: unknown; choices?: unknown; usage?: unknown; error?: unknown };
  if (body.error !== undefined && body.error !== null) {
    const message = (body.error as { message?: unknown }).message;
    return `the server reported an error mid-stream: ${typeof message === 'string' ? message : JSON.stringify(body.error)}`;
  }
  const chunk: ParsedChunk = {
    deltas: [],
    finished: [],
    usage: undefined,
    id: typeof body.id === 'string' ? body.id : undefined,
    model: typeof body.model === 'string' ? body.model : undefined,
  };
  const choices = body.choices ?? [];
  if (!Array.isArray(choices)) return 'a stream event has a choices field that is not an array';
  for (const [position, raw] of choices.entries()) {
    if (typeof raw !== 'object' || raw === null)
      return `a stream event's choices[${position}] is not an object`;
    const item = raw as {
      index?: unknown;
      text?: unknown;
      delta?: { content?: unknown };
      finish_reason?: unknown;
    };
    const index = typeof item.index === 'number' && Number.isSafeInteger(item.index) ? item.index : position;
    const text = endpoint === 'chat' ? item.delta?.content : item.text;
    if (text !== undefined && text !== null && typeof text !== 'string')
      return `a stream event's choices[${position}] has text that is not a string`;
    if (typeof text === 'string' && text !== '') chunk.deltas.push({ index, text });
    if (item.finish_reason !== undefined && item.finish_reason !== null)
      chunk.finished.push({ index, reason: mapFinishReason(item.finish_reason) });
  }
  if (typeof body.usage === 'object' && body.usage !== null) {
    const usage = body.usage as {
      prompt_tokens?: unknown;
      completion_tokens?: unknown;
      prompt_tokens_details?: { cached_tokens?: unknown } | null;
    };
    const cached = usage.prompt_tokens_details?.cached_tokens;
    chunk.usage = {
      promptTokens: typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0,
      completionTokens: typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0,
      ...(typeof cached === 'number' ? { cachedPromptTokens: cached } : {}),
    };
  }
  return chunk;
}
