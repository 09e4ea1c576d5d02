import type { ChatMessage } from '../contract/chat-message.js';
import { type ComposedPromptTemplate, createPromptTemplate } from './create-template.js';
import { PromptTemplateError } from './errors.js';
import { type JinjaChatFormatOptions, jinjaChatFormat } from './jinja-chat-format.js';
import type {
  ChatFormat,
  PromptInput,
  PromptTemplate,
  PromptWording,
  RenderedPrompt,
} from './prompt-template.js';
import { qwen3NoThinkFormat } from './qwen3-chat-format.js';

/** Options of `templateFromJinja`: those of the Jinja chat format, and the wording. */
export interface JinjaTemplateOptions extends Omit<JinjaChatFormatOptions, 'id'> {
  /** What the messages say. Default: `defaultWording`. */
  wording?: PromptWording;
}

/**
 * A template from a Jinja chat template string: the wording (default: haggle's) makes the messages, the
 * Jinja template turns them into the prompt string. See `jinjaChatFormat` for the variables it sees.
 */
export function templateFromJinja(
  id: string,
  source: string,
  options: JinjaTemplateOptions = {},
): ComposedPromptTemplate {
  checkId(id);
  const { wording, ...formatOptions } = options;
  const format = jinjaChatFormat(source, { ...formatOptions, id });
  return createPromptTemplate(wording === undefined ? { id, format } : { id, format, wording });
}

/** What a function template returns: messages (formatted by the template's chat format) or both forms. */
export type TemplateFunction = (input: PromptInput) => ChatMessage[] | RenderedPrompt;

/** Options of `templateFromFunction`: the chat format and stop strings its messages use. */
export interface FunctionTemplateOptions {
  /** Formats the messages when the function returns only messages. Default: `qwen3_nothink`. */
  format?: ChatFormat;
  /** Strings that end the answer. Default: the format's. */
  stop?: readonly string[];
}

/**
 * A template from a function of the negotiation state: return messages and let a chat format write the
 * string (the usual case: your fine-tune's wording in the `qwen3_nothink` format), or return
 * `{ messages, text }` to control every byte.
 */
export function templateFromFunction(
  id: string,
  render: TemplateFunction,
  options: FunctionTemplateOptions = {},
): PromptTemplate {
  checkId(id);
  if (typeof render !== 'function') {
    throw new PromptTemplateError({
      templateId: id,
      message: `Template "${id}": the template must be a function or a Jinja string`,
    });
  }
  const format = options.format ?? qwen3NoThinkFormat;
  return Object.freeze({
    id,
    stop: Object.freeze([...(options.stop ?? format.stop)]),
    render(input: PromptInput): RenderedPrompt {
      const out = render(input);
      if (Array.isArray(out)) {
        const messages = checkedMessages(id, out);
        return { messages, text: format.format(messages, input) };
      }
      if (typeof out !== 'object' || out === null || typeof out.text !== 'string') {
        throw new PromptTemplateError({
          templateId: id,
          message: `Template "${id}" returned neither an array of messages nor { messages, text } with a string text`,
        });
      }
      return { messages: checkedMessages(id, out.messages), text: out.text };
    },
  });
}

const ROLES = new Set(['system', 'user', 'assistant']);

function checkedMessages(id: string, messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages)) {
    throw new PromptTemplateError({
      templateId: id,
      message: `Template "${id}" returned messages that are not an array`,
    });
  }
  return messages.map((message: unknown, index) => {
    const m = message as Partial<ChatMessage> | null;
    if (typeof m !== 'object' || m === null || !ROLES.has(String(m.role)) || typeof m.content !== 'string') {
      throw new PromptTemplateError({
        templateId: id,
        message: `Template "${id}" returned an invalid message at [${index}]: each message is { role: 'system' | 'user' | 'assistant', content: string }`,
      });
    }
    return { role: m.role as ChatMessage['role'], content: m.content };
  });
}

const TEMPLATE_ID = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;

function checkId(id: string): void {
  if (typeof id !== 'string' || !TEMPLATE_ID.test(id)) {
    throw new PromptTemplateError({
      templateId: String(id),
      message: `${JSON.stringify(id)} is not a template id: use 1 to 100 letters, digits, '.', '_', ':', '/' or '-', starting with a letter or digit`,
    });
  }
}
