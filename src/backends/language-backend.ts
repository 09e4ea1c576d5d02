import type { ChatMessage } from '../contract/chat-message.js';
import type { JsonSchema } from '../contract/json-schema.js';

/**
 * The contract every text generator implements, in the style of the Vercel AI SDK's provider spec.
 * A backend only generates text, optionally under a JSON Schema; it knows nothing of negotiations.
 */

// In the contract, so that prompt templates (a layer below backends) can name it.
export type { ChatMessage };

/**
 * The prompt in both forms a template renders: chat endpoints use `messages`; local models and
 * completion endpoints use `text`, the exact string the model was trained on.
 */
export interface BackendPrompt {
  messages: ChatMessage[];
  text?: string;
}

/** The output's format: free text, or JSON that must be an instance of a JSON Schema. */
export type ResponseFormat =
  | { type: 'text' }
  | {
      type: 'json';
      /** The output must be an instance of this schema. */
      schema: JsonSchema;
      /** A name for servers that want one (OpenAI's `json_schema.name`). */
      name?: string;
    };

/** What one `doGenerate` call asks for: the prompt, the output's format and the sampling settings. */
export interface GenerateOptions {
  prompt: BackendPrompt;
  responseFormat?: ResponseFormat;
  temperature?: number;
  topP?: number;
  topK?: number;
  /** Seed for sampling; with the same seed, prompt and backend a run repeats. */
  seed?: number;
  /** Number of independent samples wanted. Default 1. */
  n?: number;
  stop?: string[];
  maxTokens?: number;
  abortSignal?: AbortSignal;
  /**
   * Who the call is for, when a backend serves many callers (`haggle serve` passes the client's
   * address): a backend that queues work shared between callers gives each its share by it (the ONNX
   * backend's schema vetting). Not a sampling setting: a backend with no such queue ignores it.
   */
  client?: string;
  /** Options only one backend understands, keyed by provider name. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** Why a choice's text ended: a stop sequence or end of turn, the token limit, a filter, an error, or something else. */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'error' | 'other';

/** One sample of a `doGenerate` call: its text and why it ended. */
export interface GenerateChoice {
  text: string;
  finishReason: FinishReason;
}

/** Tokens a call read and wrote, with those served from a prefix cache. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /**
   * Prompt tokens served from a prefix cache instead of computed: the local backend's, or what an
   * OpenAI-compatible server reports as `prompt_tokens_details.cached_tokens`. Absent when unknown.
   */
  cachedPromptTokens?: number;
}

/** An option the backend could not honour; never silently ignored. */
export type BackendWarning =
  | { type: 'unsupported-setting'; setting: string; details?: string }
  | { type: 'fallback'; message: string }
  | { type: 'other'; message: string };

/** What `doGenerate` returns: the choices, token usage, and warnings about options the backend could not honour. */
export interface GenerateResult {
  /** One choice per requested sample, in order. */
  choices: GenerateChoice[];
  usage: Usage;
  warnings: BackendWarning[];
  response?: { id?: string; modelId?: string };
}

/**
 * One part of a streamed generation, in the order a backend hands them out:
 * - `text-delta`: more text of choice `index` (deltas of different choices may interleave);
 * - `reset`: everything streamed so far is void (a remote backend retried after its first part):
 *   drop the text of every choice and start again from the parts that follow;
 * - `finish`: the last part, with the whole result; its texts are the ones to trust (they equal the
 *   concatenated deltas since the last `reset`, after the backend's own cleaning and redaction).
 */
export type BackendStreamPart =
  | { type: 'text-delta'; index: number; delta: string }
  | { type: 'reset' }
  | { type: 'finish'; result: GenerateResult };

/**
 * Plain data about a backend for run records: what decides its outputs (model, dialect, device, ...).
 * Never holds a credential.
 */
export interface BackendDescription {
  provider: string;
  modelId: string;
  /**
   * Where the backend runs (server URLs without credentials or query, a model folder): it varies between
   * machines without changing what is generated, so run headers keep it in `provenance`, which a resume
   * does not compare, rather than in the settings that it does.
   */
  location?: Record<string, unknown>;
  [detail: string]: unknown;
}

/**
 * Whether a backend can take requests now (`haggle serve`'s `/health` reports it): `ok`, `loading`
 * (a model being loaded or reloaded after its worker ended: retry shortly) or `unavailable`.
 */
export interface BackendHealth {
  status: 'ok' | 'loading' | 'unavailable';
  /** Why it is not ok, for an operator. */
  detail?: string;
  [extra: string]: unknown;
}

/** Anything that generates text under a JSON Schema: the local ONNX backend, a remote server, a mock. It knows nothing of negotiations. */
export interface LanguageBackend {
  readonly specificationVersion: 'v1';
  /** Provider name, e.g. `onnx`, `openai-compatible`, `mock`. */
  readonly provider: string;
  readonly modelId: string;
  /** Generates `n` choices for the prompt, under `responseFormat` when it is JSON. */
  doGenerate(options: GenerateOptions): Promise<GenerateResult>;
  /**
   * Optional: the same generation as `doGenerate`, handed out as it is written (see
   * `BackendStreamPart`). For the same options and seed, the texts of its `finish` part equal
   * `doGenerate`'s. Without it, `streamGenerate` wraps `doGenerate` into one delta per choice.
   * Abandoning the iterable (`return()`) or firing `abortSignal` cancels the work.
   */
  doStream?(options: GenerateOptions): AsyncIterable<BackendStreamPart>;
  /** Optional: a fuller description for run records. Without it, provider and model id stand for it. */
  describe?(): BackendDescription;
  /** Optional: whether it can take requests now. Without it, a backend is taken to be ready. */
  health?(): BackendHealth;
}
