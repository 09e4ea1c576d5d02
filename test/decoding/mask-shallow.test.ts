import { beforeAll, describe, expect, it } from 'vitest';
import {
  allowedTokenIds,
  type CompileOptions,
  compileSchema,
  type DecoderVocabulary,
} from '../../src/decoding/index.js';
import { type Qwen3, qwen3 } from './qwen3.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

/** JSON Schema's own reading, as bench/maskbench.ts compiles: the positions MaskBench walks. */
const LOOSE: CompileOptions = {
  whitespace: 'flexible',
  propertyOrder: 'any',
  additionalProperties: 'allow',
};

/**
 * Schemas where one object or value shape sits at many depths and list positions (so masks are shared
 * between positions that agree only near the top of the stack), and where what follows a value does
 * depend on deep ancestors: a list that may hold no more items, unique items, an object that must still
 * get a required key, the end of the document.
 */
const SCHEMAS: ReadonlyArray<{
  name: string;
  schema: unknown;
  options: CompileOptions;
  documents: readonly string[];
}> = [
  {
    name: 'a tree of nodes (recursive reference), keys in any order',
    schema: {
      $ref: '#/definitions/node',
      definitions: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 6 },
            size: { type: 'integer', minimum: 0, maximum: 99 },
            children: { type: 'array', maxItems: 2, items: { $ref: '#/definitions/node' } },
          },
          required: ['name'],
        },
      },
    },
    options: LOOSE,
    documents: [
      '{"name": "a", "children": [{"name": "b", "size": 3}, {"size": 4, "name": "c", "children": [{"name": "d"}]}]}',
      '{"size": 1, "name": "e", "children": [{"name": "f", "children": [{"name": "g", "size": 5}, {"name": "h"}]}]}',
    ],
  },
  {
    name: 'lists of lists with bounds and unique items',
    schema: {
      type: 'object',
      properties: {
        rows: {
          type: 'array',
          minItems: 1,
          maxItems: 3,
          items: {
            type: 'array',
            maxItems: 2,
            uniqueItems: true,
            items: { enum: ['a', 'b', 1, 2.5, true] },
          },
        },
        tag: { const: 'x' },
      },
      required: ['rows', 'tag'],
      additionalProperties: false,
    },
    options: { ...LOOSE, additionalProperties: 'forbid' } as CompileOptions,
    documents: [
      '{"rows": [["a", 1], [2.5, true], ["b"]], "tag": "x"}',
      '{"tag": "x", "rows": [[1, "a"], [true]]}',
    ],
  },
  {
    name: 'objects in an array, each with required keys, strict whitespace',
    schema: {
      type: 'array',
      maxItems: 4,
      items: {
        type: 'object',
        properties: { id: { type: 'integer' }, note: { type: 'string' }, ok: { type: 'boolean' } },
        required: ['id', 'ok'],
      },
    },
    options: { propertyOrder: 'any', additionalProperties: 'allow' },
    documents: [
      '[{"id":1,"ok":true},{"id":2,"ok":false,"note":"n"},{"ok":true,"id":3},{"id":4,"ok":false}]',
      '[{"ok":false,"id":5,"x":[1,{"y":null}]},{"id":6,"ok":true}]',
    ],
  },
];

/** The ids where two masks differ, decoded, for a readable failure. */
function difference(vocabulary: DecoderVocabulary, a: Uint32Array, b: Uint32Array): string[] {
  const inA = new Set(allowedTokenIds(a));
  const inB = new Set(allowedTokenIds(b));
  const spell = (id: number) => JSON.stringify(new TextDecoder().decode(vocabulary.tokens[id]));
  return [
    ...[...inA].filter((id) => !inB.has(id)).map((id) => `+${spell(id)}`),
    ...[...inB].filter((id) => !inA.has(id)).map((id) => `-${spell(id)}`),
  ].slice(0, 12);
}

describe('masks shared by positions that agree near the top of the stack', () => {
  it('equal the generic trie walk wherever a position is answered from a shared entry', () => {
    let checked = 0;
    let shallowHits = 0;
    for (const { name, schema, options, documents } of SCHEMAS) {
      const grammar = compileSchema(schema, q.vocabulary, { ...options, precompute: { positions: 0 } });
      for (const document of documents) {
        const matcher = grammar.matcher();
        const ids = q.encode(document);
        for (let step = 0; step <= ids.length; step++) {
          const shared = grammar.stats.shallowHits;
          const mask = matcher.mask();
          // The reference walk is slow (the whole vocabulary, strings included): only where it matters.
          if (grammar.stats.shallowHits > shared && checked < 24) {
            const text = new TextDecoder().decode(
              new Uint8Array(ids.slice(0, step).flatMap((id) => [...(q.vocabulary.tokens[id] ?? [])])),
            );
            const reference = matcher.referenceMask();
            expect(
              difference(q.vocabulary, mask, reference),
              `${name} after ${JSON.stringify(text)}`,
            ).toEqual([]);
            checked++;
          }
          if (step < ids.length) expect(matcher.accept(ids[step] as number), document).toBe(true);
        }
        expect(matcher.isComplete(), document).toBe(true);
      }
      shallowHits += grammar.stats.shallowHits;
    }
    // The positions that differ only deeper down were answered from the shared entries.
    expect(shallowHits).toBeGreaterThan(20);
    expect(checked).toBe(Math.min(shallowHits, 24));
  });

  it('keep apart positions whose ancestors decide the mask: a full list refuses another item', () => {
    const grammar = compileSchema(
      { type: 'array', maxItems: 2, items: { type: 'array', maxItems: 2, items: { type: 'integer' } } },
      q.vocabulary,
      { precompute: { positions: 0 } },
    );
    const maskAfter = (text: string) => {
      const matcher = grammar.matcher();
      for (const id of q.encode(text)) expect(matcher.accept(id), text).toBe(true);
      return matcher.mask();
    };
    const comma = q.encode(',')[0] as number;
    const closeBoth = q.encode(']]')[0] as number;
    // After "1" in the first inner list, "],[" may follow; after it in the second, only "]]".
    const first = maskAfter('[[1');
    const second = maskAfter('[[0],[1');
    expect(grammar.stats.shallowHits + grammar.stats.misses).toBeGreaterThan(0);
    expect(first[comma >>> 5]).toBe(second[comma >>> 5]); // a second digit's comma: both allow it
    const bracketComma = q.encode('],')[0] as number;
    const bit = (mask: Uint32Array, id: number) => ((mask[id >>> 5] as number) >>> (id & 31)) & 1;
    expect(q.vocabulary.tokens[bracketComma]?.length).toBe(2);
    expect(bit(first, bracketComma)).toBe(1);
    expect(bit(second, bracketComma)).toBe(0);
    expect(bit(second, closeBoth)).toBe(1);
  });
});
