import type { ChatMessage } from '../contract/chat-message.js';
import type { ChatFormat } from './prompt-template.js';

/**
 * Plain ChatML (`<|im_start|>{role}\n{content}<|im_end|>\n` per message, then `<|im_start|>assistant\n`),
 * for ChatML models other than the card's. No default system message is added when none is given (Qwen2's
 * own template would add one). For the messages haggle writes, the bytes are the same as
 * `qwen3_nothink`'s; the id differs so that a profile and a run record say which convention was meant.
 */
export const chatmlFormat: ChatFormat = {
  id: 'chatml',
  stop: ['<|im_end|>'],
  format(messages: readonly ChatMessage[]): string {
    const turns = messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`);
    return `${turns.join('')}<|im_start|>assistant\n`;
  },
};
