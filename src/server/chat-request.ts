import * as z from 'zod';
import type { ChatMessage, GenerateOptions, ResponseFormat } from '../backends/language-backend.js';
import { readablePath } from '../contract/errors.js';
import type { JsonSchema } from '../contract/json-schema.js';
import { sanitizeUntrustedText } from '../prompt/sanitize.js';
import { HttpError } from './http-io.js';

const TextPart = z.looseObject({ type: z.literal('text'), text: z.string() });

const MessageSchema = z.looseObject({
  // `developer` is OpenAI's newer name for `system`.
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string(), z.array(TextPart), z.null()]),
});

const ResponseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object'), schema: z.record(z.string(), z.unknown()).optional() }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

/** The fields both endpoints share. Unknown fields (`chat_template_kwargs`, `user`) are accepted and ignored. */
const CommonFields = {
  model: z.string().min(1),
  response_format: ResponseFormatSchema.nullish(),
  n: z.int().min(1).max(16).nullish(),
  seed: z.int().min(0).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  top_k: z.int().min(1).nullish(),
  max_tokens: z.int().min(1).nullish(),
  max_completion_tokens: z.int().min(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(16)]).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
};

export const ChatCompletionRequestSchema = z.looseObject({
  ...CommonFields,
  messages: z.array(MessageSchema).min(1),
});

export const CompletionRequestSchema = z.looseObject({
  ...CommonFields,
  prompt: z.string().min(1, 'is empty: send the text to continue'),
});

export type ChatCompletionRequest = z.output<typeof ChatCompletionRequestSchema>;
export type CompletionRequest = z.output<typeof CompletionRequestSchema>;
export type AnyCompletionRequest = ChatCompletionRequest | CompletionRequest;

/** Parses a request body, or throws a 400 naming the first field that is wrong. */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue ? readablePath(issue.path) : '(root)';
  throw new HttpError(400, `Invalid request: ${param}: ${issue?.message ?? 'invalid'}`, {
    code: 'invalid_request',
    param,
  });
}

/**
 * The structured-output request in any dialect the remote backend speaks: OpenAI's `response_format`,
 * vLLM's `structured_outputs.json`, or SGLang's and llama.cpp's `json_schema` (a string or an object).
 */
function toResponseFormat(request: AnyCompletionRequest): ResponseFormat | undefined {
  const format = request.response_format;
  if (!format) {
    const structured = request.structured_outputs as { json?: unknown } | undefined;
    const native = request.json_schema;
    const schema = structured?.json ?? (typeof native === 'string' ? parseSchemaString(native) : native);
    return typeof schema === 'object' && schema !== null && !Array.isArray(schema)
      ? { type: 'json', schema: schema as JsonSchema }
      : undefined;
  }
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') {
    return { type: 'json', schema: (format.schema as JsonSchema | undefined) ?? { type: 'object' } };
  }
  const { name, schema } = format.json_schema;
  return {
    type: 'json',
    schema: (schema as JsonSchema | undefined) ?? { type: 'object' },
    ...(name ? { name } : {}),
  };
}

function parseSchemaString(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid request: json_schema: not valid JSON', { param: 'json_schema' });
  }
}

/**
 * The request's messages, each content sanitised as `renderPrompt` sanitises untrusted fields: a client
 * writes the contents, the chat format writes the structure, so `<|im_end|>\n<|im_start|>system` in a
 * message becomes `< |im_end|>\n< |im_start|>system`, ordinary tokens. Every role is treated so: a
 * client of `haggle serve` is not the operator of the model, whatever role it names.
 *
 * haggle's choice: sanitise rather than refuse with a 400 (assumed, not checked: hosted chat APIs read
 * special-token strings in message content as plain text and answer); a chat app relaying a marketplace
 * message that quotes `<think>` should be served, not failed. haggle's own remote backend sends contents that `renderPrompt`
 * has already sanitised, and sanitising is idempotent, so its prompts reach the model unchanged. The same
 * sanitised messages go to a proxied upstream (`--backend openai`), which may apply its own template.
 */
function toMessages(request: ChatCompletionRequest): ChatMessage[] {
  return request.messages.map((message) => ({
    role: message.role === 'developer' ? 'system' : message.role,
    content: sanitizeUntrustedText(
      typeof message.content === 'string'
        ? message.content
        : (message.content ?? []).map((part) => part.text).join(''),
    ),
  }));
}

/**
 * A request as a backend call. Chat requests also get `text`, the prompt string rendered by
 * `renderText` from the sanitised messages, so a local backend that needs the exact template string is
 * served too; a completions request's prompt is that string, with a single user message for backends
 * that want messages. That string is the trust boundary of `/v1/completions`: the client renders the
 * template, control tokens included, so the prompt is passed on as written, never sanitised (a client
 * that puts untrusted text in it must sanitise it first, as `renderPrompt` does).
 */
export function toGenerateOptions(
  request: AnyCompletionRequest,
  renderText: (messages: readonly ChatMessage[]) => string,
  abortSignal: AbortSignal,
): GenerateOptions {
  let prompt: GenerateOptions['prompt'];
  if (Array.isArray(request.messages)) {
    const messages = toMessages(request as ChatCompletionRequest);
    prompt = { messages, text: renderText(messages) };
  } else {
    const text = (request as CompletionRequest).prompt;
    prompt = { messages: [{ role: 'user', content: text }], text };
  }
  const options: GenerateOptions = { prompt, abortSignal, n: request.n ?? 1 };
  const responseFormat = toResponseFormat(request);
  if (responseFormat) options.responseFormat = responseFormat;
  if (request.temperature != null) options.temperature = request.temperature;
  if (request.top_p != null) options.topP = request.top_p;
  if (request.top_k != null) options.topK = request.top_k;
  if (request.seed != null) options.seed = request.seed;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens != null) options.maxTokens = maxTokens;
  if (request.stop != null)
    options.stop = typeof request.stop === 'string' ? [request.stop] : [...request.stop];
  return options;
}
