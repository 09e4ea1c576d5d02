import type { Tokenizer } from '../prompt/tokenizer.js';

/**
 * Follows one row's tokens as the decoder asks for the next logits, and says what text they add: a
 * streamed turn's deltas, produced in the worker. Each call decodes only the tokens since the last
 * text that went out (a step costs the new token, not the whole turn). A token that ends inside a
 * UTF-8 character (the decoded tail ends in U+FFFD) waits for the rest of it. When the decoder rolls
 * back (jump-forward re-tokenising) before what went out, the text is compared whole and nothing goes
 * out until it extends what was shown again; the backend compares the final text with the deltas.
 */
export function textProgress(
  tokenizer: Tokenizer,
  emit: (text: string) => void,
): (tokens: readonly number[]) => void {
  let shown = '';
  const done: number[] = [];
  return (tokens) => {
    let tail: string;
    if (tokens.length >= done.length && startsWith(tokens, done)) {
      if (tokens.length === done.length) return;
      tail = tokenizer.decode(tokens.slice(done.length));
    } else {
      const whole = tokenizer.decode(tokens);
      if (!whole.startsWith(shown)) return;
      tail = whole.slice(shown.length);
      done.length = 0;
    }
    if (tail.endsWith('\uFFFD')) return;
    for (let i = done.length; i < tokens.length; i++) done.push(tokens[i] as number);
    if (tail === '') return;
    shown += tail;
    emit(tail);
  };
}

function startsWith(tokens: readonly number[], prefix: readonly number[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (tokens[i] !== prefix[i]) return false;
  return true;
}
