import { describe, expect, it } from 'vitest';
import { compileSchema, decodeConstrained, TokenSampler } from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { qwen3 } from '../support/qwen3.js';

// decodeConstrained promises a complete document whatever the budget: near the end it follows
// `completionBytes()`. The newer grammar shapes (objects in any order choosing a value's schema by the
// key, patterns, formats, intersections) must keep that promise from every position, including the
// middle of a key or of a `\u` escape. Random logits with tight budgets stop at such positions.
const schemas: Array<[string, unknown, (value: Record<string, unknown>) => boolean]> = [
  [
    'allOf parts, a date, a postcode pattern, x- keys, any order',
    {
      allOf: [
        {
          type: 'object',
          properties: {
            price: { type: 'number', minimum: 1, maximum: 500, multipleOf: 0.5 },
            pickup: { type: 'string', format: 'date' },
          },
          required: ['price', 'pickup'],
        },
        {
          properties: { postcode: { type: 'string', pattern: '^[0-9]{5}$' } },
          required: ['postcode'],
          patternProperties: { '^x-': { type: 'string', maxLength: 12 } },
        },
      ],
    },
    (v) =>
      typeof v.price === 'number' &&
      (v.price * 2) % 1 === 0 &&
      /^\d{4}-\d{2}-\d{2}$/.test(String(v.pickup)) &&
      /^[0-9]{5}$/.test(String(v.postcode)) &&
      Object.keys(v).every((k) => ['price', 'pickup', 'postcode'].includes(k) || k.startsWith('x-')),
  ],
  [
    'additional properties with a schema, min and max properties',
    {
      type: 'object',
      properties: { id: { type: 'string', format: 'uuid' } },
      required: ['id'],
      additionalProperties: { type: 'integer', minimum: 0 },
      minProperties: 2,
      maxProperties: 3,
    },
    (v) =>
      Object.keys(v).length >= 2 &&
      Object.keys(v).length <= 3 &&
      Object.entries(v).every(([k, x]) => k === 'id' || (Number.isInteger(x) && (x as number) >= 0)),
  ],
];

describe('a complete, valid document at any budget', () => {
  it.each(schemas)('%s', async (_, schema, check) => {
    const q = await qwen3();
    const grammar = compileSchema(schema, q.vocabulary, { propertyOrder: 'any' });
    const logits = new Float32Array(q.vocabulary.tokens.length);
    for (let seed = 1; seed <= 16; seed++) {
      let state = seed;
      const result = await decodeConstrained({
        grammar,
        sampler: new TokenSampler({ seed }),
        encode: (text) => q.encode(text),
        maxTokens: 4 + (seed % 13) * 3,
        nextLogits: () => {
          for (let i = 0; i < logits.length; i++) {
            state = (Math.imul(state, 1103515245) + 12345) >>> 0;
            logits[i] = (state / 2 ** 32) * 8;
          }
          return logits;
        },
      });
      const value = JSON.parse(result.text) as Record<string, unknown>;
      expect(check(value), result.text).toBe(true);
    }
  });

  it('completes from inside keys, escapes and values of an object read in any order', async () => {
    const q = await qwen3();
    const [, schema, check] = schemas[0] as (typeof schemas)[number];
    const grammar = compileSchema(schema, q.vocabulary, { propertyOrder: 'any' });
    const prefixes = [
      '{"pickup":"3893-12-09","price":77,',
      '{"price":77,"',
      '{"pick\\u0075',
      '{"pickup":"2024-02-',
      '{"x-note":"hi","postcode":"123',
      '{"postcode":"12345","pickup":"3893\\u002',
    ];
    for (const prefix of prefixes) {
      const matcher = new GrammarMatcher(grammar);
      for (const id of q.encode(prefix)) expect(matcher.accept(id), prefix).toBe(true);
      const text = prefix + new TextDecoder().decode(matcher.completionBytes());
      expect(check(JSON.parse(text) as Record<string, unknown>), text).toBe(true);
    }
  });
});
