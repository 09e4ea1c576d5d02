import * as z from 'zod';
import type { ChatMessage } from '../contract/chat-message.js';
import { InvalidInputError, issuesFromZod, type ValidationIssue } from '../contract/errors.js';
import {
  type History,
  type HistoryEntry,
  HistorySchema,
  type Role,
  RoleSchema,
} from '../contract/history.js';
import { type ListingContextInput, ListingContextSchema } from '../contract/listing-context.js';
import { type ModelProfile, type ModelProfileInput, resolveModelProfile } from '../contract/model-profile.js';
import { PromptTemplateError, PromptTooLongError, UnsafePromptError } from './errors.js';
import { checkJoinedFields } from './joined-field-check.js';
import type { PromptInput, PromptTemplate, RenderedPrompt } from './prompt-template.js';
import { QWEN3_END_OF_TURN } from './qwen3-chat-format.js';
import { sanitizeContext, sanitizeHistory } from './sanitize-input.js';
import { getTemplate, isPromptTemplate } from './template-registry.js';
import { fitHistory } from './token-budget.js';
import type { PromptTokenizer } from './tokenizer.js';

/** Tokens kept free for the answer when the budget comes from the model's context length. */
export const DEFAULT_ANSWER_TOKENS = 512;

/** What `renderPrompt` renders: the listing, the conversation so far and whose turn it is. */
export interface RenderPromptInput {
  context: ListingContextInput;
  /** Default: no turns yet. */
  history?: History;
  /** The side whose turn it is. */
  role: Role;
  /** A built-in profile id or a profile of your own. Default: `qwen3-4b-negotiation-50k-ep3`. */
  profile?: ModelProfile | ModelProfileInput | string;
}

/** How `renderPrompt` renders: the template, the tokenizer that checks it, and the token budget. */
export interface RenderPromptOptions {
  /** A template value or a registered id. Default: the template the profile names. */
  template?: PromptTemplate | string;
  /**
   * Counts tokens (for the budget) and proves the prompt safe: with a tokenizer, no message may encode
   * to any of its `specialTokenIds`, and its added tokens are neutralised in untrusted text too.
   */
  tokenizer?: PromptTokenizer;
  /**
   * The most tokens the prompt may have. Default, with a tokenizer that knows its model's context
   * length: that length minus `reserveTokens`. Without either, the prompt is not shortened.
   */
  maxPromptTokens?: number;
  /**
   * Tokens left for the answer when the budget comes from the context length. Default: the profile's
   * `sampling.maxTokens`, else 512.
   */
  reserveTokens?: number;
}

export interface RenderPromptResult extends RenderedPrompt {
  /** The id of the template that rendered it. */
  template: string;
  /** Where the answer ends: the template's stop strings. */
  stop: string[];
  /**
   * Positions in `input.history` of the turns the token budget left out (ascending; empty when the
   * whole history fits). The prompt shows a marker line in their place.
   */
  dropped: number[];
  /** With a tokenizer: the prompt's token ids, as the model will read them. */
  tokenIds?: number[];
  /** With a tokenizer: `tokenIds.length`. */
  tokenCount?: number;
  /** The budget applied, when there was one. */
  maxPromptTokens?: number;
}

const InputSchema = z.object({
  context: ListingContextSchema,
  history: HistorySchema.default([]),
  role: RoleSchema,
  profile: z.unknown().optional(),
});

/**
 * Renders a negotiation into a prompt, in both forms: `messages` for chat endpoints, `text` (the exact
 * string, special tokens and all) for local models and completion endpoints. Untrusted text is
 * sanitised before the template sees it; with a tokenizer the prompt is measured, shortened to the
 * budget by the documented policy (see token-budget.ts), and checked token by token.
 */
export function renderPrompt(
  input: RenderPromptInput,
  options: RenderPromptOptions = {},
): RenderPromptResult {
  const { context, history, role, profile } = validateInput(input);
  const template = resolveTemplate(options.template, profile);
  const { tokenizer } = options;
  const budget = resolveBudget(options, profile);

  const sanitizeOptions = { tokens: tokenizer?.addedTokens?.map((t) => t.content) ?? [] };
  const base: PromptInput = {
    context: sanitizeContext(context, sanitizeOptions),
    history: sanitizeHistory(history, sanitizeOptions),
    role,
    profile,
  };
  const stop = [...(template.stop ?? [QWEN3_END_OF_TURN])];

  // Fields sanitised one by one can still spell a control token together where a template prints them
  // side by side; this check finds that with or without a tokenizer (see joined-field-check.ts).
  const checkJoins = (rendered: RenderedPrompt, input: PromptInput) =>
    checkJoinedFields({
      rendered,
      input,
      render: (placeholders) => renderWith(template, placeholders),
      templateId: template.id,
      extraTokens: sanitizeOptions.tokens,
    });

  if (tokenizer === undefined) {
    const rendered = renderWith(template, base);
    checkJoins(rendered, base);
    return { ...rendered, template: template.id, stop, dropped: [] };
  }

  const measure = (kept: number[]) => {
    const windowInput: PromptInput =
      kept.length === base.history.length
        ? base
        : {
            ...base,
            history: kept.map((index) => base.history[index] as HistoryEntry),
            historyIndices: kept,
            historyLength: base.history.length,
          };
    const rendered = renderWith(template, windowInput);
    const tokenIds = tokenizer.encode(rendered.text);
    return { rendered, windowInput, tokenIds, tokens: tokenIds.length, kept };
  };

  const chosen =
    budget === undefined
      ? { fits: true as const, measured: measure(base.history.map((_, index) => index)) }
      : fitHistory(base.history, budget, measure);
  if (!chosen.fits) {
    throw new PromptTooLongError({ tokens: chosen.tokens, budget: budget ?? 0, templateId: template.id });
  }
  const { rendered, windowInput, tokenIds, kept } = chosen.measured;
  checkMessages(rendered.messages, tokenizer, template.id);
  checkJoins(rendered, windowInput);

  const keptSet = new Set(kept);
  const result: RenderPromptResult = {
    ...rendered,
    template: template.id,
    stop,
    dropped: base.history.map((_, index) => index).filter((index) => !keptSet.has(index)),
    tokenIds,
    tokenCount: tokenIds.length,
  };
  if (budget !== undefined) result.maxPromptTokens = budget;
  return result;
}

