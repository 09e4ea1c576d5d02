import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CompiledGrammar,
  compileSchema,
  type SchemaCompileOptions,
  UnsupportedSchemaError,
} from '../../../src/decoding/index.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { expectAccepted, expectRefused } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

const compile = (schema: unknown, options?: SchemaCompileOptions): CompiledGrammar =>
  compileSchema(schema, q.vocabulary, options);

/** `{"n": ...}` where n's schema is reached through `ref`; the referenced schema says minimum 10. */
function expectMinimumTen(g: CompiledGrammar): void {
  expectAccepted(g, q, '{"n":10}');
  expectAccepted(g, q, '{"n":250}');
  expectRefused(g, q, '{"n":9}');
  expectRefused(g, q, '{"n":-3}');
  expectRefused(g, q, '{"n":"x"}');
}

const wrap = (ref: string, definitions: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...extra,
  type: 'object',
  properties: { n: { $ref: ref } },
  required: ['n'],
  additionalProperties: false,
  definitions,
});

describe('$ref: plain-name fragments and ids', () => {
  it('draft-04: "#name" names the subschema whose id is "#name"', () => {
    const schema = wrap(
      '#positive',
      { ten: { id: '#positive', type: 'integer', minimum: 10 } },
      { $schema: 'http://json-schema.org/draft-04/schema#' },
    );
    expectMinimumTen(compile(schema));
  });

  it('draft-04 id without $schema: "#name" still resolves through id (the plain-name form only)', () => {
    expectMinimumTen(compile(wrap('#positive', { ten: { id: '#positive', type: 'integer', minimum: 10 } })));
  });

  it('draft-06/07: "#name" resolves through $id: "#name"', () => {
    const schema = wrap(
      '#positive',
      { ten: { $id: '#positive', type: 'integer', minimum: 10 } },
      { $schema: 'http://json-schema.org/draft-07/schema#' },
    );
    expectMinimumTen(compile(schema));
  });

  it('2019-09 and later: "#name" resolves through $anchor', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { n: { $ref: '#positive' } },
      required: ['n'],
      additionalProperties: false,
      $defs: { ten: { $anchor: 'positive', type: 'integer', minimum: 10 } },
    };
    expectMinimumTen(compile(schema));
  });

  it('$id changes the base URI: a relative reference resolves against the nearest $id', () => {
    const schema = {
      $id: 'https://example.com/root.json',
      type: 'object',
      properties: { n: { $ref: 'number.json' } },
      required: ['n'],
      additionalProperties: false,
      $defs: {
        number: {
          $id: 'number.json',
          // Inside number.json, "#/$defs/ten" is number.json's own, not the root's (which says minimum 0).
          $ref: '#/$defs/ten',
          $defs: { ten: { type: 'integer', minimum: 10 } },
        },
        ten: { type: 'integer', minimum: 0 },
      },
    };
    expectMinimumTen(compile(schema));
  });

  it('an absolute URI with a pointer fragment names a place inside that resource', () => {
    const schema = {
      $id: 'https://example.com/root.json',
      type: 'object',
      properties: { n: { $ref: 'https://example.com/schemas/numbers.json#/$defs/ten' } },
      required: ['n'],
      additionalProperties: false,
      $defs: {
        numbers: { $id: '/schemas/numbers.json', $defs: { ten: { type: 'integer', minimum: 10 } } },
      },
    };
    expectMinimumTen(compile(schema));
  });

  it('an anchor inside another resource is named by that resource URI', () => {
    const schema = {
      $id: 'https://example.com/root.json',
      type: 'object',
      properties: { n: { $ref: 'other.json#ten' } },
      required: ['n'],
      additionalProperties: false,
      $defs: { other: { $id: 'other.json', $defs: { t: { $anchor: 'ten', type: 'integer', minimum: 10 } } } },
    };
    expectMinimumTen(compile(schema));
    // The same anchor name under the root's URI names nothing.
    const wrong = { ...schema, properties: { n: { $ref: '#ten' } } };
    expect(() => compile(wrong)).toThrow(UnsupportedSchemaError);
  });

  it('pointers from the root keep working when no id is declared, with escaped keys', () => {
    const schema = wrap('#/definitions/a~1b%20c', { 'a/b c': { type: 'integer', minimum: 10 } });
    expectMinimumTen(compile(schema));
  });

  it('a reference the document cannot resolve is refused, never read as "any value"', () => {
    for (const ref of ['#missing', '#/definitions/missing', 'other.json', 'https://example.com/x.json#/a']) {
      const schema = wrap(ref, { ten: { id: '#positive', type: 'integer', minimum: 10 } });
      expect(() => compile(schema), ref).toThrow(UnsupportedSchemaError);
    }
    // draft-07 does not read `id`: "#positive" names nothing there.
    const draft7 = wrap(
      '#positive',
      { ten: { id: '#positive', type: 'integer', minimum: 10 } },
      { $schema: 'http://json-schema.org/draft-07/schema#' },
    );
    expect(() => compile(draft7)).toThrow(/cannot resolve #positive/);
  });

  it('a "$ref" inside enum/const values is data, left as written', () => {
    const schema = { const: { $ref: '#nothing' } };
    expectAccepted(compile(schema, { whitespace: 'compact' }), q, '{"$ref":"#nothing"}');
  });

  it('the referenced constraint also applies where the compiler checks values (enum beside $ref)', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $ref: '#positive',
      enum: [5, 10, 20],
      $defs: { ten: { $anchor: 'positive', type: 'integer', minimum: 10 } },
    };
    const g = compile(schema);
    expectAccepted(g, q, '10');
    expectAccepted(g, q, '20');
    expectRefused(g, q, '5');
  });

  it('drafts 4 to 7: an $id beside $ref is ignored, as every sibling of $ref is', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://example.com/root.json',
      type: 'object',
      properties: { n: { $id: 'elsewhere.json', $ref: '#/definitions/ten' } },
      required: ['n'],
      additionalProperties: false,
      definitions: { ten: { type: 'integer', minimum: 10 } },
    };
    expectMinimumTen(compile(schema));
  });

  it('an anchor declared twice is refused only where a reference uses it', () => {
    const defs = { x: { $anchor: 'a', type: 'string' }, y: { $anchor: 'a', type: 'integer' } };
    expectAccepted(compile({ type: 'integer', $defs: defs }), q, '3');
  });

  it('two subschemas declaring the same anchor are refused', () => {
    const schema = {
      $ref: '#a',
      $defs: { x: { $anchor: 'a', type: 'string' }, y: { $anchor: 'a', type: 'integer' } },
    };
    expect(() => compile(schema)).toThrow(UnsupportedSchemaError);
  });
});
