import { InvalidInputError } from '../contract/errors.js';
import type { Tokenizer } from '../prompt/tokenizer.js';
import { ContextLengthExceededError } from './errors.js';
import { Pace } from './pace.js';

/**
 * Characters tokenized at a time. The tokenizer costs 10-50 µs a character (most for CJK text, which
 * has no spaces to split on), and it runs on the thread of the decode loop: between two pieces the
 * loop gets its turn, so a long prompt's tokenizing does not stall the requests being decoded.
 * haggle's choice: about 1,000 characters keeps one piece under ~50 ms on a laptop core.
 */
const PIECE_CHARS = 1024;

/**
 * Tokenizes a prompt in pieces, yielding between them, and stops as soon as it is longer than
 * `limit` tokens (then `ContextLengthExceededError`, with the count so far). A 4 MiB prompt of one
 * repeated character would otherwise hold the decode loop for over a minute only to be refused.
 *
 * Pieces end where the tokenizer's pre-tokenizer would split anyway (a space between two letters, or
 * between two digits, each its own token), so the ids are those of one `encode` call. A run of over
 * 4 x `PIECE_CHARS` characters with no such place (a CJK paragraph, a made-up word) is cut where a
 * special token (`<|...|>`) is not: the ids can then differ from one `encode` call at that cut, which
 * only text no one writes meets.
 */
export async function encodePrompt(
  tokenizer: Tokenizer,
  text: string,
  limit: number | undefined,
  pace: Pace = new Pace(),
): Promise<number[]> {
  if (text.length === 0) {
    throw new InvalidInputError({
      subject: 'prompt',
      issues: [{ path: 'prompt', message: 'is empty: nothing to continue' }],
    });
  }
  if (limit === undefined || text.length <= PIECE_CHARS) {
    const ids = tokenizer.encode(text);
    if (limit !== undefined && ids.length >= limit)
      throw new ContextLengthExceededError({
        promptTokens: ids.length,
        contextLength: limit,
        counted: 'all',
      });
    return ids;
  }
  const ids: number[] = [];
  // The tokenizing takes its share of the worker's thread beside the decoders (see `Pace`).
  const owner = {};
  try {
    let at = 0;
    while (at < text.length) {
      await pace.turn(owner);
      const started = performance.now();
      const end = pieceEnd(text, at);
      for (const id of tokenizer.encode(text.slice(at, end))) ids.push(id);
      at = end;
      // Counted as the long lane's time is (see onnx-worker.ts): only long prompts get here.
      pace.charge(owner, (performance.now() - started) * 3);
      if (ids.length >= limit) {
        throw new ContextLengthExceededError({
          promptTokens: ids.length,
          contextLength: limit,
          counted: at >= text.length ? 'all' : 'at-least',
        });
      }
    }
    return ids;
  } finally {
    pace.leave(owner);
  }
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

/** Where the piece starting at `start` ends: see `encodePrompt`. */
export function pieceEnd(text: string, start: number): number {
  if (text.length - start <= PIECE_CHARS) return text.length;
  const hardEnd = Math.min(text.length, start + 4 * PIECE_CHARS);
  for (let i = start + PIECE_CHARS; i < hardEnd; i++) {
    const before = text[i - 1] as string;
    const here = text[i] as string;
    // " word" is one pre-token: cut before the space of a letter-space-letter run.
    if (here === ' ' && LETTER.test(before) && LETTER.test(text[i + 1] ?? '')) return i;
    // Every digit is a pre-token of its own.
    if (DIGIT.test(before) && DIGIT.test(here)) return i;
  }
  if (hardEnd >= text.length) return text.length;
  // No natural place: do not cut through a special token or a surrogate pair.
  let cut = hardEnd;
  const open = text.lastIndexOf('<|', cut);
  if (open > cut - 64 && open > start) {
    const close = text.indexOf('|>', open);
    if (close >= cut - 1) cut = open;
  }
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return cut;
}