/** The template to use: the caller's (a value or an id), else the one the profile names. */
export function resolveTemplate(
  template: PromptTemplate | string | undefined,
  profile: ModelProfile,
): PromptTemplate {
  if (template === undefined) return getTemplate(profile.template);
  if (typeof template === 'string') return getTemplate(template);
  if (!isPromptTemplate(template)) {
    throw new InvalidInputError({
      subject: 'RenderPromptOptions',
      issues: [
        {
          path: 'template',
          message: 'must be a PromptTemplate (an object with an id and render()) or a template id',
        },
      ],
    });
  }
  return template;
}

/** A template's output, checked: a template of the caller's could return anything. */
function renderWith(template: PromptTemplate, input: PromptInput): RenderedPrompt {
  const rendered = template.render(input) as Partial<RenderedPrompt> | null;
  if (
    typeof rendered !== 'object' ||
    rendered === null ||
    typeof rendered.text !== 'string' ||
    !Array.isArray(rendered.messages)
  ) {
    throw new PromptTemplateError({
      templateId: template.id,
      message: `Template "${template.id}" must return { messages: ChatMessage[], text: string } from render()`,
    });
  }
  return { messages: rendered.messages, text: rendered.text };
}

function validateInput(input: RenderPromptInput): PromptInput {
  const parsed = InputSchema.safeParse(input);
  const issues: ValidationIssue[] = parsed.success ? [] : issuesFromZod(parsed.error);
  let profile: ModelProfile | undefined;
  try {
    profile = resolveModelProfile((input as { profile?: ModelProfileInput | string } | undefined)?.profile);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    issues.push(
      ...error.issues.map((issue) => ({
        ...issue,
        path: issue.path === '(root)' ? 'profile' : `profile.${issue.path}`,
      })),
    );
  }
  if (!parsed.success || profile === undefined || issues.length > 0) {
    throw new InvalidInputError({ subject: 'RenderPromptInput', issues });
  }
  return { context: parsed.data.context, history: parsed.data.history, role: parsed.data.role, profile };
}

function resolveBudget(options: RenderPromptOptions, profile: ModelProfile): number | undefined {
  const issues: ValidationIssue[] = [];
  const { maxPromptTokens, reserveTokens, tokenizer } = options;
  if (maxPromptTokens !== undefined && !(Number.isInteger(maxPromptTokens) && maxPromptTokens > 0)) {
    issues.push({ path: 'maxPromptTokens', message: 'must be a positive integer' });
  }
  if (reserveTokens !== undefined && !(Number.isInteger(reserveTokens) && reserveTokens >= 0)) {
    issues.push({ path: 'reserveTokens', message: 'must be a non-negative integer' });
  }
  if (maxPromptTokens !== undefined && tokenizer === undefined) {
    issues.push({
      path: 'tokenizer',
      message:
        'a token budget needs a tokenizer to count with: pass { tokenizer: await loadTokenizer(modelFolder) }',
    });
  }
  if (tokenizer !== undefined && typeof tokenizer.encode !== 'function') {
    issues.push({
      path: 'tokenizer',
      message: 'must have encode(text) and specialTokenIds, as loadTokenizer returns',
    });
  }
  if (issues.length > 0) throw new InvalidInputError({ subject: 'RenderPromptOptions', issues });
  if (maxPromptTokens !== undefined) return maxPromptTokens;
  const contextLength = tokenizer?.contextLength;
  if (contextLength === undefined) return undefined;
  const reserve = reserveTokens ?? profile.sampling.maxTokens ?? DEFAULT_ANSWER_TOKENS;
  if (reserve >= contextLength) {
    throw new InvalidInputError({
      subject: 'RenderPromptOptions',
      issues: [
        {
          path: 'reserveTokens',
          message: `${reserve} tokens for the answer leave nothing of the ${contextLength}-token context; lower it`,
        },
      ],
    });
  }
  return contextLength - reserve;
}

/**
 * The proof by tokenising: untrusted text lives only in message contents, and a content must encode to
 * ordinary tokens only; the special tokens of the prompt are then exactly the ones the chat format wrote.
 */
function checkMessages(
  messages: readonly ChatMessage[],
  tokenizer: PromptTokenizer,
  templateId: string,
): void {
  const special = tokenizer.specialTokenIds;
  messages.forEach((message, messageIndex) => {
    const found = tokenizer.encode(message.content).filter((id) => special.has(id));
    if (found.length === 0) return;
    const names = found.map((id) => tokenizer.addedTokens?.find((t) => t.id === id)?.content ?? `#${id}`);
    throw new UnsafePromptError({ messageIndex, tokens: [...new Set(names)], templateId });
  });
}
