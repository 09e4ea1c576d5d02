import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type { JsonSchema } from '../contract/json-schema.js';

/**
 * How a JSON answer is asked of an AI SDK model:
 * - `json-schema`: the spec's `responseFormat: { type: 'json', schema }`, which providers map to their
 *   native structured output (OpenAI's `json_schema`, Gemini's `responseSchema`, ...);
 * - `tool`: one forced function tool whose input schema is the answer's schema (for providers whose
 *   JSON mode takes no schema);
 * - `text`: the schema written into the prompt and the JSON read from the text, for models with neither.
 * `auto` starts with `json-schema` and steps down when the provider warns that it cannot honour it.
 */
export type StructuredOutputMode = 'auto' | 'json-schema' | 'tool' | 'text';

/** A mode that was actually used for a call. */
export type UsedMode = Exclude<StructuredOutputMode, 'auto'>;

/** The name of the forced tool in `tool` mode when the format has none. haggle's choice. */
const DEFAULT_TOOL_NAME = 'answer';

/** The call options that ask for JSON under `schema` in `mode`. */
export function structuredCall(
  base: LanguageModelV4CallOptions,
  mode: UsedMode,
  schema: JsonSchema,
  name: string | undefined,
): LanguageModelV4CallOptions {
  const spec = schema as NonNullable<
    Extract<LanguageModelV4CallOptions['responseFormat'], { type: 'json' }>['schema']
  >;
  if (mode === 'json-schema')
    return { ...base, responseFormat: { type: 'json', schema: spec, ...(name ? { name } : {}) } };
  if (mode === 'tool') {
    const toolName = toolNameOf(name);
    return {
      ...base,
      tools: [
        {
          type: 'function',
          name: toolName,
          description: 'Give the answer as this tool call: its input is the answer.',
          inputSchema: spec,
        },
      ],
      toolChoice: { type: 'tool', toolName },
    };
  }
  const instruction =
    'Answer with one JSON value and nothing else (no prose, no code fence). It must be an instance of ' +
    `this JSON Schema:\n${JSON.stringify(schema)}`;
  return { ...base, prompt: [{ role: 'system', content: instruction }, ...base.prompt] };
}

/** Tool names providers accept: letters, digits, `_` and `-`, at most 64. */
function toolNameOf(name: string | undefined): string {
  const cleaned = (name ?? '').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? DEFAULT_TOOL_NAME : cleaned;
}

/** Whether the provider said it could not honour what `mode` relies on (so `auto` steps down). */
export function modeRefused(mode: UsedMode, warnings: readonly SharedV4Warning[]): boolean {
  const feature = mode === 'json-schema' ? /responseformat|json|schema|structured/i : /tool/i;
  return warnings.some(
    (warning) =>
      (warning.type === 'unsupported' || warning.type === 'compatibility') &&
      feature.test(`${warning.feature} ${warning.details ?? ''}`) &&
      // A compatibility note that the schema is still honoured (as JSON mode with a prompt) is not a refusal.
      (warning.type === 'unsupported' || mode === 'tool'),
  );
}

/** The answer's text in `mode`: the forced tool's input, the structured output text, or the text parts. */
export function answerText(result: LanguageModelV4GenerateResult, mode: UsedMode | 'plain'): string {
  if (mode === 'tool') {
    const call = result.content.find(
      (part): part is Extract<LanguageModelV4Content, { type: 'tool-call' }> => part.type === 'tool-call',
    );
    if (call) return call.input;
  }
  if (mode === 'json-schema' && result.structuredOutputText !== undefined) return result.structuredOutputText;
  const text = textOf(result.content);
  return mode === 'text' ? jsonInText(text) : text;
}

function textOf(content: readonly LanguageModelV4Content[]): string {
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

/**
 * The JSON in a chat model's prose answer: inside a code fence when there is one, else from the first
 * `{` or `[` to the last matching bracket. Unchanged when none is found: the agent then reports the
 * text as invalid and asks again.
 */
export function jsonInText(text: string): string {
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fence?.[1] !== undefined) return fence[1].trim();
  const start = text.search(/[[{]/);
  if (start < 0) return text;
  const close = text[start] === '{' ? '}' : ']';
  const end = text.lastIndexOf(close);
  return end > start ? text.slice(start, end + 1) : text;
}
