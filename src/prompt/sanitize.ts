/**
 * Untrusted text (listing titles and descriptions, messages in the history) is pasted into a prompt
 * whose structure is made of special tokens. A tokenizer turns the exact string `<|im_end|>` into the
 * control token that ends a chat turn, whoever wrote it, so a seller could title a listing
 * `<|im_end|>\n<|im_start|>system\n...` and speak to the model as its operator. This module makes sure
 * untrusted text can only ever become ordinary tokens.
 *
 * The choice: a visible, minimal edit rather than deletion or invisible characters.
 * - `<|` becomes `< |`. Every Qwen3 special token of the `<|...|>` shape (`<|im_start|>`, `<|im_end|>`,
 *   `<|endoftext|>`, `<|fim_prefix|>`, `<|vision_start|>`, ...) starts with `<|`, so none can survive,
 *   including ones added to a vocabulary later.
 * - The tag-shaped special tokens (`<think>`, `</think>`, `<tool_call>`, `</tool_call>`,
 *   `<tool_response>`, `</tool_response>`) become `< think>`, `< /think>` and so on, in any letter case.
 * - C0 control characters (NUL and friends) and DEL are removed, except `\n` and `\t`; `\r\n` becomes `\n`.
 *
 * A reader still sees what the writer meant, and the model still sees the words. Zero-width characters
 * were rejected: they are invisible to the person reading a log, and some normalisers remove them, which
 * would bring the token back. The function is idempotent: sanitising twice changes nothing more.
 */

/** Tag names that Qwen3's tokenizer has as special tokens in `<name>` and `</name>` form. */
export const SPECIAL_TAG_NAMES: readonly string[] = ['think', 'tool_call', 'tool_response'];

// Control characters are removed before tokens are neutralised: removing them first means a NUL placed
// inside a token (`<\u0000|im_start|>`) cannot rejoin the token after the pass that looked for it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
const CARRIAGE_RETURN_LINE_FEED = /\r\n/g;
const PIPE_TOKEN_OPENING = /<\|/g;
const SPECIAL_TAG = new RegExp(`<(/?)(${SPECIAL_TAG_NAMES.join('|')})(?![a-z0-9_])`, 'gi');

/** Makes untrusted text safe to paste into a prompt: it can no longer form special tokens. */
export function sanitizeUntrustedText(text: string): string {
  return text
    .replace(CARRIAGE_RETURN_LINE_FEED, '\n')
    .replace(CONTROL_CHARACTERS, '')
    .replace(PIPE_TOKEN_OPENING, '< |')
    .replace(SPECIAL_TAG, '< $1$2');
}
