import { InvalidInputError } from '../../contract/errors.js';

/**
 * What the decoder needs from a tokenizer: each token's decoded bytes, indexed by token id, and which
 * ids end a sequence. Bytes rather than strings because byte-level BPE tokens can hold half of a UTF-8
 * character. `loadTokenizer()` (src/prompt) produces this shape; any tokenizer can be adapted to it.
 */
export interface DecoderVocabulary {
  /** Decoded bytes of every token id; `tokens.length` is the vocabulary size. */
  readonly tokens: readonly Uint8Array[];
  /** Ids that end a sequence (for Qwen3: `<|im_end|>` and `<|endoftext|>`). Allowed only once the JSON is complete. */
  readonly eosTokenIds: readonly number[];
  /** Control tokens (`<|im_start|>`, ...): never allowed inside the JSON, whatever their bytes. */
  readonly specialTokenIds?: readonly number[] | ReadonlySet<number>;
}

export function checkVocabulary(vocabulary: DecoderVocabulary): void {
  const size = vocabulary.tokens.length;
  const issues = [];
  if (size === 0) issues.push({ path: 'tokens', message: 'the vocabulary is empty' });
  if (vocabulary.eosTokenIds.length === 0) {
    issues.push({ path: 'eosTokenIds', message: 'at least one end-of-sequence token id is needed' });
  }
  for (const id of vocabulary.eosTokenIds) {
    if (!Number.isInteger(id) || id < 0 || id >= size) {
      issues.push({
        path: 'eosTokenIds',
        message: `token id ${id} is outside the vocabulary (size ${size})`,
      });
    }
  }
  if (issues.length > 0) throw new InvalidInputError({ subject: 'DecoderVocabulary', issues });
}

/** Number of 32-bit words of a bitset over `size` token ids. */
export function maskWords(size: number): number {
  return (size + 31) >>> 5;
}

/** True when bit `id` of a token bitset is set. */
export function isAllowed(mask: Uint32Array, id: number): boolean {
  return ((mask[id >>> 5] ?? 0) & (1 << (id & 31))) !== 0;
}

/** Ids of the set bits, ascending. For tests and diagnostics; samplers walk the words directly. */
export function allowedTokenIds(mask: Uint32Array): number[] {
  const ids: number[] = [];
  for (let w = 0; w < mask.length; w++) {
    let word = mask[w] ?? 0;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      ids.push((w << 5) + bit);
      word &= word - 1;
    }
  }
  return ids;
}

/** Number of set bits. */
export function countAllowed(mask: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < mask.length; w++) {
    let x = mask[w] ?? 0;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    n += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return n;
}

/**
 * The decoder's view of a tokenizer that has `vocabulary`, `eosTokenIds` and `specialTokenIds`, as
 * `loadTokenizer()` returns (typed structurally so the decoder does not depend on the prompt layer).
 */
export function decoderVocabulary(tokenizer: {
  readonly vocabulary: readonly Uint8Array[];
  readonly eosTokenIds: readonly number[];
  readonly specialTokenIds: ReadonlySet<number>;
}): DecoderVocabulary {
  return {
    tokens: tokenizer.vocabulary,
    eosTokenIds: tokenizer.eosTokenIds,
    specialTokenIds: tokenizer.specialTokenIds,
  };
}
