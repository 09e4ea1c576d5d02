import * as z from 'zod';
import type { ChatMessage, GenerateOptions, ResponseFormat } from '../backends/language-backend.js';
import { readablePath } from '../contract/errors.js';
import type { JsonSchema } from '../contract/json-schema.js';
import { sanitizeUntrustedText } from '../prompt/sanitize.js';
import { HttpError } from './errors.js';
import { refuseUnhonouredFields } from './request-fields.js';
import { type ToolCallPlan, ToolChoiceSchema, ToolSchema, toolCallPlan } from './tool-call-plan.js';

const TextPart = z.looseObject({ type: z.literal('text'), text: z.string() });

// Strict: a message field haggle would not read (`name`, `audio`, ...) is refused by name.
const MessageSchema = z.strictObject({
  // `developer` is OpenAI's newer name for `system`.
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string(), z.array(TextPart), z.null()]),
  // An earlier answer's refusal field, as OpenAI returns it: only its empty value means nothing.
  refusal: z.null().optional(),
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

/**
 * The fields both endpoints implement. Every other field is refused by `refuseUnhonouredFields` unless
 * it asks for nothing (request-fields.ts); these are checked here.
 */
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
  stream_options: z
    .strictObject({
      include_usage: z.boolean().nullish(),
      // haggle adds no obfuscation padding to chunks: only `false` is honoured.
      include_obfuscation: z.literal(false).nullish(),
    })
    .nullish(),
  structured_outputs: z.strictObject({ json: z.record(z.string(), z.unknown()) }).nullish(),
  json_schema: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
};

export const ChatCompletionRequestSchema = z.looseObject({
  ...CommonFields,
  messages: z.array(MessageSchema).min(1),
  tools: z.array(ToolSchema).max(128).nullish(),
  tool_choice: ToolChoiceSchema.nullish(),
  // One call per choice is what haggle makes, which both values allow.
  parallel_tool_calls: z.boolean().nullish(),
  // haggle renders the qwen3_nothink format: a client may say so, and nothing else.
  chat_template_kwargs: z.strictObject({ enable_thinking: z.literal(false).optional() }).nullish(),
});

export const CompletionRequestSchema = z.looseObject({
  ...CommonFields,
  prompt: z.string().min(1, 'is empty: send the text to continue'),
});

export type ChatCompletionRequest = z.output<typeof ChatCompletionRequestSchema>;
export type CompletionRequest = z.output<typeof CompletionRequestSchema>;
export type AnyCompletionRequest = ChatCompletionRequest | CompletionRequest;

/**
 * Parses a request body, or throws a 400 naming the first field that is wrong or that haggle does not
 * honour (request-fields.ts).
 */
export function parseChatRequest(body: unknown): ChatCompletionRequest {
  refuseUnhonouredFields(body, 'chat');
  refuseToolHistory(body);
  return parseWith(ChatCompletionRequestSchema, body);
}

/** `parseChatRequest` for `/v1/completions`. */
export function parseCompletionRequest(body: unknown): CompletionRequest {
  refuseUnhonouredFields(body, 'completions');
  return parseWith(CompletionRequestSchema, body);
}

function parseWith<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue ? readablePath(issue.path) : '(root)';
  throw new HttpError({
    status: 400,
    message: `Invalid request: ${param}: ${issue?.message ?? 'invalid'}`,
    errorCode: 'invalid_request',
    param,
  });
}

/**
 * A tool exchange in the history (an assistant's `tool_calls`, a `tool` message) is refused by name:
 * the qwen3_nothink format haggle renders has no place for it. haggle's choice, documented.
 */
function refuseToolHistory(body: unknown): void {
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return;
  messages.forEach((message: unknown, index) => {
    if (typeof message !== 'object' || message === null) return;
    const { role, tool_calls: toolCalls, function_call: functionCall } = message as Record<string, unknown>;
    const refuse = (param: string) => {
      throw new HttpError({
        status: 400,
        message:
          `Invalid request: ${param}: haggle serve takes no tool-call history (its chat format has no ` +
          "place for it); send the call's result as the text of a user message",
        errorCode: 'unsupported_parameter',
        param,
      });
    };
    if (role === 'tool' || role === 'function') refuse(`messages[${index}].role`);
    if (toolCalls != null) refuse(`messages[${index}].tool_calls`);
    if (functionCall != null) refuse(`messages[${index}].function_call`);
  });
}

/** The tool call a chat request asks for (see `toolCallPlan`); undefined for text or a completions request. */
export function toolCallPlanOf(request: AnyCompletionRequest): ToolCallPlan | undefined {
  if (!Array.isArray(request.messages)) return undefined;
  const chat = request as ChatCompletionRequest;
  return toolCallPlan({
    tools: chat.tools,
    tool_choice: chat.tool_choice,
    hasResponseFormat: toResponseFormat(chat) !== undefined,
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
    throw new HttpError({
      status: 400,
      message: 'Invalid request: json_schema: not valid JSON',
      param: 'json_schema',
    });
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
  toolCall?: ToolCallPlan,
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
  // A tool call is decoded under the tool's parameters, as a response_format would be.
  const responseFormat = toolCall
    ? {
        type: 'json' as const,
        schema: toolCall.schema,
        ...(toolCall.kind === 'one' ? { name: toolCall.name } : {}),
      }
    : toResponseFormat(request);
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
