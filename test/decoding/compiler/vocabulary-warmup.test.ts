import { describe, expect, it, vi } from 'vitest';
import { compileSchema, GrammarCompiler } from '../../../src/decoding/compiler/grammar-compiler.js';
import { StringLeaf } from '../../../src/decoding/grammar/string-leaf.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { referenceMask } from '../../../src/decoding/testing/reference-mask.js';
import { maskWords } from '../../../src/decoding/vocabulary/vocabulary.js';
import { qwen3 } from '../support/qwen3.js';

describe('prepareVocabulary', () => {
  it('computes the free-form string mask once per vocabulary, before any schema needs it', async () => {
    const { vocabulary } = await qwen3();
    // A vocabulary object of its own: the token index and its warm-up are per object.
    const fresh = { ...vocabulary };
    const compiler = new GrammarCompiler(fresh);
    const trie = compiler.trie;
    const words = maskWords(fresh.tokens.length);
    const computed = vi.spyOn(StringLeaf.prototype, 'insideMask');
    try {
      // A message-like string: bounds far off, no pattern; it reads the shared free-string mask.
      const message = new StringLeaf(7, { minLength: 1, maxLength: 2000, pattern: null, collect: false });
      const opened = message.step(message.initial(), 0x22);
      const cached = compiler.inside.mask(message, opened);
      expect(computed).not.toHaveBeenCalled();
      computed.mockRestore();
      const direct = new Uint32Array(words);
      message.insideMask(opened, trie, direct);
      expect(cached).toEqual(direct);
    } finally {
      computed.mockRestore();
    }
  });

  it('leaves the first mask inside a message to the cache', async () => {
    const { vocabulary, encode } = await qwen3();
    const fresh = { ...vocabulary };
    const grammar = compileSchema(
      { type: 'object', properties: { message: { type: 'string', maxLength: 500 } }, required: ['message'] },
      fresh,
      { warm: false },
    );
    const matcher = new GrammarMatcher(grammar);
    for (const id of encode('{"message":"')) expect(matcher.accept(id)).toBe(true);
    const computed = vi.spyOn(StringLeaf.prototype, 'insideMask');
    try {
      const mask = matcher.mask();
      expect(computed).not.toHaveBeenCalled();
      expect(mask).toEqual(referenceMask(matcher));
    } finally {
      computed.mockRestore();
    }
  });
});
