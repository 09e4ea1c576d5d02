import { InvalidInputError } from '../contract/errors.js';
import { BoundedCache } from '../internal/bounded-cache.js';

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
 * - Any other token a caller names (`options.tokens`, e.g. the added tokens of another model's tokenizer
 *   such as `<s>` or `[INST]`) gets a space after its first character: `< s>`, `[ INST]`.
 * - C0 and C1 control characters and DEL are removed, except `\n` and `\t`; `\r\n` becomes `\n`. A lone
 *   UTF-16 surrogate (half of an emoji cut by a careless truncation) becomes U+FFFD, as a UTF-8 encoder
 *   would make it anyway: the prompt string is then valid Unicode for JSON, Jinja and the tokenizer alike.
 *
 * A reader still sees what the writer meant, and the model still sees the words. Zero-width characters
 * were rejected: they are invisible to the person reading a log, and some normalisers remove them, which
 * would bring the token back. The function is idempotent: sanitising twice changes nothing more.
 * `revealUntrustedText` undoes the visible edit for display to a person (never for a prompt).
 */

/** Tag names that Qwen3's tokenizer has as special tokens in `<name>` and `</name>` form. */
export const SPECIAL_TAG_NAMES: readonly string[] = ['think', 'tool_call', 'tool_response'];

/** Options of `sanitizeUntrustedText`: more token strings to neutralise. */
export interface SanitizeOptions {
  /**
   * More token strings to neutralise, beyond the `<|...|>` and tag shapes handled always: typically
   * `tokenizer.addedTokens.map((t) => t.content)` for a model whose control tokens look different.
   */
  tokens?: readonly string[];
}

// Control characters are removed before tokens are neutralised: removing them first means a NUL placed
// inside a token (`<\u0000|im_start|>`) cannot rejoin the token after the pass that looked for it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const CARRIAGE_RETURN_LINE_FEED = /\r\n/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const PIPE_TOKEN_OPENING = /<\|/g;
const SPECIAL_TAG = new RegExp(`<(/?)(${SPECIAL_TAG_NAMES.join('|')})(?![a-z0-9_])`, 'gi');
const NEUTRALISED_PIPE = /< \|/g;
const NEUTRALISED_TAG = new RegExp(`< (/?)(${SPECIAL_TAG_NAMES.join('|')})(?![a-z0-9_])`, 'gi');

// More passes than any real vocabulary needs; a token list that still matches after them is refused.
const MAX_EXTRA_PASSES = 8;

/** Makes untrusted text safe to paste into a prompt: it can no longer form special tokens. */
export function sanitizeUntrustedText(text: string, options?: SanitizeOptions): string {
  const safe = text
    .replace(CARRIAGE_RETURN_LINE_FEED, '\n')
    .replace(CONTROL_CHARACTERS, '')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(PIPE_TOKEN_OPENING, '< |')
    .replace(SPECIAL_TAG, '< $1$2');
  const extra = extraTokenPattern(options?.tokens);
  return extra === undefined ? safe : neutraliseExtraTokens(safe, extra);
}

/**
 * Undoes the visible edit of `sanitizeUntrustedText` (`< |` back to `<|`, `< think>` back to `<think>`)
 * so a person sees the text as written, minus control characters. For display only: the result may hold
 * control tokens again and must never go back into a prompt. Text that contained `< |` before it was
 * sanitised is shown as `<|`.
 */
export function revealUntrustedText(text: string): string {
  return text.replace(NEUTRALISED_PIPE, '<|').replace(NEUTRALISED_TAG, '<$1$2');
}

// One pattern per set of a tokenizer's added tokens (`null`: none can be split), bounded as
// control-strings.ts bounds its own (haggle's choice: 32).
const patternCache = new BoundedCache<string, RegExp | null>(32);

function extraTokenPattern(tokens: readonly string[] | undefined): RegExp | undefined {
  if (tokens === undefined || tokens.length === 0) return undefined;
  const key = tokens.join('\u0000');
  const cached = patternCache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  // A token of one character cannot be split by a space; such tokens (rare, e.g. a lone emoji added
  // to a vocabulary) are left to the tokenizer check in renderPrompt.
  const splittable = [...new Set(tokens)].filter((token) => [...token].length > 1);
  const pattern =
    splittable.length === 0
      ? undefined
      : new RegExp(
          splittable
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join('|'),
          'gu',
        );
  patternCache.set(key, pattern ?? null);
  return pattern;
}

function neutraliseExtraTokens(text: string, pattern: RegExp): string {
  let out = text;
  for (let pass = 0; pass < MAX_EXTRA_PASSES; pass++) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) return out;
    out = out.replace(pattern, (token) => {
      const first = String.fromCodePoint(token.codePointAt(0) ?? 0);
      return `${first} ${token.slice(first.length)}`;
    });
  }
  // Unreachable with any real vocabulary; a list of tokens that keeps re-forming is a caller's bug.
  throw new InvalidInputError({
    subject: 'SanitizeOptions',
    issues: [
      {
        path: 'tokens',
        message:
          'these tokens keep re-forming after a space is put after their first character; remove the token that contains a space',
      },
    ],
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
