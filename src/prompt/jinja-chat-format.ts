import { Template } from '@huggingface/jinja';
import type { ChatMessage } from '../contract/chat-message.js';
import { PromptTemplateError } from './errors.js';
import type { ChatFormat, PromptInput } from './prompt-template.js';
import { QWEN3_END_OF_TURN } from './qwen3-chat-format.js';

/** Options of `jinjaChatFormat`: the format's id, stop strings, BOS/EOS tokens and extra template variables. */
export interface JinjaChatFormatOptions {
  /** The format's id, e.g. `my-finetune`. */
  id: string;
  /** Strings that end the answer. Default: `[eosToken]` when given, else `['<|im_end|>']`. */
  stop?: readonly string[];
  /** `bos_token` as the template sees it. */
  bosToken?: string;
  /** `eos_token` as the template sees it. */
  eosToken?: string;
  /**
   * More variables for the template, over the defaults `add_generation_prompt: true` and
   * `enable_thinking: false` (haggle wants a JSON turn, never a reasoning trace).
   */
  variables?: Record<string, unknown>;
}

/**
 * A chat format from a Jinja chat template, as Hugging Face models ship them in `tokenizer_config.json`.
 * Rendered by `@huggingface/jinja`, an interpreter of the template language: nothing in a template is
 * ever evaluated as JavaScript, so a template from a downloaded model folder cannot run code.
 *
 * The template sees `messages`, `add_generation_prompt`, `enable_thinking`, `bos_token`, `eos_token`,
 * your `variables`, and, for templates that lay the negotiation out themselves, the sanitised
 * `context`, `history`, `role` and `profile` of the prompt input.
 */
export function jinjaChatFormat(source: string, options: JinjaChatFormatOptions): ChatFormat {
  let template: Template;
  try {
    template = new Template(source);
  } catch (error) {
    throw new PromptTemplateError({
      templateId: options.id,
      message: `The Jinja chat template "${options.id}" does not parse: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  const stop = options.stop ?? [options.eosToken ?? QWEN3_END_OF_TURN];
  return {
    id: options.id,
    stop: [...stop],
    format(messages: readonly ChatMessage[], input?: PromptInput): string {
      const variables: Record<string, unknown> = {
        add_generation_prompt: true,
        enable_thinking: false,
        bos_token: options.bosToken ?? '',
        eos_token: options.eosToken ?? '',
        ...options.variables,
        // Plain copies: the interpreter must not see (or mutate) the caller's objects.
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
      };
      if (input !== undefined) {
        variables.context = input.context;
        variables.history = input.history;
        variables.role = input.role;
        variables.profile = input.profile;
      }
      try {
        return template.render(variables);
      } catch (error) {
        throw new PromptTemplateError({
          templateId: options.id,
          message: `The Jinja chat template "${options.id}" failed to render: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
    },
  };
}
