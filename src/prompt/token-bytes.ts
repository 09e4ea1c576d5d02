/**
 * The bytes each token id stands for: what a constrained decoder matches against a grammar. A token's
 * string in `tokenizer.json` is not its text: byte-level BPE (GPT-2, Qwen, Llama 3) writes each byte as
 * a printable stand-in character (`Ġ` for a space), and SentencePiece-style vocabularies (Llama 2,
 * Mistral) write `▁` for a space and `<0x0A>` for a raw byte. This module undoes both.
 */

/** How a vocabulary writes bytes in its token strings. */
export type TokenByteScheme = 'byte-level' | 'sentencepiece';

export interface VocabularySource {
  size: number;
  scheme: TokenByteScheme;
  /** The token string of a model-vocabulary id, or `undefined` for an id no token has. */
  tokenString(id: number): string | undefined;
  /** Added tokens by id: their bytes are their content, written as is. */
  addedTokens: ReadonlyMap<number, string>;
  /** SentencePiece only: whether `<0xNN>` tokens are raw bytes. */
  byteFallback: boolean;
}

const encoder = new TextEncoder();
const BYTE_FALLBACK = /^<0x([0-9A-Fa-f]{2})>$/;

/**
 * One `Uint8Array` per id, all views into one buffer (151,669 small arrays would otherwise cost far more
 * memory than their bytes). An id that no token has gets an empty array.
 */
export function buildVocabulary(source: VocabularySource): Uint8Array[] {
  const chunks: Uint8Array[] = new Array(source.size);
  let total = 0;
  const empty = new Uint8Array(0);
  const toBytes = source.scheme === 'byte-level' ? byteLevelBytes : sentencePieceBytes(source.byteFallback);
  for (let id = 0; id < source.size; id++) {
    const added = source.addedTokens.get(id);
    const token = added ?? source.tokenString(id);
    const bytes = token === undefined ? empty : added !== undefined ? encoder.encode(added) : toBytes(token);
    chunks[id] = bytes;
    total += bytes.length;
  }
  const buffer = new Uint8Array(total);
  const vocabulary: Uint8Array[] = new Array(source.size);
  let offset = 0;
  for (let id = 0; id < source.size; id++) {
    const bytes = chunks[id] ?? empty;
    buffer.set(bytes, offset);
    vocabulary[id] = buffer.subarray(offset, offset + bytes.length);
    offset += bytes.length;
  }
  return vocabulary;
}

/** GPT-2's table from bytes to the printable characters byte-level BPE writes them as, inverted. */
const UNICODE_TO_BYTE: ReadonlyMap<string, number> = (() => {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const kept = new Set(printable);
  const map = new Map<string, number>();
  let shifted = 0;
  for (let b = 0; b < 256; b++) {
    // Printable bytes stand for themselves; the others take code points from 256 up, in byte order.
    const codePoint = kept.has(b) ? b : 256 + shifted++;
    map.set(String.fromCodePoint(codePoint), b);
  }
  return map;
})();

function byteLevelBytes(token: string): Uint8Array {
  const out: number[] = [];
  for (const char of token) {
    const byte = UNICODE_TO_BYTE.get(char);
    // A character outside the table cannot come from byte-level BPE; keep its UTF-8 rather than lose it.
    if (byte === undefined) out.push(...encoder.encode(char));
    else out.push(byte);
  }
  return Uint8Array.from(out);
}

function sentencePieceBytes(byteFallback: boolean): (token: string) => Uint8Array {
  return (token) => {
    const raw = byteFallback ? BYTE_FALLBACK.exec(token) : null;
    if (raw?.[1] !== undefined) return Uint8Array.of(Number.parseInt(raw[1], 16));
    return encoder.encode(token.replaceAll('\u2581', ' '));
  };
}
