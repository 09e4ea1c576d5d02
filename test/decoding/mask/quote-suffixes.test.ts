import { beforeAll, describe, expect, it } from 'vitest';
import { LARGE_OBJECT_NAMES } from '../../../bench/shared/large-object-names.js';
import { compileSchema, type DecoderVocabulary, isAllowed } from '../../../src/decoding/index.js';
import { QuoteSuffixes } from '../../../src/decoding/vocabulary/quote-suffixes.js';
import { TokenTrie } from '../../../src/decoding/vocabulary/token-trie.js';
import { maskAfter, walkRandomSequences } from '../support/mask-against-walk.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';

// Inside a string, the tokens holding a quote are allowed by their bytes before the first quote (read
// by the string) and their suffix from it (read by what follows), the suffix looked up in a walk of
// the suffix trie made once per set of positions after the quote (issue 45). These hold that shortcut
// to the generic walk inside keys and string values.

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

const encoder = new TextEncoder();
const QUOTE = 0x22;

/**
 * An object of 40 properties that allows any other key (a key closes by its name alone, so the quote
 * tokens come from the vocabulary's list of texts before a quote, `QuotePrefixes`): names that are
 * common tokens, values of different kinds, so a closing quote's name decides what may follow it.
 */
const LARGE_OPEN_OBJECT = {
  type: 'object',
  properties: Object.fromEntries(
    LARGE_OBJECT_NAMES.map((name, i) => [
      name,
      [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: 'object' }][i % 4],
    ]),
  ),
  required: ['id'],
};

