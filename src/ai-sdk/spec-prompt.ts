import type { LanguageModelV4Prompt, SharedV4Warning } from '@ai-sdk/provider';
import type { ChatMessage } from '../backends/language-backend.js';
import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';
import { sanitizeUntrustedText } from '../prompt/sanitize.js';

/**
 * An AI SDK prompt as haggle's chat messages, for a haggle backend serving the AI SDK. Every content is
 * sanitised as `haggle serve` sanitises a client's messages (`<|im_end|>` in a message stays text, never
 * a control token of the chat format): the app's user writes contents, the chat format writes the
 * structure. Only text reaches a haggle model: a file or a tool exchange is refused with the part's
 * path, and reasoning parts of earlier answers are left out with a warning.
 */
export function chatMessagesOf(prompt: LanguageModelV4Prompt): {
  messages: ChatMessage[];
  warnings: SharedV4Warning[];
} {
  const messages: ChatMessage[] = [];
  const issues: ValidationIssue[] = [];
  let droppedReasoning = false;
  prompt.forEach((message, index) => {
    if (message.role === 'system') {
      messages.push({ role: 'system', content: sanitizeUntrustedText(message.content) });
      return;
    }
    if (message.role === 'tool') {
      issues.push({
        path: `prompt[${index}]`,
        message: 'haggle models take no tool results: send text messages (system, user, assistant)',
      });
      return;
    }
    let content = '';
    message.content.forEach((part, partIndex) => {
      if (part.type === 'text') content += part.text;
      else if (part.type === 'reasoning') droppedReasoning = true;
      else
        issues.push({
          path: `prompt[${index}].content[${partIndex}]`,
          message: `a "${part.type}" part cannot be read by a haggle model, which takes text only`,
        });
    });
    messages.push({ role: message.role, content: sanitizeUntrustedText(content) });
  });
  if (issues.length > 0) throw new InvalidInputError({ subject: 'AI SDK prompt for a haggle model', issues });
  const warnings: SharedV4Warning[] = droppedReasoning
    ? [{ type: 'other', message: 'reasoning parts of earlier answers were left out of the prompt' }]
    : [];
  return { messages, warnings };
}
