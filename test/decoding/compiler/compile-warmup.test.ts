import { describe, expect, it } from 'vitest';
import { WARMUP_DOCUMENTS, WARMUP_SCHEMA } from '../../../src/decoding/compiler/compile-warmup.js';
import { GrammarCompiler } from '../../../src/decoding/compiler/grammar-compiler.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { qwen3 } from '../support/qwen3.js';

describe('the compiler warm-up', () => {
  it('decodes documents of its schema to the end (else it would stop early and warm less)', async () => {
    const { vocabulary, encode } = await qwen3();
    const compiler = new GrammarCompiler(vocabulary, { warmUp: false });
    const grammar = compiler.compile(WARMUP_SCHEMA);
    for (const document of WARMUP_DOCUMENTS) {
      const matcher = new GrammarMatcher(grammar);
      for (const id of encode(document)) expect(matcher.accept(id), document).toBe(true);
      expect(matcher.isComplete(), document).toBe(true);
    }
  });

  it('leaves nothing in the compiler it warms: its grammars, patterns and inside masks are its own', async () => {
    const { vocabulary } = await qwen3();
    const cold = new GrammarCompiler({ ...vocabulary }, { warmUp: false });
    const warm = new GrammarCompiler({ ...vocabulary });
    expect(warm.memory()).toEqual(cold.memory());
    expect(warm.memory().grammars).toBe(0);
    // And the warmed compiler's masks are those of the cold one.
    const schema = { type: 'object', properties: { n: { type: 'integer', maximum: 9 } }, required: ['n'] };
    const a = new GrammarMatcher(warm.compile(schema));
    const b = new GrammarMatcher(cold.compile(schema));
    expect(a.mask()).toEqual(b.mask());
  });
});
