import { chatmlFormat } from './chatml-format.js';
import { type ComposedPromptTemplate, createPromptTemplate } from './create-template.js';
import { qwen3NoThinkFormat } from './qwen3-chat-format.js';
import { qwen3Format } from './qwen3-chat-template.js';

/**
 * `qwen3_nothink`: haggle's default wording in LLaMA-Factory's `qwen3_nothink` format, the template the
 * card states for its 50k model (assumed for the msg-sessions model, for which it states none). The
 * default for both built-in profiles.
 */
export const qwen3NoThinkTemplate: ComposedPromptTemplate = createPromptTemplate({
  id: 'qwen3_nothink',
  format: qwen3NoThinkFormat,
});

/**
 * `qwen3`: the default wording through Qwen's own chat template with thinking off. The string differs
 * from `qwen3_nothink` by exactly the empty think block after the assistant header.
 */
export const qwen3Template: ComposedPromptTemplate = createPromptTemplate({
  id: 'qwen3',
  format: qwen3Format,
});

/** `chatml`: the default wording in plain ChatML, for ChatML models other than the card's. */
export const chatmlTemplate: ComposedPromptTemplate = createPromptTemplate({
  id: 'chatml',
  format: chatmlFormat,
});

/** The template used when neither the caller nor a profile names one. */
export const defaultTemplate: ComposedPromptTemplate = qwen3NoThinkTemplate;
