import { expect } from 'vitest';
import {
  allowedTokenIds,
  type CompiledGrammar,
  type DecoderVocabulary,
} from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { referenceMask } from '../../../src/decoding/testing/reference-mask.js';
import { Random } from '../../../src/internal/random.js';

/**
 * The mask after `text` (encoded by `encode`, every token accepted), held to the generic walk's mask
 * there (`referenceMask`) before it is returned.
 */
export function maskAfter(
  grammar: CompiledGrammar,
  vocabulary: DecoderVocabulary,
  encode: (text: string) => number[],
  text: string,
): Uint32Array {
  const matcher = new GrammarMatcher(grammar);
  for (const id of encode(text)) expect(matcher.accept(id), text).toBe(true);
  const mask = matcher.mask();
  expect(maskDifference(vocabulary, mask, referenceMask(matcher)), text).toEqual([]);
  return mask;
}

/** The ids where two masks differ, spelt, for a readable failure. */
export function maskDifference(vocabulary: DecoderVocabulary, a: Uint32Array, b: Uint32Array): string[] {
  const inA = new Set(allowedTokenIds(a));
  const inB = new Set(allowedTokenIds(b));
  const spell = (id: number) => JSON.stringify(new TextDecoder().decode(vocabulary.tokens[id]));
  return [
    ...[...inA].filter((id) => !inB.has(id)).map((id) => `+${spell(id)}`),
    ...[...inB].filter((id) => !inA.has(id)).map((id) => `-${spell(id)}`),
  ].slice(0, 12);
}

/** How `walkRandomSequences` draws its sequences and which positions it counts. */
export interface RandomSequenceOptions {
  seed: number;
  sequences: number;
  steps: number;
  /** Tokens drawn `preferShare` of the time when any is allowed, so that the positions under test are met. */
  preferred: (id: number) => boolean;
  preferShare: number;
  /** Whether a position is one the caller tests (its allowed ids, the preferred ones among them). */
  counts: (allowed: readonly number[], preferred: readonly number[]) => boolean;
}

/**
 * Random sequences through `grammar`: at each position the mask must equal the generic walk's
 * (`referenceMask`); the next token is drawn from it, preferring `preferred` ones. Returns how many
 * positions `counts` accepted, so a test can say that its shortcut was really exercised.
 */
export function walkRandomSequences(
  grammar: CompiledGrammar,
  vocabulary: DecoderVocabulary,
  options: RandomSequenceOptions,
): number {
  const random = new Random(options.seed);
  const eos = new Set(vocabulary.eosTokenIds);
  let counted = 0;
  for (let s = 0; s < options.sequences; s++) {
    const matcher = new GrammarMatcher(grammar);
    const spelled: number[] = [];
    for (let step = 0; step < options.steps && !matcher.isTerminated(); step++) {
      const mask = matcher.mask();
      const reference = referenceMask(matcher);
      const text = new TextDecoder().decode(new Uint8Array(spelled));
      expect(maskDifference(vocabulary, mask, reference), `after ${JSON.stringify(text)}`).toEqual([]);
      const allowed = allowedTokenIds(mask).filter((id) => !eos.has(id));
      if (allowed.length === 0) break;
      const preferred = allowed.filter(options.preferred);
      if (options.counts(allowed, preferred)) counted++;
      const id = random.pick(
        preferred.length > 0 && random.bernoulli(options.preferShare) ? preferred : allowed,
      );
      expect(matcher.accept(id)).toBe(true);
      spelled.push(...(vocabulary.tokens[id] ?? []));
    }
  }
  return counted;
}
