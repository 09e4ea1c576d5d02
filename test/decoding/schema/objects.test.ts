import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CompiledGrammar,
  compileSchema,
  type SchemaCompileOptions,
  UnsatisfiableSchemaError,
  UnsupportedSchemaError,
} from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { expectAccepted, expectPrefixAccepted, expectPrefixRefused, expectRefused } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

/** The options a JSON Schema validator's reading needs (MaskBench's instances). */
const validatorLike: SchemaCompileOptions = {
  whitespace: 'flexible',
  propertyOrder: 'any',
  additionalProperties: 'allow',
};
const compile = (schema: unknown, options: SchemaCompileOptions = validatorLike): CompiledGrammar =>
  compileSchema(schema, q.vocabulary, options);

/** Walks the shortest completion from the start: it must be a whole document the grammar accepts. */
function expectCompletable(grammar: CompiledGrammar): string {
  const matcher = new GrammarMatcher(grammar);
  const text = new TextDecoder().decode(matcher.completionBytes());
  expectAccepted(grammar, q, text);
  return text;
}

describe("propertyOrder: 'any'", () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'string' }, c: { type: 'boolean' } },
    required: ['a', 'c'],
    additionalProperties: false,
  };
  const g = () => compile(schema);

  it('accepts declared keys in any order, optional ones left out', () => {
    expectAccepted(g(), q, '{"c": true, "a": 1}');
    expectAccepted(g(), q, '{"b": "x", "c": false, "a": 2}');
    expectAccepted(g(), q, '{"a":1,"b":"x","c":true}');
  });

  it('refuses a repeated key, a missing required key, an undeclared key and a wrong value', () => {
    expectPrefixRefused(g(), q, '{"a": 1, "a": 2');
    expectPrefixRefused(g(), q, '{"a": 1, "\\u0061": 2');
    expectRefused(g(), q, '{"a": 1}');
    expectPrefixRefused(g(), q, '{"a": 1, "c": true, "d": 1}');
    expectPrefixRefused(g(), q, '{"c": 1');
  });

  it('offers no separator once every key is used', () => {
    expectPrefixRefused(g(), q, '{"a": 1, "b": "x", "c": true,');
    expectAccepted(g(), q, '{"a": 1, "b": "x", "c": true}');
  });

  it('decodes escaped keys to the name they spell', () => {
    expectAccepted(g(), q, '{"\\u0061": 1, "c": true}');
    expectPrefixRefused(g(), q, '{"\\u0064": 1');
  });
});

