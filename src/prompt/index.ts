// The prompt layer as every runtime has it; loading a tokenizer or template from a model folder reads
// files, so those two are in the Node-only entry (src/node).
export { chatmlFormat } from './chatml-format.js';

export type { ComposedPromptTemplate, CreatePromptTemplateOptions } from './create-template.js';

export { createPromptTemplate } from './create-template.js';

export type { FunctionTemplateOptions, JinjaTemplateOptions, TemplateFunction } from './custom-templates.js';

export { templateFromFunction, templateFromJinja } from './custom-templates.js';

export {
  chatmlTemplate,
  defaultTemplate,
  qwen3NoThinkTemplate,
  qwen3Template,
} from './default-template.js';

export { defaultWording } from './default-wording.js';
export { ModelFolderError, PromptTemplateError, PromptTooLongError, UnsafePromptError } from './errors.js';
export type { JinjaChatFormatOptions } from './jinja-chat-format.js';
export { jinjaChatFormat } from './jinja-chat-format.js';
export type { ModelFolderTemplateOptions } from './model-folder-template.js';

export type {
  ChatFormat,
  PromptInput,
  PromptTemplate,
  PromptWording,
  RenderedPrompt,
} from './prompt-template.js';

export { qwen3NoThinkFormat } from './qwen3-chat-format.js';
export { qwen3Format } from './qwen3-chat-template.js';

export type { RenderPromptInput, RenderPromptOptions, RenderPromptResult } from './render-prompt.js';

export { renderPrompt } from './render-prompt.js';

export type { SanitizeOptions } from './sanitize.js';

export { revealUntrustedText, sanitizeUntrustedText } from './sanitize.js';

export type { RegisterTemplateOptions } from './template-registry.js';

export { getTemplate, registerTemplate, templateIds, unregisterTemplate } from './template-registry.js';

export type { AddedToken, PromptTokenizer, Tokenizer } from './tokenizer.js';
