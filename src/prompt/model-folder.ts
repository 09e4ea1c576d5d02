import { join } from 'node:path';
import {
  type ModelFileFail,
  readModelFolderJson,
  readModelFolderText,
} from '../internal/model-folder-file.js';
import { ModelFolderError } from './errors.js';

/**
 * Reading the JSON files of a Hugging Face model folder (`tokenizer.json`, `tokenizer_config.json`,
 * `config.json`, `generation_config.json`) from disk. Nothing here touches the network: a folder is a
 * folder, never a hub id.
 */

export type JsonObject = Record<string, unknown>;

/** Reads `folder/name` as a JSON object; `undefined` when it does not exist and is not required. */
export async function readModelJson(folder: string, name: string, required: true): Promise<JsonObject>;
export async function readModelJson(
  folder: string,
  name: string,
  required: false,
): Promise<JsonObject | undefined>;
export async function readModelJson(
  folder: string,
  name: string,
  required: boolean,
): Promise<JsonObject | undefined> {
  const path = join(folder, name);
  return required ? readModelFolderJson(path, failAs(path)) : readModelFolderJson(path, failAs(path), true);
}

/** Reads `path` as text; `undefined` when it does not exist and is not required. */
export async function readText(path: string, required: boolean): Promise<string | undefined> {
  return required ? readModelFolderText(path, failAs(path)) : readModelFolderText(path, failAs(path), true);
}

/** A model folder's file problem as a `ModelFolderError` naming the file and, when missing, what a folder needs. */
function failAs(path: string): ModelFileFail {
  return (problem) => {
    const words =
      problem.kind === 'missing'
        ? 'not found: a model folder needs tokenizer.json and tokenizer_config.json, as transformers save_pretrained() writes them'
        : problem.words;
    throw new ModelFolderError({ path, problem: words, cause: problem.cause });
  };
}

/**
 * The text of a special token as `tokenizer_config.json` writes it: a plain string, or an AddedToken
 * object with `content` (older transformers).
 */
export function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as JsonObject).content === 'string') {
    return (value as { content: string }).content;
  }
  return undefined;
}

/**
 * The folder's chat template: `chat_template.jinja` (newer transformers) if present, else
 * `tokenizer_config.json`'s `chat_template`, a string or a list of named templates of which `default`
 * is taken.
 */
export async function readChatTemplate(
  folder: string,
  tokenizerConfig: JsonObject,
): Promise<string | undefined> {
  const file = await readText(join(folder, 'chat_template.jinja'), false);
  if (file !== undefined) return file;
  const value = tokenizerConfig.chat_template;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const named = value as Array<{ name?: unknown; template?: unknown }>;
    const chosen = named.find((t) => t?.name === 'default') ?? named[0];
    if (typeof chosen?.template === 'string') return chosen.template;
  }
  return undefined;
}

/** The model's context length in tokens, from `config.json`, else `tokenizer_config.json`. */
export function contextLengthOf(
  config: JsonObject | undefined,
  tokenizerConfig: JsonObject,
): number | undefined {
  for (const key of ['max_position_embeddings', 'n_positions', 'max_sequence_length', 'seq_length']) {
    const value = config?.[key];
    if (isPositiveInteger(value)) return value;
  }
  // transformers writes a huge sentinel (1e30) when the length is unknown: not a real limit.
  const fromTokenizer = tokenizerConfig.model_max_length;
  return isPositiveInteger(fromTokenizer) && fromTokenizer < 10_000_000 ? fromTokenizer : undefined;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
