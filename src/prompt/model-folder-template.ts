import { basename, join, resolve } from 'node:path';
import { type ComposedPromptTemplate, createPromptTemplate } from './create-template.js';
import { ModelFolderError } from './errors.js';
import { jinjaChatFormat } from './jinja-chat-format.js';
import { readChatTemplate, readModelJson, tokenText } from './model-folder.js';
import type { PromptWording } from './prompt-template.js';

/** Options of `templateFromModelFolder`: the template's id and wording. */
export interface ModelFolderTemplateOptions {
  /** The template's id. Default: `jinja:<folder name>`. */
  id?: string;
  /** What the messages say. Default: `defaultWording`. */
  wording?: PromptWording;
  /** Strings that end the answer. Default: the folder's `eos_token`. */
  stop?: readonly string[];
  /** More template variables, over `add_generation_prompt: true` and `enable_thinking: false`. */
  variables?: Record<string, unknown>;
}

/**
 * A template whose format is the Jinja chat template of a model folder (`chat_template.jinja`, else
 * `chat_template` in `tokenizer_config.json`), with the folder's `bos_token` and `eos_token`. Use it for a
 * fine-tune whose exporter wrote its training template into the folder; rendered by `@huggingface/jinja`,
 * never evaluated as code. Register it (`registerTemplate(template)`) to name it from a profile.
 */
export async function templateFromModelFolder(
  folder: string,
  options: ModelFolderTemplateOptions = {},
): Promise<ComposedPromptTemplate> {
  const tokenizerConfig = await readModelJson(folder, 'tokenizer_config.json', true);
  const source = await readChatTemplate(folder, tokenizerConfig);
  if (source === undefined) {
    const path = join(folder, 'tokenizer_config.json');
    throw new ModelFolderError({
      path,
      problem: `has no chat_template (and there is no chat_template.jinja beside it): use a built-in template such as qwen3_nothink, or registerTemplate() with the model's template`,
    });
  }
  const id = options.id ?? `jinja:${basename(resolve(folder))}`;
  const bosToken = tokenText(tokenizerConfig.bos_token);
  const eosToken = tokenText(tokenizerConfig.eos_token);
  const format = jinjaChatFormat(source, {
    id,
    ...(bosToken === undefined ? {} : { bosToken }),
    ...(eosToken === undefined ? {} : { eosToken }),
    ...(options.stop === undefined ? {} : { stop: options.stop }),
    ...(options.variables === undefined ? {} : { variables: options.variables }),
  });
  return createPromptTemplate(
    options.wording === undefined ? { id, format } : { id, format, wording: options.wording },
  );
}
