import * as z from 'zod';
import { InvalidInputError, issuesFromZod } from '../../contract/errors.js';
import { DIALECT_NAMES, type DialectName, type Endpoint } from './dialect.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './response-limit.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';

/** Where the backend reports retries; never given a credential. */
export interface BackendLogger {
  /** Called with one line for each retry and each ignored option. */
  warn(message: string): void;
}

/** Options of `OpenAICompatibleBackend`: the server, model, dialect, credentials, limits and retries. */
export interface OpenAICompatibleBackendOptions {
  /**
   * The server's API root, e.g. `http://localhost:8000/v1`, or several replicas of the same model to
   * spread requests across.
   */
  baseURL: string | readonly string[];
  /** The served model name; on vLLM with LoRA, the adapter's name from `--lora-modules`. */
  model: string;
  /** Sent as `Authorization: Bearer`; never shown in errors, logs, records or `describe()`. */
  apiKey?: string;
  /** How structured output is asked for. Default `vllm`. */
  dialect?: DialectName;
  /** `chat` (default) sends messages; `completions` sends the template's exact prompt string. */
  endpoint?: Endpoint;
  /**
   * Chat template arguments for dialects whose servers take them. Default `{ enable_thinking: false }`
   * (the model was trained without thinking); `null` sends none.
   */
  chatTemplateKwargs?: Record<string, unknown> | null;
  /** Limit for one HTTP attempt, body included. Default 60 s. */
  timeoutMs?: number;
  /** Limit for one `doGenerate` call, retries and waits included. Default 5 min. */
  totalTimeoutMs?: number;
  /**
   * The longest answer read, in bytes. A longer one is cut off while it streams in (the connection is
   * closed) and fails with a non-retryable `ResponseTooLargeError`, so a broken or hostile server
   * cannot exhaust memory. Default 16 MiB (`DEFAULT_MAX_RESPONSE_BYTES`): a turn is under 1 KiB.
   */
  maxResponseBytes?: number;
  retry?: Partial<RetryPolicy>;
  /** Requests in flight per replica; more wait in a queue. Default 64. */
  maxConcurrencyPerReplica?: number;
  /** Extra headers (a gateway's routing header); their values are redacted like the key. */
  headers?: Record<string, string>;
  /** Strip `<think>` blocks and Markdown fences around a JSON answer. Default true. */
  cleanOutput?: boolean;
  logger?: BackendLogger;
  /**
   * An HTTP client to use instead of the default one (the runtime's `fetch`; `node:http` in the Node
   * build): a `fetch` with a proxy dispatcher, or a test double.
   */
  fetch?: typeof fetch;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
}

export interface ResolvedBackendOptions {
  baseURLs: string[];
  model: string;
  apiKey: string | undefined;
  dialect: DialectName;
  endpoint: Endpoint;
  chatTemplateKwargs: Record<string, unknown> | null;
  timeoutMs: number;
  totalTimeoutMs: number;
  maxResponseBytes: number;
  retry: RetryPolicy;
  maxConcurrencyPerReplica: number;
  headers: Record<string, string>;
  cleanOutput: boolean;
  logger: BackendLogger | undefined;
  /** Undefined: the `node:http` transport. */
  fetch: typeof fetch | undefined;
  random: () => number;
}

const httpURL = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

const positiveMs = z.number().int().positive();

const OptionsSchema = z.strictObject({
  baseURL: z.union([httpURL, z.array(httpURL).min(1, 'needs at least one URL')]),
  model: z.string().min(1, 'must name the served model'),
  apiKey: z.string().optional(),
  dialect: z.enum(DIALECT_NAMES as [DialectName, ...DialectName[]]).optional(),
  endpoint: z.enum(['chat', 'completions']).optional(),
  chatTemplateKwargs: z.record(z.string(), z.unknown()).nullable().optional(),
  timeoutMs: positiveMs.optional(),
  totalTimeoutMs: positiveMs.optional(),
  // At most 256 MiB: half of V8's longest string (2^29 - 24 characters), which a body becomes.
  maxResponseBytes: z
    .number()
    .int()
    .min(1024)
    .max(256 * 1024 * 1024)
    .optional(),
  retry: z
    .strictObject({
      maxRetries: z.number().int().min(0).max(20).optional(),
      initialDelayMs: z.number().min(0).optional(),
      maxDelayMs: z.number().min(0).optional(),
      maxRetryAfterMs: z.number().min(0).optional(),
    })
    .optional(),
  maxConcurrencyPerReplica: z.number().int().min(1).max(4096).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  cleanOutput: z.boolean().optional(),
  logger: z.custom<BackendLogger>((value) => typeof (value as BackendLogger)?.warn === 'function').optional(),
  fetch: z.custom<typeof fetch>((value) => typeof value === 'function', 'must be a function').optional(),
  random: z.custom<() => number>((value) => typeof value === 'function', 'must be a function').optional(),
});

/** Validates the options (every problem at once, never echoing the key) and fills in defaults. */
export function resolveBackendOptions(options: OpenAICompatibleBackendOptions): ResolvedBackendOptions {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    // zod's messages name paths and expectations, not received values, so the key cannot leak here.
    throw new InvalidInputError({
      subject: 'OpenAICompatibleBackendOptions',
      issues: issuesFromZod(parsed.error),
    });
  }
  const data = parsed.data;
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  for (const [key, value] of Object.entries(data.retry ?? {})) {
    if (value !== undefined) retry[key as keyof RetryPolicy] = value;
  }
  return {
    baseURLs: typeof data.baseURL === 'string' ? [data.baseURL] : [...data.baseURL],
    model: data.model,
    apiKey: data.apiKey === '' ? undefined : data.apiKey,
    dialect: data.dialect ?? 'vllm',
    endpoint: data.endpoint ?? 'chat',
    chatTemplateKwargs:
      data.chatTemplateKwargs === undefined ? { enable_thinking: false } : data.chatTemplateKwargs,
    timeoutMs: data.timeoutMs ?? 60_000,
    totalTimeoutMs: data.totalTimeoutMs ?? 300_000,
    maxResponseBytes: data.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    retry,
    maxConcurrencyPerReplica: data.maxConcurrencyPerReplica ?? 64,
    headers: { ...(data.headers ?? {}) },
    cleanOutput: data.cleanOutput ?? true,
    logger: data.logger,
    fetch: data.fetch,
    random: data.random ?? Math.random,
  };
}