describe('additionalProperties', () => {
  it('as a schema: undeclared keys take its values, declared ones their own', () => {
    const g = compile({
      type: 'object',
      properties: { name: { type: 'string' } },
      additionalProperties: { type: 'integer' },
    });
    expectAccepted(g, q, '{"name": "x", "count": 3, "size": 4}');
    expectAccepted(g, q, '{"count": 3, "name": "x"}');
    expectPrefixRefused(g, q, '{"count": "three"');
    expectPrefixRefused(g, q, '{"name": 3');
  });

  it('as a schema in schema order: extra keys only after the declared ones', () => {
    const g = compile(
      {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a'],
        additionalProperties: { type: 'string' },
      },
      {},
    );
    expectAccepted(g, q, '{"a":1,"b":2,"x":"y"}');
    expectAccepted(g, q, '{"a":1,"x":"y"}');
    expectPrefixRefused(g, q, '{"x":"y"');
    expectPrefixRefused(g, q, '{"a":1,"x":"y","b":2');
    expectPrefixRefused(g, q, '{"a":1,"x":1');
  });

  it("the 'allow' default admits any undeclared key, with any value", () => {
    const g = compile({ type: 'object', properties: { a: { type: 'integer' } } });
    expectAccepted(g, q, '{"z": [1, {"k": null}], "a": 1, "日本": "x"}');
    expectPrefixRefused(g, q, '{"a": "x"');
    expectPrefixRefused(g, q, '{"a": 1, "a"');
  });

  it("the 'forbid' default keeps undeclared keys out, and the turn-style grammar unchanged", () => {
    const g = compile(
      { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a'] },
      {},
    );
    expectAccepted(g, q, '{"a":1,"b":2}');
    expectPrefixRefused(g, q, '{"b":2,"a"');
    expectPrefixRefused(g, q, '{"a":1,"c"');
  });
});

describe('patternProperties', () => {
  const schema = {
    type: 'object',
    properties: { id: { type: 'integer' } },
    patternProperties: { '^x-': { type: 'string' }, '^n_[0-9]+$': { type: 'number' } },
    additionalProperties: false,
  };

  it('a key matching a pattern takes its schema', () => {
    const g = compile(schema);
    expectAccepted(g, q, '{"x-a": "s", "id": 1, "n_12": 1.5}');
    expectPrefixRefused(g, q, '{"x-a": 1');
    expectPrefixRefused(g, q, '{"n_1": "s"');
  });

  it('refuses keys that match no pattern when additionalProperties is false, at the first wrong character', () => {
    const g = compile(schema);
    expectPrefixRefused(g, q, '{"y');
    expectPrefixRefused(g, q, '{"n_a');
    expectRefused(g, q, '{"n_": 1}');
    expectPrefixAccepted(g, q, '{"n_');
  });

  it('keys matching no pattern fall to additionalProperties', () => {
    const g = compile({
      type: 'object',
      patternProperties: { '^s_': { type: 'string' } },
      additionalProperties: { type: 'boolean' },
    });
    expectAccepted(g, q, '{"s_a": "x", "other": true}');
    expectPrefixRefused(g, q, '{"other": "x"');
    expectPrefixRefused(g, q, '{"s_a": true');
  });

  it('a declared key that matches a pattern needs both schemas: refused unless one is trivial', () => {
    expect(() =>
      compile({
        type: 'object',
        properties: { x_a: { type: 'integer' } },
        patternProperties: { '^x_': { type: 'string' } },
      }),
    ).toThrow(UnsupportedSchemaError);
    const g = compile({
      type: 'object',
      properties: { x_a: { type: 'integer' } },
      patternProperties: { '^x_': {} },
    });
    expectAccepted(g, q, '{"x_a": 1, "x_b": "any"}');
    expectPrefixRefused(g, q, '{"x_a": "s"');
  });

  it('a pattern whose schema admits nothing forbids the few keys it matches', () => {
    const g = compile({
      type: 'object',
      patternProperties: { '^\\w+$': {}, '^(links|meta)$': { not: {} } },
      additionalProperties: false,
    });
    expectAccepted(g, q, '{"title": 1, "linksx": 2}');
    expectRefused(g, q, '{"links": 1}');
    expectPrefixRefused(g, q, '{"meta":');
    expect(() =>
      compile({ type: 'object', patternProperties: { '^x': false }, additionalProperties: true }),
    ).toThrow(UnsupportedSchemaError);
  });

  it('two patterns with different schemas are refused', () => {
    expect(() =>
      compile({
        type: 'object',
        patternProperties: { a: { type: 'string' }, b: { type: 'integer' } },
      }),
    ).toThrow(UnsupportedSchemaError);
    // Patterns that share no key may have different schemas.
    const g = compile({
      type: 'object',
      patternProperties: { '^s_': { type: 'string' }, '^i_': { type: 'integer' } },
    });
    expectAccepted(g, q, '{"s_a": "x", "i_b": 2}');
    expectPrefixRefused(g, q, '{"i_b": "x"');
  });

  it('a pattern whose only matches are used names leaves no dead end', () => {
    const g = compile({
      type: 'object',
      properties: { ab: { type: 'integer' } },
      patternProperties: { '^(ab|cd)$': { type: 'integer' } },
      additionalProperties: false,
    });
    expectAccepted(g, q, '{"ab": 1, "cd": 2}');
    expectPrefixRefused(g, q, '{"ab": 1, "a');
    expectCompletable(g);
  });
});

describe('minProperties and maxProperties', () => {
  it('count declared and undeclared keys', () => {
    const g = compile({ type: 'object', minProperties: 2, maxProperties: 3 });
    expectAccepted(g, q, '{"a": 1, "b": 2}');
    expectAccepted(g, q, '{"a": 1, "b": 2, "c": 3}');
    expectRefused(g, q, '{"a": 1}');
    expectRefused(g, q, '{}');
    expectPrefixRefused(g, q, '{"a": 1, "b": 2, "c": 3,');
  });

  it('a repeated undeclared key is not a new property', () => {
    const g = compile({ type: 'object', minProperties: 2 });
    expectPrefixRefused(g, q, '{"a": 1, "a": 2');
    expectAccepted(g, q, '{"a": 1, "ab": 2}');
  });

  it('with declared keys only, maxProperties stops the separator and required keys keep their room', () => {
    const g = compile({
      type: 'object',
      properties: { a: {}, b: {}, c: {} },
      required: ['c'],
      additionalProperties: false,
      maxProperties: 2,
    });
    expectAccepted(g, q, '{"a": 1, "c": 2}');
    expectPrefixRefused(g, q, '{"a": 1, "b"');
    expectPrefixRefused(g, q, '{"a": 1, "c": 2,');
  });

  it('impossible counts are unsatisfiable', () => {
    expect(() => compile({ type: 'object', minProperties: 3, maxProperties: 2 })).toThrow(
      UnsatisfiableSchemaError,
    );
    expect(() =>
      compile({ type: 'object', properties: { a: {} }, additionalProperties: false, minProperties: 2 }),
    ).toThrow(UnsatisfiableSchemaError);
  });
});

describe('required keys without a declaration, and properties that are false', () => {
  it('a required key only in `required` must appear, with any value', () => {
    const g = compile({ type: 'object', properties: { a: { type: 'integer' } }, required: ['id'] });
    expectAccepted(g, q, '{"id": [1]}');
    expectAccepted(g, q, '{"a": 1, "id": "x"}');
    expectRefused(g, q, '{"a": 1}');
  });

  it('its value follows patternProperties when a pattern matches it', () => {
    const g = compile({
      type: 'object',
      patternProperties: { '^i': { type: 'string' } },
      additionalProperties: false,
      required: ['id'],
    });
    expectAccepted(g, q, '{"id": "x"}');
    expectPrefixRefused(g, q, '{"id": 1');
  });

  it('a property whose schema is false must not appear', () => {
    const g = compile({ type: 'object', properties: { a: { type: 'integer' }, secret: false } });
    expectAccepted(g, q, '{"a": 1, "secrets": 2}');
    expectRefused(g, q, '{"secret": 1}');
    expectPrefixRefused(g, q, '{"secret":');
    expect(() => compile({ type: 'object', properties: { a: false }, required: ['a'] })).toThrow(
      UnsatisfiableSchemaError,
    );
  });
});

describe('dependencies', () => {
  it('the list form: a key present needs the keys it lists', () => {
    for (const keyword of ['dependencies', 'dependentRequired']) {
      const g = compile({
        type: 'object',
        properties: { card: { type: 'string' }, address: { type: 'string' } },
        [keyword]: { card: ['address'] },
        additionalProperties: false,
      });
      expectAccepted(g, q, '{"card": "x", "address": "y"}');
      expectAccepted(g, q, '{"address": "y"}');
      expectRefused(g, q, '{"card": "x"}');
    }
  });

  it('with maxProperties, a key whose dependencies would not fit is refused', () => {
    const g = compile({
      type: 'object',
      properties: { a: {}, b: {}, c: {} },
      dependentRequired: { a: ['b', 'c'] },
      maxProperties: 2,
      additionalProperties: false,
    });
    expectPrefixRefused(g, q, '{"a"');
    expectAccepted(g, q, '{"b": 1, "c": 2}');
  });

  it('the schema form is refused unless trivial', () => {
    expect(() => compile({ type: 'object', dependencies: { a: { required: ['b'] } } })).toThrow(
      UnsupportedSchemaError,
    );
    expect(() => compile({ type: 'object', dependentSchemas: { a: true } })).not.toThrow();
  });
});

describe('propertyNames', () => {
  it('pattern', () => {
    const g = compile({ type: 'object', propertyNames: { pattern: '^[a-z]+$' } });
    expectAccepted(g, q, '{"abc": 1, "de": 2}');
    expectPrefixRefused(g, q, '{"aB');
    expectRefused(g, q, '{"": 1}');
  });

  it('minLength and maxLength, counted in characters', () => {
    const g = compile({ type: 'object', propertyNames: { minLength: 2, maxLength: 3 } });
    expectAccepted(g, q, '{"ab": 1, "日本語": 2}');
    expectRefused(g, q, '{"a": 1}');
    expectPrefixRefused(g, q, '{"abcd');
  });

  it('enum and const: only those keys', () => {
    const g = compile({
      type: 'object',
      properties: { a: { type: 'integer' } },
      propertyNames: { enum: ['a', 'b'] },
    });
    expectAccepted(g, q, '{"b": "x", "a": 1}');
    expectPrefixRefused(g, q, '{"c');
    expectPrefixRefused(g, q, '{"a": "x"');
    const one = compile({ type: 'object', propertyNames: { const: 'k' } });
    expectAccepted(one, q, '{"k": 1}');
    expectPrefixRefused(one, q, '{"kk');
  });

  it('declared names that propertyNames refuses may not appear', () => {
    const g = compile({
      type: 'object',
      properties: { Bad: {}, good: {} },
      propertyNames: { pattern: '^[a-z]+$' },
    });
    expectAccepted(g, q, '{"good": 1}');
    expectPrefixRefused(g, q, '{"Bad');
  });

  it('other keywords are refused', () => {
    expect(() => compile({ type: 'object', propertyNames: { format: 'email' } })).toThrow(
      UnsupportedSchemaError,
    );
    expect(() => compile({ type: 'object', propertyNames: { not: { const: 'a' } } })).toThrow(
      UnsupportedSchemaError,
    );
  });
});

describe('no dead ends', () => {
  it('every object grammar can be completed from the start, and from a half-written key', () => {
    const schemas = [
      { type: 'object', properties: { a: {} }, required: ['a'], minProperties: 3 },
      { type: 'object', patternProperties: { '^q[0-9]$': { type: 'integer' } }, additionalProperties: false },
      { type: 'object', propertyNames: { minLength: 2 }, minProperties: 1 },
      { type: 'object', properties: { a: { type: 'integer' } }, required: ['zz'], maxProperties: 1 },
    ];
    for (const schema of schemas) expectCompletable(compile(schema));
    const g = compile(schemas[1]);
    const matcher = new GrammarMatcher(g);
    for (const id of q.encode('{"q')) expect(matcher.accept(id)).toBe(true);
    const rest = new TextDecoder().decode(matcher.completionBytes());
    expectAccepted(g, q, `{"q${rest}`);
  });
});
