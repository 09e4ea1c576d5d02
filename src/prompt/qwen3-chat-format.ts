import type { ChatMessage } from '../contract/chat-message.js';
import type { ChatFormat } from './prompt-template.js';

/** Qwen3's end-of-turn token: the stop sequence of every prompt in this format. */
export const QWEN3_END_OF_TURN = '<|im_end|>';

/**
 * Renders messages as LLaMA-Factory's `qwen3_nothink` template writes them, ending with an open
 * assistant turn for the model to complete: system `<|im_start|>system\n{content}<|im_end|>\n` (only
 * when a system message is given), user `<|im_start|>user\n{content}<|im_end|>\n`, assistant
 * `<|im_start|>assistant\n{content}<|im_end|>\n`, then `<|im_start|>assistant\n`. Unlike Qwen3's own chat
 * template with thinking disabled, `qwen3_nothink` adds no empty `<think></think>` block: the card's
 * 50k fine-tune, trained with this template, never saw one.
 *
 * The message contents must already be safe: this function adds the special tokens around them and
 * cannot tell a real one from an injected one.
 */
export function renderQwen3NoThink(messages: readonly ChatMessage[]): string {
  const turns = messages.map((m) => `<|im_start|>${m.role}\n${m.content}${QWEN3_END_OF_TURN}\n`);
  return `${turns.join('')}<|im_start|>assistant\n`;
}

/** The `qwen3_nothink` chat format: the card states it for its 50k model (assumed for the msg-sessions model). */
export const qwen3NoThinkFormat: ChatFormat = {
  id: 'qwen3_nothink',
  stop: [QWEN3_END_OF_TURN],
  format: renderQwen3NoThink,
};