/** Schemas with free and constrained string values, keys of small and open objects, and lists. */
const SCHEMAS: readonly unknown[] = [
  {
    type: 'object',
    properties: {
      name: { type: 'string' },
      code: { type: 'string', pattern: '^[A-Z]{2}-[0-9]+$' },
      short: { type: 'string', maxLength: 3 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      owner: { type: 'object', properties: { id: { type: 'number' }, note: { type: 'string' } } },
    },
  },
  { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
  { type: 'array', items: { type: 'string', minLength: 2 } },
];

describe('quote tokens masked by their suffix after the first quote', () => {
  it('splits every quote token into its bytes before the first quote and a suffix from it (Qwen3)', () => {
    const quotes = new TokenTrie(q.vocabulary, (bytes) => bytes.includes(QUOTE));
    const split = new QuoteSuffixes(quotes, q.vocabulary.tokens);
    const suffixBytes: Uint8Array[] = [];
    for (let node = 1; node < split.suffixes.nodeCount; node++) {
      const sid = split.suffixes.token[node] as number;
      if (sid < 0) continue;
      const bytes: number[] = [];
      // Rebuild the suffix from its path: scanning back in preorder, each ancestor is the first node
      // one level up.
      for (let at = node, d = split.suffixes.depth[node] as number; d > 0; at--) {
        if ((split.suffixes.depth[at] as number) !== d) continue;
        bytes.unshift(split.suffixes.byte[at] as number);
        d--;
      }
      suffixBytes[sid] = Uint8Array.from(bytes);
    }
    let checked = 0;
    for (let node = 1; node < quotes.nodeCount; node++) {
      const id = quotes.token[node] as number;
      if (id < 0) continue;
      const bytes = q.vocabulary.tokens[id] as Uint8Array;
      const sid = split.suffixOf[node] as number;
      expect(sid, JSON.stringify(new TextDecoder().decode(bytes))).toBeGreaterThanOrEqual(0);
      expect([...(suffixBytes[sid] as Uint8Array)]).toEqual([...bytes.subarray(bytes.indexOf(QUOTE))]);
      checked++;
    }
    expect(checked).toBe(
      q.vocabulary.tokens.filter((t, id) => t.includes(QUOTE) && quotes.find(t) >= 0 && id >= 0).length,
    );
    expect(split.suffixes.byte[split.quoteNode]).toBe(QUOTE);
  });

  /** Random sequences through `schema` (mostly tokens without a quote, so that they stay inside strings
   * for a while), held to the generic walk; returns the positions inside a string where some quote
   * token is allowed. */
  const walkInsideStrings = (schema: unknown, seed: number, sequences: number, open: boolean): number =>
    walkRandomSequences(
      compileSchema(schema, q.vocabulary, {
        whitespace: open ? 'compact' : 'flexible',
        propertyOrder: 'any',
        // Open objects (any other key, so keys close by the name they spell: `QuotePrefixes`).
        additionalProperties: open ? 'allow' : 'forbid',
        precompute: { positions: 0 },
      }),
      q.vocabulary,
      {
        seed,
        sequences,
        steps: 25,
        preferred: (id) => !(q.vocabulary.tokens[id] as Uint8Array).includes(QUOTE),
        preferShare: 0.7,
        counts: (allowed, plain) => plain.length > 1000 && allowed.length > plain.length,
      },
    );

  it('equals the generic walk at random positions inside keys and strings (Qwen3)', () => {
    let inside = 0;
    for (const [i, schema] of SCHEMAS.entries()) {
      for (const open of [false, true]) inside += walkInsideStrings(schema, 4500 + i, 8, open);
    }
    expect(inside).toBeGreaterThan(40);
    // Each position is checked against the generic walk over the whole vocabulary: about 30 s alone,
    // so more than the suite's 60 s when CI's workers share two cores.
  }, 180_000);

  it('equals the generic walk inside the keys and values of a 40-property open object (Qwen3)', () => {
    expect(walkInsideStrings(LARGE_OPEN_OBJECT, 4503, 5, true)).toBeGreaterThan(10);
  }, 180_000);

  it('allows a token by its suffix where an earlier prefix met the same positions, as the walk does', () => {
    // Appended to the real vocabulary: tokens whose prefixes sort after many real ones (so the positions
    // after their quote were met before, and their suffix is read from the suffix trie), with suffixes
    // allowed after a string value, refused there, and one no real token has.
    // The last two hold an escaped quote: read inside a string, then closing it after more text.
    const extra = ['zzq",', 'zzr"}', 'zzs":', 'zzt"]', 'zzu"}~', 'zzv",\n', 'zzw\\"', 'zzx\\"y"}'].map(
      (text) => encoder.encode(text),
    );
    const vocabulary: DecoderVocabulary = {
      tokens: [...q.vocabulary.tokens, ...extra],
      eosTokenIds: q.vocabulary.eosTokenIds,
      specialTokenIds: q.vocabulary.specialTokenIds ?? [],
    };
    const first = q.vocabulary.tokens.length;
    const schema = { type: 'object', properties: { name: { type: 'string' }, n: { type: 'number' } } };
    const grammar = compileSchema(schema, vocabulary, {
      whitespace: 'flexible',
      precompute: { positions: 0 },
    });
    const at = (text: string) => maskAfter(grammar, vocabulary, q.encode, text);
    const value = at('{"name": "ab');
    expect(isAllowed(value, first)).toBe(true); // 'zzq",'
    expect(isAllowed(value, first + 1)).toBe(true); // 'zzr"}'
    expect(isAllowed(value, first + 2)).toBe(false); // 'zzs":'
    expect(isAllowed(value, first + 3)).toBe(false); // 'zzt"]'
    expect(isAllowed(value, first + 4)).toBe(false); // 'zzu"}~': past the end of the document
    expect(isAllowed(value, first + 5)).toBe(true); // 'zzv",\n': whitespace before the next key
    expect(isAllowed(value, first + 6)).toBe(true); // 'zzw\"': stays inside
    expect(isAllowed(value, first + 7)).toBe(true); // 'zzx\"y"}': closes after the escaped quote
    const key = at('{"na');
    expect(isAllowed(key, first + 2)).toBe(false); // 'zzs":': no key "nazzs"
    expect(isAllowed(key, first)).toBe(false);
    expect(isAllowed(key, first + 6)).toBe(false); // no key "nazzw\"..." (the object's keys are named)
  });

  it('closes a free key by the name its text spells, escapes and UTF-8 decoded, as the walk does', () => {
    // Appended tokens whose text before the quote spells a declared name (directly, by an escape, or
    // not at all), then suffixes that reach into the value: a key that `closesByName` reads them from the
    // vocabulary's list of texts (`QuotePrefixes`) and its name trie, not by stepping the key.
    const extra = [
      'count":"', // count is an integer: no string may follow
      'count": 1',
      'name":"',
      '\\u0061b":t', // the key "ab" (a boolean) by an escape
      'ab":"',
      'é":"', // an undeclared key: any value
      'x\\"y":', // an escaped quote, then the key closes
      'zzq"',
    ].map((text) => encoder.encode(text));
    const vocabulary: DecoderVocabulary = {
      tokens: [...q.vocabulary.tokens, ...extra],
      eosTokenIds: q.vocabulary.eosTokenIds,
      specialTokenIds: q.vocabulary.specialTokenIds ?? [],
    };
    const first = q.vocabulary.tokens.length;
    const schema = {
      type: 'object',
      properties: { count: { type: 'integer' }, name: { type: 'string' }, ab: { type: 'boolean' } },
    };
    const grammar = compileSchema(schema, vocabulary, {
      whitespace: 'compact',
      propertyOrder: 'any',
      additionalProperties: 'allow',
      precompute: { positions: 0 },
    });
    const at = (text: string) => {
      const mask = maskAfter(grammar, vocabulary, q.encode, text);
      return (k: number) => isAllowed(mask, first + k);
    };
    const start = at('{"');
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(start)).toEqual([false, false, true, true, false, true, true, true]);
    // "count" is written: its name is blocked, so closing on it is refused; other keys still close.
    const second = at('{"count":1,"');
    expect([0, 1, 2, 3, 4, 5].map(second)).toEqual([false, false, true, true, false, true]);
    // Inside a key already off every name: every text closes onto an undeclared key.
    const off = at('{"qq');
    expect([0, 2, 4, 5, 7].map(off)).toEqual([true, true, true, true, true]);
  });
});
