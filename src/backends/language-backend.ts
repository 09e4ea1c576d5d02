import type { JsonSchema } from '../contract/json-schema.js';

/**
 * The contract every text generator implements, in the style of the Vercel AI SDK's provider spec.
 * A backend only generates text, optionally under a JSON Schema; it knows nothing of negotiations.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The prompt in both forms a template renders: chat endpoints use `messages`; local models and
 * completion endpoints use `text`, the exact string the model was trained on.
 */
export interface BackendPrompt {
  messages: ChatMessage[];
  text?: string;
}

export type ResponseFormat =
  | { type: 'text' }
  | {
      type: 'json';
      /** The output must be an instance of this schema. */
      schema: JsonSchema;
      /** A name for servers that want one (OpenAI's `json_schema.name`). */
      name?: string;
    };

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
  /** Options only one backend understands, keyed by provider name. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'error' | 'other';

export interface GenerateChoice {
  text: string;
  finishReason: FinishReason;
}

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

export interface GenerateResult {
  /** One choice per requested sample, in order. */
  choices: GenerateChoice[];
  usage: Usage;
  warnings: BackendWarning[];
  response?: { id?: string; modelId?: string };
}

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

export interface LanguageBackend {
  readonly specificationVersion: 'v1';
  /** Provider name, e.g. `onnx`, `openai-compatible`, `mock`. */
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: GenerateOptions): Promise<GenerateResult>;
  /** Optional: a fuller description for run records. Without it, provider and model id stand for it. */
  describe?(): BackendDescription;
}
