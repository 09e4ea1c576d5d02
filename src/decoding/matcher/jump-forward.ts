import type { GrammarMatcher } from './grammar-matcher.js';

/** Text to token ids, as the model's tokenizer does it (e.g. `loadTokenizer(folder).encode`). */
export type EncodeText = (text: string) => readonly number[];

/** Tokens the grammar forces next, which can be appended without sampling. */
export interface JumpForward {
  /** Tokens the caller must drop from the end of its sequence (and KV cache) first: 0 or 1. */
  rollback: number;
  /** Tokens to append, all already accepted by the matcher; feed them to the model in one pass. */
  tokens: number[];
  /** The text the grammar forced. */
  forcedText: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Appends what the grammar forces next (`","price":`, keys, closing brackets) as tokens, so the model
 * does not spend a forward pass per forced token. The text is re-tokenised together with the last
 * sampled token, as the model would have tokenised it (`"` then `,"` becomes `","`), and the last
 * forced token is held back when a longer token could continue it (`":` before a string may be `":"`),
 * so the model sees the tokenisation it was trained on. Returns null when nothing is forced.
 */
export function jumpForward(matcher: GrammarMatcher, encode: EncodeText): JumpForward | null {
  if (matcher.isTerminated()) return null;
  const forcedText = matcher.forcedText();
  if (forcedText === '') return null;
  const vocabulary = matcher.grammar.vocabulary.tokens;
  const accepted = matcher.acceptedTokens;
  const last = accepted[accepted.length - 1];
  let prefix = '';
  if (last !== undefined) {
    try {
      prefix = strictUtf8.decode(vocabulary[last]);
    } catch {
      prefix = ''; // half a character: leave that token alone
    }
  }
  let ids = [...encode(prefix + forcedText)];
  let rollback = prefix === '' ? 0 : 1;
  if (rollback === 1 && ids[0] === last) {
    ids = ids.slice(1);
    rollback = 0;
  }
  if (rollback === 1) matcher.rollback(1);
  const applied: number[] = [];
  for (const id of ids) {
    if (!matcher.accept(id)) break;
    applied.push(id);
  }
  // Hold back the last token if a longer allowed token starts with it: the boundary stays open.
  const tail = applied[applied.length - 1];
  if (tail !== undefined && !matcher.isComplete()) {
    matcher.rollback(1);
    if (longerTokenAllowed(matcher, tail)) applied.pop();
    else matcher.accept(tail);
  }
  const consumed = applied.reduce((n, id) => n + (vocabulary[id]?.length ?? 0), 0);
  // If the retokenisation fell short of the rolled-back token, undo everything rather than lose it.
  const prefixBytes = rollback === 1 ? (vocabulary[last as number]?.length ?? 0) : 0;
  if (rollback === 1 && consumed < prefixBytes) {
    matcher.rollback(applied.length);
    matcher.accept(last as number);
    return null;
  }
  if (applied.length === 0 && rollback === 0) return null;
  return { rollback, tokens: applied, forcedText };
}

/** Whether a token whose bytes extend `tokenId`'s bytes is allowed where `tokenId` would go. */
function longerTokenAllowed(matcher: GrammarMatcher, tokenId: number): boolean {
  const { trie, vocabulary } = matcher.grammar;
  const bytes = vocabulary.tokens[tokenId];
  if (!bytes) return false;
  const node = trie.find(bytes);
  if (node < 0) return false;
  for (const id of trie.tokensBelow(node)) {
    if (matcher.acceptsBytes(vocabulary.tokens[id] as Uint8Array)) return true;
  }
  return false;
}
