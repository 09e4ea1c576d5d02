import { BoundedCache } from '../internal/bounded-cache.js';
import { SPECIAL_TAG_NAMES } from './sanitize.js';

/**
 * Finds the strings in a prompt that a tokenizer would turn into control tokens, without a tokenizer:
 * every `<|...|>` (the shape of all Qwen3 special tokens, and of ChatML's), the tag-shaped special tokens
 * (`<think>`, `</tool_call>`, ... in any letter case) and any more token strings a caller names (the
 * added tokens of another model's tokenizer).
 *
 * It finds exactly what `sanitizeUntrustedText` neutralises, and nothing more: text that went through the
 * sanitiser holds none of these, so any that a rendered prompt holds was written by the template, or was
 * formed where the template put two pieces side by side (see joined-field-check.ts). One-character
 * tokens are left out, as the sanitiser leaves them (a space cannot split them); the tokenizer check of
 * renderPrompt covers them.
 */
export function findControlStrings(text: string, extraTokens: readonly string[] = []): string[] {
  const pattern = controlStringPattern(extraTokens);
  pattern.lastIndex = 0;
  return Array.from(text.matchAll(pattern), (match) => match[0]);
}

// `<|` followed by a token name and `|>`. The sanitiser removes every `<|` from untrusted text, so the
// name's alphabet can be generous; 64 characters is longer than any special token of a real vocabulary.
const PIPE_TOKEN = '<\\|[^<>|\\s]{1,64}\\|>';
// Tag names in any letter case, as the sanitiser matches them (a tokenizer matches the exact case only:
// being broader here can only refuse more).
const SPECIAL_TAG = `</?(?:${SPECIAL_TAG_NAMES.map(anyCase).join('|')})>`;

// One pattern per set of a tokenizer's added tokens: a process holds one or two tokenizers, so 32 is a
// generous bound (haggle's choice).
const patternCache = new BoundedCache<string, RegExp>(32);

function controlStringPattern(extraTokens: readonly string[]): RegExp {
  const key = extraTokens.join('\u0000');
  const cached = patternCache.get(key);
  if (cached !== undefined) return cached;
  const extras = [...new Set(extraTokens)]
    .filter((token) => [...token].length > 1)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  // Longest alternatives first, so a named token that contains a shorter one is found whole.
  const pattern = new RegExp([...extras, PIPE_TOKEN, SPECIAL_TAG].join('|'), 'gu');
  patternCache.set(key, pattern);
  return pattern;
}

function anyCase(name: string): string {
  return [...name]
    .map((c) =>
      c.toLowerCase() === c.toUpperCase() ? escapeRegExp(c) : `[${c.toLowerCase()}${c.toUpperCase()}]`,
    )
    .join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
