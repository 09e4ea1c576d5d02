import * as z from 'zod';
import type { BackendWarning, LanguageBackend } from '../backends/language-backend.js';
import { InvalidInputError, issuesFromZod, type ValidationIssue } from '../contract/errors.js';
import { type Guardrails, GuardrailsSchema } from '../contract/guardrails.js';
import { type ModelProfile, type ModelProfileInput, resolveModelProfile } from '../contract/model-profile.js';
import { PromptTemplateError } from '../prompt/errors.js';
import type { PromptTemplate } from '../prompt/prompt-template.js';
import { getTemplate, isPromptTemplate } from '../prompt/template-registry.js';
import { BestOfferRules } from '../rules/best-offer-rules.js';
import type { Rules } from '../rules/rules.js';

/** Sampling settings; anything left out comes from the model profile's defaults. */
export interface SamplingOptions {
  temperature?: number;
  topP?: number;
  topK?: number;
  /** Seed used when a call passes none; a call's own `seed` wins. */
  seed?: number;
  maxTokens?: number;
}

/** What to do when the model's output is not a valid turn. */
export interface InvalidOutputPolicy {
  /** How many times to ask again (each time with a new derived seed). Default 2; 0 to 10. */
  retries?: number;
}

/** How a `NegotiationAgent` is built: its backend, model profile, prompt template, sampling and guardrails. */
export interface NegotiationAgentOptions {
  backend: LanguageBackend;
  /** A built-in profile id or a profile of your own. Default: `qwen3-4b-negotiation-50k-ep3`. */
  profile?: ModelProfile | ModelProfileInput | string;
  /**
   * A template value or a registered template id. Default: the template the profile names
   * (`qwen3_nothink` for both built-in profiles).
   */
  template?: PromptTemplate | string;
  sampling?: SamplingOptions;
  /** Prices this agent never offers or accepts beyond, per role. */
  guardrails?: Guardrails;
  /**
   * The rules a turn is legal under when a caller passes no `legalMoves` (a marketplace app asking for
   * one reply): the agent replays the history under them. Default: eBay Best Offer (`BestOfferRules`),
   * haggle's choice: the card's model was trained on sessions from the "eBay negotiation dataset"; the
   * card does not say which eBay rules they followed. A Session always passes its own rules' moves.
   */
  rules?: Rules;
  invalidOutput?: InvalidOutputPolicy;
  /**
   * Called once for each distinct warning a backend reports (a setting it could not honour, a fallback).
   * A listener that throws is ignored. Every distinct warning is also kept in `agent.warnings`.
   */
  onWarning?: (warning: BackendWarning) => void;
}

/** Sampling with the profile's defaults filled in: what every backend call gets. */
export interface ResolvedSampling {
  temperature: number;
  topP?: number;
  topK?: number;
  seed?: number;
  maxTokens?: number;
}

export interface ResolvedAgentOptions {
  backend: LanguageBackend;
  profile: ModelProfile;
  template: PromptTemplate;
  sampling: ResolvedSampling;
  guardrails: Guardrails | undefined;
  rules: Rules;
  retries: number;
  onWarning: ((warning: BackendWarning) => void) | undefined;
}

/** Re-asks after an invalid model output before `InvalidModelOutputError`, when `invalidOutput` sets none. */
export const DEFAULT_INVALID_OUTPUT_RETRIES = 2;
/** The most re-asks an agent may be configured with: more would only hide a broken backend or prompt. */
export const MAX_INVALID_OUTPUT_RETRIES = 10;

/** A seed: a non-negative safe integer, as the Session derives them. */
export const SeedSchema = z.int('a seed is an integer').min(0, 'a seed is not negative');

function isLanguageBackend(value: unknown): value is LanguageBackend {
  const candidate = value as Partial<LanguageBackend> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.doGenerate === 'function' &&
    typeof candidate.provider === 'string' &&
    typeof candidate.modelId === 'string'
  );
}

const SamplingOptionsSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  topK: z.int().min(1).optional(),
  seed: SeedSchema.optional(),
  maxTokens: z.int().min(1).optional(),
});

const AgentOptionsSchema = z.strictObject({
  backend: z.custom<LanguageBackend>(
    isLanguageBackend,
    'must be a LanguageBackend: an object with provider, modelId and doGenerate()',
  ),
  // Checked by resolveModelProfile, which knows the built-in ids.
  profile: z.unknown().optional(),
  template: z
    .custom<PromptTemplate | string>(
      (value) => isPromptTemplate(value) || (typeof value === 'string' && value !== ''),
      'must be a PromptTemplate (an object with an id and render()) or a registered template id',
    )
    .optional(),
  sampling: SamplingOptionsSchema.optional(),
  guardrails: GuardrailsSchema.optional(),
  rules: z
    .custom<Rules>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as Rules).legalMoves === 'function' &&
        typeof (value as Rules).apply === 'function',
      'must be Rules: an object with legalMoves() and apply(), such as new BestOfferRules()',
    )
    .optional(),
  invalidOutput: z
    .strictObject({ retries: z.int().min(0).max(MAX_INVALID_OUTPUT_RETRIES).optional() })
    .optional(),
  onWarning: z
    .custom<(warning: BackendWarning) => void>((value) => typeof value === 'function', 'must be a function')
    .optional(),
});

/** Validates the agent's options and fills in defaults; every problem is reported at once. */
export function resolveAgentOptions(options: NegotiationAgentOptions): ResolvedAgentOptions {
  const parsed = AgentOptionsSchema.safeParse(options);
  const issues: ValidationIssue[] = parsed.success ? [] : issuesFromZod(parsed.error);

  let profile: ModelProfile | undefined;
  const rawProfile = typeof options === 'object' && options !== null ? options.profile : undefined;
  try {
    profile = resolveModelProfile(rawProfile);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    issues.push(...error.issues.map((issue) => ({ ...issue, path: prefixPath('profile', issue.path) })));
  }

  // The template: the caller's value, a registered id, or the one the profile names.
  let template: PromptTemplate | undefined;
  if (parsed.success && profile !== undefined) {
    const chosen = parsed.data.template ?? profile.template;
    try {
      template = typeof chosen === 'string' ? getTemplate(chosen) : chosen;
    } catch (error) {
      if (!(error instanceof PromptTemplateError)) throw error;
      const path = parsed.data.template === undefined ? 'profile.template' : 'template';
      issues.push({ path, message: error.message });
    }
  }

  if (!parsed.success || profile === undefined || template === undefined || issues.length > 0) {
    throw new InvalidInputError({ subject: 'NegotiationAgentOptions', issues });
  }
  const { data } = parsed;
  const sampling: ResolvedSampling = {
    temperature: data.sampling?.temperature ?? profile.sampling.temperature,
  };
  const topP = data.sampling?.topP ?? profile.sampling.topP;
  const topK = data.sampling?.topK ?? profile.sampling.topK;
  const maxTokens = data.sampling?.maxTokens ?? profile.sampling.maxTokens;
  if (topP !== undefined) sampling.topP = topP;
  if (topK !== undefined) sampling.topK = topK;
  if (data.sampling?.seed !== undefined) sampling.seed = data.sampling.seed;
  if (maxTokens !== undefined) sampling.maxTokens = maxTokens;

  return {
    backend: data.backend,
    profile,
    template,
    sampling,
    guardrails: data.guardrails,
    rules: data.rules ?? new BestOfferRules(),
    retries: data.invalidOutput?.retries ?? DEFAULT_INVALID_OUTPUT_RETRIES,
    onWarning: data.onWarning,
  };
}

/** `profile` + `labels.kind` -> `profile.labels.kind`; `profile` + `(root)` -> `profile`. */
export function prefixPath(prefix: string, path: string): string {
  if (path === '(root)') return prefix;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}
