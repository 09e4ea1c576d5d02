import { beforeAll, describe, expect, it } from 'vitest';
import { compileSchema, type DecoderVocabulary, isAllowed } from '../../../src/decoding/index.js';
import { TokenTrie } from '../../../src/decoding/vocabulary/token-trie.js';
import { isJsonWhitespace, WhitespaceRests } from '../../../src/decoding/vocabulary/whitespace-rests.js';
import { maskAfter, walkRandomSequences } from '../support/mask-against-walk.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';

// Free whitespace (flexible mode) is masked from what follows it and the vocabulary's table of
// whitespace-led tokens by rest (issue 45), not by a walk down every whitespace run of the trie. These
// hold that shortcut to the generic walk, at positions before values and after them.

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

const encoder = new TextEncoder();

/** Schemas whose whitespace comes before strings, numbers, literals, lists, objects and anyOf mixes. */
const SCHEMAS: readonly unknown[] = [
  {
    type: 'object',
    properties: {
      name: { type: 'string' },
      code: { type: 'string', pattern: '^[A-Z]{2}-[0-9]+$' },
      size: { type: 'integer', minimum: -5, maximum: 500 },
      ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      kind: { enum: ['a b', ' lead', 'x', 3, null] },
      tags: { type: 'array', items: { type: 'string', maxLength: 4 }, maxItems: 3 },
      owner: { type: 'object', properties: { id: { type: 'number' }, ok: { type: 'boolean' } } },
      any: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: 'null' } }] },
    },
  },
  {
    type: 'array',
    items: { anyOf: [{ type: 'object', properties: { v: { const: ' "q' } } }, { type: 'integer' }] },
  },
];

describe('free whitespace masked by the whitespace-led tokens table', () => {
  it('equals the generic walk at random positions (Qwen3)', () => {
    let atWhitespace = 0;
    for (const [i, schema] of SCHEMAS.entries()) {
      const grammar = compileSchema(schema, q.vocabulary, {
        whitespace: 'flexible',
        propertyOrder: 'any',
        precompute: { positions: 0 },
      });
      atWhitespace += walkRandomSequences(grammar, q.vocabulary, {
        seed: 45 + i,
        sequences: 16,
        steps: 40,
        // Half the time a whitespace-led token, so that whitespace positions and their variants are met.
        preferred: (id) => isJsonWhitespace((q.vocabulary.tokens[id] as Uint8Array)[0] ?? 0),
        preferShare: 0.5,
        counts: (_allowed, spaced) => spaced.length > 0,
      });
    }
    expect(atWhitespace).toBeGreaterThan(60);
  });

  it('allows whitespace-led tokens whose rest is no token, and whitespace alone, as the walk does', () => {
    // Appended to the real vocabulary: whitespace then a rest no token spells (an orphan), runs of
    // whitespace alone, and a rest that is a token only with its whitespace.
    const extra = [' "qz~', '\n  ]}', '  12', ' \t\n', '\r\n-0.', ' ,"'].map((text) => encoder.encode(text));
    const vocabulary: DecoderVocabulary = {
      tokens: [...q.vocabulary.tokens, ...extra],
      eosTokenIds: q.vocabulary.eosTokenIds,
      specialTokenIds: q.vocabulary.specialTokenIds ?? [],
    };
    const first = q.vocabulary.tokens.length;
    const rests = new WhitespaceRests(vocabulary, new TokenTrie(vocabulary));
    expect([...rests.whitespaceOnly]).toContain(first + 3);
    const schema = { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } };
    const grammar = compileSchema(schema, vocabulary, {
      whitespace: 'flexible',
      precompute: { positions: 0 },
    });
    const at = (text: string) => maskAfter(grammar, vocabulary, q.encode, text);
    const start = at('[');
    expect(isAllowed(start, first)).toBe(true); // ' "qz~': a string opened and left open
    expect(isAllowed(start, first + 2)).toBe(true); // '  12'
    expect(isAllowed(start, first + 4)).toBe(true); // '\r\n-0.'
    expect(isAllowed(start, first + 1)).toBe(false); // '\n  ]}': the list is closed, then nothing
    const afterValue = at('[1');
    expect(isAllowed(afterValue, first + 3)).toBe(true);
    expect(isAllowed(afterValue, first + 5)).toBe(true); // ' ,"': the next item, a string
    expect(isAllowed(afterValue, first)).toBe(false);
  });
});
