import { throwIfAborted } from '../../contract/errors.js';
import type { CompiledGrammar } from '../mask/compiled-grammar.js';
import type { TokenSampler } from '../sampling/token-sampler.js';
import { isAllowed } from '../vocabulary/vocabulary.js';
import { GrammarMatcher } from './grammar-matcher.js';
import { type EncodeText, jumpForward } from './jump-forward.js';

/** What `decodeConstrained` needs: the grammar, a sampler and a function giving the next logits. */
export interface ConstrainedDecodeOptions {
  grammar: CompiledGrammar;
  sampler: TokenSampler;
  /**
   * Logits for the token after `tokens` (everything generated so far). A real backend keeps a KV
   * cache and feeds only the new tokens; after a jump-forward rollback `tokens` is shorter than before.
   */
  nextLogits: (tokens: readonly number[]) => ArrayLike<number> | Promise<ArrayLike<number>>;
  /** Most tokens of JSON text (default 1024); near the end the decoder steers to a complete document. */
  maxTokens?: number;
  /** The tokenizer's encode: enables jump-forward over forced text. */
  encode?: EncodeText;
  /**
   * Looked at between tokens and inside every search that can run long (masks over large enums, the
   * completion near the token budget): a getter that reads shared memory works inside one token's work.
   */
  signal?: AbortSignal;
}

/** What `decodeConstrained` produced: tokens, text, forward passes and why it stopped. */
export interface ConstrainedDecodeResult {
  /** The generated tokens, end-of-sequence excluded. */
  tokens: number[];
  text: string;
  /** Calls to `nextLogits`: the forward passes this decode cost. */
  forwardPasses: number;
  /** Tokens appended by jump-forward instead of being sampled one pass each. */
  forcedTokens: number;
  /** `eos`: the model ended the document; `budget`: maxTokens was near and the decoder finished it. */
  finishReason: 'eos' | 'budget';
}

const decoder = new TextDecoder();

/**
 * The decode loop a local backend runs: mask, sample, accept, jump forward; every result parses and
 * satisfies the schema, whatever the logits. Once the token budget is about to run out, only tokens
 * along the grammar's completion are allowed, so a poor model still ends with a valid document.
 */
export async function decodeConstrained(options: ConstrainedDecodeOptions): Promise<ConstrainedDecodeResult> {
  const { grammar, sampler, nextLogits, encode, signal } = options;
  const maxTokens = options.maxTokens ?? 1024;
  const matcher = new GrammarMatcher(grammar, signal);
  const tokens: number[] = [];
  let forwardPasses = 0;
  let forcedTokens = 0;
  let finishReason: 'eos' | 'budget' = 'eos';
  let finishing: Uint8Array | null = null;
  const eos = grammar.vocabulary.eosTokenIds;
  const jump = () => {
    if (!encode) return;
    const jf = jumpForward(matcher, encode);
    if (!jf) return;
    tokens.length -= jf.rollback;
    tokens.push(...jf.tokens);
    forcedTokens += jf.tokens.length - jf.rollback;
  };
  jump();
  for (;;) {
    throwIfAborted(signal);
    if (matcher.isComplete() && onlyEnd(matcher.mask(), eos)) break;
    const left = maxTokens - tokens.length;
    if (finishing === null && left <= 160) {
      const completion = matcher.completionBytes();
      if (completion.length + 1 >= left) {
        finishing = completion;
        finishReason = 'budget';
      }
    }
    let mask = matcher.mask();
    if (finishing !== null) {
      if (finishing.length === 0) {
        if (!matcher.isComplete())
          throw new Error('internal error: the completion did not complete the document');
        break;
      }
      mask = prefixMask(matcher, finishing);
    }
    if (mask.every((w) => w === 0)) {
      const sofar = decoder.decode(
        concatBytes(tokens.map((id) => grammar.vocabulary.tokens[id] as Uint8Array)),
      );
      throw new Error(
        `internal error: no token allowed after ${JSON.stringify(sofar)} (finishing: ${finishing && decoder.decode(finishing)})`,
      );
    }
    const logits = await nextLogits(tokens);
    forwardPasses++;
    const id = sampler.sample(logits, mask, tokens);
    if (eos.includes(id)) break;
    if (!matcher.accept(id))
      throw new Error(`internal error: the grammar refused token ${id} its mask allowed`);
    tokens.push(id);
    if (finishing !== null) finishing = finishing.subarray(grammar.vocabulary.tokens[id]?.length ?? 0);
    else jump();
  }
  const bytes = concatBytes(tokens.map((id) => grammar.vocabulary.tokens[id] as Uint8Array));
  return { tokens, text: decoder.decode(bytes), forwardPasses, forcedTokens, finishReason };
}

/** Whether the only allowed tokens are end-of-sequence ones (nothing left to sample). */
function onlyEnd(mask: Uint32Array, eos: readonly number[]): boolean {
  for (let w = 0; w < mask.length; w++) {
    let word = mask[w] as number;
    if (word === 0) continue;
    for (const id of eos) if (id >>> 5 === w) word &= ~(1 << (id & 31));
    if (word !== 0) return false;
  }
  return true;
}

/** Allowed tokens whose bytes are a prefix of `bytes` (the way to the end of the document). */
function prefixMask(matcher: GrammarMatcher, bytes: Uint8Array): Uint32Array {
  const { trie, maskWords } = matcher.grammar;
  const mask = new Uint32Array(maskWords);
  const allowed = matcher.mask();
  let node = 0;
  for (const b of bytes) {
    node = trie.child(node, b);
    if (node < 0) break;
    const id = trie.token[node] as number;
    if (id >= 0 && isAllowed(allowed, id)) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
  }
  return mask;
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
