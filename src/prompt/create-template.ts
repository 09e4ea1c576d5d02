import type { ChatMessage } from '../contract/chat-message.js';
import { defaultWording } from './default-wording.js';
import type {
  ChatFormat,
  PromptInput,
  PromptTemplate,
  PromptWording,
  RenderedPrompt,
} from './prompt-template.js';

/** Options of `createPromptTemplate`: its id, chat format, wording and stop strings. */
export interface CreatePromptTemplateOptions {
  /** The template's id, recorded in runs and named by model profiles. */
  id: string;
  /** How messages become the prompt string. */
  format: ChatFormat;
  /** What the messages say. Default: `defaultWording`. */
  wording?: PromptWording;
  /** Strings that end the answer. Default: the format's. */
  stop?: readonly string[];
}

/** A template that is the product of a wording and a chat format, both plain values. */
export interface ComposedPromptTemplate extends PromptTemplate {
  readonly stop: readonly string[];
  readonly format: ChatFormat;
  readonly wording: PromptWording;
}

/** A template from a wording (what the messages say) and a chat format (how they become one string). */
export function createPromptTemplate(options: CreatePromptTemplateOptions): ComposedPromptTemplate {
  const { id, format } = options;
  const wording = options.wording ?? defaultWording;
  return Object.freeze({
    id,
    stop: Object.freeze([...(options.stop ?? format.stop)]),
    format,
    wording,
    render(input: PromptInput): RenderedPrompt {
      const messages: ChatMessage[] = wording(input).map((m) => ({ role: m.role, content: m.content }));
      return { messages, text: format.format(messages, input) };
    },
  });
}
