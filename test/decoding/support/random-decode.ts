import { expect } from 'vitest';
import type { CompiledGrammar } from '../../../src/decoding/index.js';
import { isAllowed } from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import type { Random } from '../../../src/internal/random.js';
import type { Qwen3 } from './qwen3.js';

/**
 * Decodes by picking uniformly among the allowed tokens until the document may end (then ending at
 * random) or `maxTokens` are spent. Fails the test if a position allows no token at all: the grammar
 * promised a completion.
 */
export function randomDecode(
  grammar: CompiledGrammar,
  q: Qwen3,
  random: Random,
  maxTokens = 120,
): { text: string; complete: boolean } {
  const matcher = new GrammarMatcher(grammar);
  const eos = q.vocabulary.eosTokenIds[0] as number;
  const ids: number[] = [];
  for (let step = 0; step < maxTokens; step++) {
    const mask = matcher.mask();
    const allowed: number[] = [];
    for (let id = 0; id < q.vocabulary.tokens.length; id++) {
      if (id !== eos && isAllowed(mask, id)) allowed.push(id);
    }
    const canEnd = isAllowed(mask, eos);
    expect(allowed.length > 0 || canEnd, `dead end after ${JSON.stringify(text(q, ids))}`).toBe(true);
    if (canEnd && (allowed.length === 0 || random.next() < 0.3)) break;
    const id = random.pick(allowed);
    expect(matcher.accept(id)).toBe(true);
    ids.push(id);
  }
  return { text: text(q, ids), complete: matcher.isComplete() };
}

function text(q: Qwen3, ids: number[]): string {
  const bytes = ids.flatMap((id) => [...(q.vocabulary.tokens[id] as Uint8Array)]);
  return new TextDecoder().decode(new Uint8Array(bytes));
}
