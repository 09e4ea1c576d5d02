import { HttpError } from './errors.js';

/**
 * Which top-level request fields `haggle serve` honours, and which it takes only at a value that asks
 * for nothing (the field's neutral value). A server that speaks OpenAI's protocol honours each field or
 * refuses it by name: a field silently dropped is a wrong answer the client cannot see. So every field
 * of openai-node's `ChatCompletionCreateParams` and `CompletionCreateParams` is listed here, and a
 * field named nowhere (a typo, another server's extension) is a 400 too. docs/remote.md has the table.
 *
 * `null` is absent for every optional field, as in OpenAI's API.
 */
type Neutral = (value: unknown) => boolean;

/** A field haggle takes only when it asks for nothing: why, for the 400, and when it asks for nothing. */
interface Conditional {
  neutral: Neutral;
  why: string;
}

const isZero: Neutral = (value) => value === 0;
const isFalse: Neutral = (value) => value === false;
const isEmptyObject: Neutral = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
const always: Neutral = () => true;
const never: Neutral = () => false;

/** Fields both endpoints implement (their values are checked by the request schema). */
const IMPLEMENTED_COMMON = [
  'model',
  'n',
  'seed',
  'temperature',
  'top_p',
  'max_tokens',
  'stop',
  'stream',
  'stream_options',
  'response_format',
  // Other servers' names for the same things, which haggle's remote backend sends in their dialects.
  'top_k',
  'structured_outputs',
  'json_schema',
] as const;

const IMPLEMENTED_CHAT = [
  ...IMPLEMENTED_COMMON,
  'messages',
  'max_completion_tokens',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'chat_template_kwargs',
] as const;

const IMPLEMENTED_COMPLETIONS = [...IMPLEMENTED_COMMON, 'prompt'] as const;

/** Fields taken at their neutral value only, shared by both endpoints. */
const CONDITIONAL_COMMON: Record<string, Conditional> = {
  // Identifiers for the provider's abuse monitoring and cache routing: they change no answer, and
  // haggle keeps no per-user record, so there is nothing to refuse.
  user: { neutral: always, why: '' },
  frequency_penalty: { neutral: isZero, why: 'haggle samples without repetition penalties' },
  presence_penalty: { neutral: isZero, why: 'haggle samples without repetition penalties' },
  logit_bias: {
    neutral: isEmptyObject,
    why: 'haggle does not bias tokens (use response_format to constrain)',
  },
};

const CONDITIONAL_CHAT: Record<string, Conditional> = {
  ...CONDITIONAL_COMMON,
  safety_identifier: { neutral: always, why: '' },
  prompt_cache_key: { neutral: always, why: '' },
  // Labels for stored completions; haggle stores none, as OpenAI with `store: false`.
  metadata: { neutral: always, why: '' },
  store: { neutral: isFalse, why: 'haggle serve stores no completions' },
  logprobs: { neutral: isFalse, why: 'haggle serve returns no log probabilities' },
  top_logprobs: { neutral: isZero, why: 'haggle serve returns no log probabilities' },
  modalities: {
    neutral: (value) => Array.isArray(value) && value.length === 1 && value[0] === 'text',
    why: 'haggle models answer in text only',
  },
  audio: { neutral: never, why: 'haggle models answer in text only' },
  service_tier: {
    neutral: (value) => value === 'auto' || value === 'default',
    why: 'haggle serve has one tier',
  },
  prompt_cache_retention: {
    neutral: (value) => value === 'in_memory',
    why: 'haggle serve keeps nothing of a prompt after its answer',
  },
  prompt_cache_options: { neutral: never, why: 'haggle serve has no prompt cache to configure' },
  reasoning_effort: {
    neutral: (value) => value === 'none',
    why: 'haggle models answer without thinking (the qwen3_nothink format)',
  },
  verbosity: { neutral: never, why: 'haggle models take no verbosity setting' },
  prediction: { neutral: never, why: 'haggle serve has no predicted outputs' },
  web_search_options: { neutral: never, why: 'haggle serve has no web search' },
  moderation: { neutral: never, why: 'haggle serve runs no moderation' },
  functions: {
    neutral: never,
    why: 'the deprecated functions API is not served: send tools and tool_choice',
  },
  function_call: {
    neutral: never,
    why: 'the deprecated functions API is not served: send tools and tool_choice',
  },
};

const CONDITIONAL_COMPLETIONS: Record<string, Conditional> = {
  ...CONDITIONAL_COMMON,
  best_of: { neutral: (value) => value === 1, why: 'haggle serve does not rank candidates: use n' },
  echo: { neutral: isFalse, why: 'haggle serve returns the completion only' },
  logprobs: { neutral: isZero, why: 'haggle serve returns no log probabilities' },
  suffix: { neutral: (value) => value === '', why: 'haggle models do not fill in the middle' },
};

/**
 * Throws a 400 naming the first top-level field of `body` that haggle does not honour: a known field at
 * a value that asks for something haggle cannot do, or a field of no API haggle speaks.
 */
export function refuseUnhonouredFields(body: unknown, kind: 'chat' | 'completions'): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return; // the schema says so
  const implemented: readonly string[] = kind === 'chat' ? IMPLEMENTED_CHAT : IMPLEMENTED_COMPLETIONS;
  const conditional = kind === 'chat' ? CONDITIONAL_CHAT : CONDITIONAL_COMPLETIONS;
  const endpoint = kind === 'chat' ? '/v1/chat/completions' : '/v1/completions';
  for (const [field, value] of Object.entries(body)) {
    if (implemented.includes(field) || value === null) continue;
    const rule = Object.hasOwn(conditional, field) ? conditional[field] : undefined;
    if (rule?.neutral(value)) continue;
    throw new HttpError({
      status: 400,
      message: rule
        ? `Invalid request: ${field}: not supported by haggle serve at ${shortJson(value)}: ${rule.why}; leave it out`
        : `Invalid request: ${field}: unknown field for ${endpoint} on haggle serve; leave it out (docs/remote.md lists the fields it takes)`,
      errorCode: 'unsupported_parameter',
      param: field,
    });
  }
}

/** A value as JSON for an error message, cut short: a client's value is not echoed at length. */
function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
