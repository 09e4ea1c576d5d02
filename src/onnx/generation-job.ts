import { throwIfAborted } from '../contract/errors.js';
import type { CompiledGrammar } from '../decoding/mask/compiled-grammar.js';
import { decodeConstrained } from '../decoding/matcher/constrained-decode.js';
import { TokenSampler } from '../decoding/sampling/token-sampler.js';
import type { Tokenizer } from '../prompt/tokenizer.js';
import type { DecodeJob, NextLogits, SequenceOutput } from './decode-sequence.js';
import { textProgress } from './text-progress.js';
import type { GenerateRequest } from './worker-protocol.js';

/**
 * Turns a request into one decode function per sample: under a JSON Schema, the constrained decoder
 * (mask, sample, accept, jump forward; the document always completes); as text, plain sampling
 * until an end-of-sequence token, a stop string or `maxTokens`. With `onText`, each sample's text is
 * handed out as its tokens are sampled (a streamed request); the tokens sampled are the same.
 */
export function decodersFor(
  request: GenerateRequest,
  tokenizer: Tokenizer,
  grammar: CompiledGrammar | undefined,
  onText?: (index: number, text: string) => void,
): DecodeJob['decoders'] {
  const decoders = plainDecodersFor(request, tokenizer, grammar);
  if (!onText) return decoders;
  return decoders.map((decode, index) => {
    return (nextLogits: NextLogits, signal: AbortSignal) => {
      const progress = textProgress(tokenizer, (text) => onText(index, text));
      // The decoder passes every token so far with each request for logits: the text follows them.
      return decode((tokens) => {
        progress(tokens);
        return nextLogits(tokens);
      }, signal);
    };
  });
}

function plainDecodersFor(
  request: GenerateRequest,
  tokenizer: Tokenizer,
  grammar: CompiledGrammar | undefined,
): DecodeJob['decoders'] {
  return request.seeds.map((seed) => {
    const sampler = new TokenSampler({
      seed,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { topP: request.topP } : {}),
      ...(request.topK !== undefined ? { topK: request.topK } : {}),
    });
    if (grammar) {
      return async (nextLogits: NextLogits, signal: AbortSignal): Promise<SequenceOutput> => {
        const result = await decodeConstrained({
          grammar,
          sampler,
          nextLogits,
          maxTokens: request.maxTokens,
          encode: (text) => tokenizer.encode(text),
          signal,
        });
        // `budget` still ends in a complete, valid document: the decoder steered to it.
        return { text: result.text, tokens: result.tokens.length, finishReason: 'stop' };
      };
    }
    return (nextLogits: NextLogits, signal: AbortSignal) =>
      decodeText(request, tokenizer, sampler, nextLogits, signal);
  });
}

async function decodeText(
  request: GenerateRequest,
  tokenizer: Tokenizer,
  sampler: TokenSampler,
  nextLogits: NextLogits,
  signal: AbortSignal,
): Promise<SequenceOutput> {
  const eos = new Set(tokenizer.eosTokenIds);
  const mask = textMask(tokenizer);
  const tokens: number[] = [];
  for (;;) {
    throwIfAborted(signal);
    if (tokens.length >= request.maxTokens) {
      return { text: tokenizer.decode(tokens), tokens: tokens.length, finishReason: 'length' };
    }
    const id = sampler.sample(await nextLogits(tokens), mask, tokens);
    if (eos.has(id)) return { text: tokenizer.decode(tokens), tokens: tokens.length, finishReason: 'stop' };
    tokens.push(id);
    if (request.stop.length > 0) {
      const text = tokenizer.decode(tokens);
      const at = Math.min(
        ...request.stop.map((s) => (s === '' ? -1 : text.indexOf(s))).filter((i) => i >= 0),
      );
      if (Number.isFinite(at))
        return { text: text.slice(0, at), tokens: tokens.length, finishReason: 'stop' };
    }
  }
}

const masks = new WeakMap<Tokenizer, Uint32Array>();

/** Every id the tokenizer knows (the model's vocabulary is padded past it: never sample the padding). */
function textMask(tokenizer: Tokenizer): Uint32Array {
  let mask = masks.get(tokenizer);
  if (!mask) {
    const size = tokenizer.vocabulary.length;
    mask = new Uint32Array((size + 31) >>> 5);
    for (let id = 0; id < size; id++) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
    masks.set(tokenizer, mask);
  }
  return mask;
}
