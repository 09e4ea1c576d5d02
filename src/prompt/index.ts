export { defaultTemplate, plainTemplate } from './default-template.js';
export type { PromptInput, PromptTemplate, RenderedPrompt } from './prompt-template.js';
export { QWEN3_END_OF_TURN, renderQwen3NoThink } from './qwen3-chat-format.js';
export { sanitizeUntrustedText } from './sanitize.js';
