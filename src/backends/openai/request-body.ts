import type { BackendWarning, GenerateOptions } from '../language-backend.js';
import type { Dialect, Endpoint } from './dialect.js';

/** What `buildRequestBody` needs: the dialect, endpoint, model and the call's options. */
export interface RequestBodyArgs {
  dialect: Dialect;
  endpoint: Endpoint;
  model: string;
  options: GenerateOptions;
  /** Choices this one request asks for (a dialect may split a larger `n`). */
  n: number;
  seed: number | undefined;
  /** Sent on chat requests to dialects that read it; `null` sends none. */
  chatTemplateKwargs: Record<string, unknown> | null;
  /** Ask for server-sent events (`stream: true`, usage in the last chunk). Default false. */
  stream?: boolean;
}

/** The HTTP request a `doGenerate` call becomes: path, endpoint, body and warnings. */
export interface PlannedRequest {
  /** Path below the base URL: `/chat/completions` or `/completions`. */
  path: '/chat/completions' | '/completions';
  endpoint: Endpoint;
  body: Record<string, unknown>;
  warnings: BackendWarning[];
}

/** The provider key under which `GenerateOptions.providerOptions` carries extra body fields. */
export const PROVIDER_OPTIONS_KEY = 'openai-compatible';

/**
 * Builds the JSON body of one request: OpenAI's field names, the dialect's way of asking for
 * structured output, and a warning for every option the dialect cannot carry. Fields the caller puts
 * in `providerOptions['openai-compatible']` are merged last, so a user can reach any server feature.
 */
export function buildRequestBody(args: RequestBodyArgs): PlannedRequest {
  const { dialect, options } = args;
  const warnings: BackendWarning[] = [];
  let endpoint = args.endpoint;
  if (endpoint === 'completions' && options.prompt.text === undefined) {
    warnings.push({
      type: 'fallback',
      message:
        'completions mode needs the prompt string of a template; this prompt has none, so chat was used',
    });
    endpoint = 'chat';
  }

  const body: Record<string, unknown> = { model: args.model };
  if (endpoint === 'chat')
    body.messages = options.prompt.messages.map(({ role, content }) => ({ role, content }));
  else body.prompt = options.prompt.text;

  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.topK !== undefined) {
    if (dialect.topK) body.top_k = options.topK;
    else
      warnings.push({
        type: 'unsupported-setting',
        setting: 'topK',
        details: `the ${dialect.name} dialect has no top_k; the server's default applies`,
      });
  }
  if (args.seed !== undefined) body.seed = args.seed;
  if (args.n > 1) body.n = args.n;
  if (options.stop && options.stop.length > 0) body.stop = [...options.stop];
  if (options.maxTokens !== undefined) {
    body[endpoint === 'chat' ? dialect.chatMaxTokensField : 'max_tokens'] = options.maxTokens;
  }

  if (options.responseFormat?.type === 'json') {
    const structured = dialect.structuredOutput(
      options.responseFormat.schema,
      options.responseFormat.name,
      endpoint,
    );
    Object.assign(body, structured.fields);
    warnings.push(...structured.warnings);
  }
  // Qwen3's template thinks unless told not to; the fine-tune never learned to think. A completions
  // prompt is already rendered, so the template (and its kwargs) never runs there.
  if (endpoint === 'chat' && dialect.chatTemplateKwargs && args.chatTemplateKwargs !== null) {
    body.chat_template_kwargs = { ...args.chatTemplateKwargs };
  }
  if (args.stream === true) {
    body.stream = true;
    // Without it a streamed answer carries no token counts (OpenAI's rule, followed by vLLM and llama.cpp).
    body.stream_options = { include_usage: true };
  } else {
    body.stream = false;
  }

  const extra = options.providerOptions?.[PROVIDER_OPTIONS_KEY];
  if (extra) Object.assign(body, extra);

  return { path: endpoint === 'chat' ? '/chat/completions' : '/completions', endpoint, body, warnings };
}
