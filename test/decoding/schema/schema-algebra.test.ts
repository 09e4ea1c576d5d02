import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CompiledGrammar,
  compileSchema,
  type SchemaCompileOptions,
  UnsatisfiableSchemaError,
  UnsupportedSchemaError,
} from '../../../src/decoding/index.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { expectAccepted, expectPrefixRefused, expectRefused } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

const compile = (schema: unknown, options?: SchemaCompileOptions): CompiledGrammar =>
  compileSchema(schema, q.vocabulary, options);

function refusal(schema: unknown): UnsupportedSchemaError {
  try {
    compile(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    return error as UnsupportedSchemaError;
  }
  return expect.unreachable('should have thrown') as never;
}

describe('allOf: the intersection of its parts', () => {
  const schema = {
    $defs: {
      base: { type: 'object', properties: { id: { type: 'integer', minimum: 0 } }, required: ['id'] },
    },
    allOf: [
      { $ref: '#/$defs/base' },
      { properties: { id: { maximum: 9 }, name: { type: 'string', maxLength: 3 } }, required: ['name'] },
    ],
  };
  it('accepts what every part accepts', () => {
    const g = compile(schema);
    expectAccepted(g, q, '{"id":7,"name":"abc"}');
  });
  it('refuses what one part refuses: bounds of both sides, required of both', () => {
    const g = compile(schema);
    expectPrefixRefused(g, q, '{"id":10,');
    expectPrefixRefused(g, q, '{"id":-1');
    expectRefused(g, q, '{"id":7}');
    expectPrefixRefused(g, q, '{"id":7,"name":"abcd"');
  });
  it('types intersect, integer within number', () => {
    const g = compile({ allOf: [{ type: ['number', 'string'] }, { type: ['integer', 'null'] }] });
    expectAccepted(g, q, '12');
    expectPrefixRefused(g, q, '1.5');
    expectPrefixRefused(g, q, '"a"');
    expectPrefixRefused(g, q, 'null');
  });
  it('enum values are filtered by the other parts', () => {
    const g = compile({
      allOf: [{ enum: ['red', 'orange', 6, 9, null] }, { enum: ['blue', 'orange', 6, 3] }],
    });
    expectAccepted(g, q, '"orange"');
    expectAccepted(g, q, '6');
    expectPrefixRefused(g, q, '"red"');
    expectPrefixRefused(g, q, '9');
  });
  it('a key declared on one side must satisfy the other side’s additionalProperties', () => {
    const g = compile(
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { additionalProperties: { type: 'integer' } },
        ],
      },
      { additionalProperties: 'allow', propertyOrder: 'any' },
    );
    expectAccepted(g, q, '{"b":1}');
    expectPrefixRefused(g, q, '{"a":"x"');
  });
  it('anyOf beside allOf distributes', () => {
    const g = compile({ allOf: [{ type: 'integer' }, { anyOf: [{ maximum: 3 }, { minimum: 10 }] }] });
    expectAccepted(g, q, '2');
    expectAccepted(g, q, '11');
    expectRefused(g, q, '5');
  });
  it('contradictory parts are unsatisfiable; two different patterns are refused', () => {
    expect(() => compile({ allOf: [{ type: 'string' }, { type: 'number' }] })).toThrow(
      UnsatisfiableSchemaError,
    );
    const error = refusal({ allOf: [{ type: 'string', pattern: 'a' }, { pattern: 'b' }] });
    expect(error.keyword).toBe('pattern');
    expect(error.schemaPath).toBe('#/allOf/1');
  });
  it('a reference that contains itself through allOf is refused', () => {
    const error = refusal({
      $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } },
      $ref: '#/$defs/a',
      type: 'object',
    });
    expect(error.keyword).toBe('$ref');
  });
  it('recursion through properties stays finite', () => {
    const g = compile({
      $defs: {
        node: {
          type: 'object',
          properties: {
            next: { allOf: [{ $ref: '#/$defs/node' }, { required: ['v'] }] },
            v: { type: 'integer' },
          },
        },
      },
      $ref: '#/$defs/node',
    });
    expectAccepted(g, q, '{"next":{"next":{"v":2},"v":1}}');
    expectRefused(g, q, '{"next":{}}');
  });
});

describe('siblings beside $ref and oneOf', () => {
  it('a sibling of $ref narrows the target', () => {
    const g = compile({ $defs: { n: { type: 'integer' } }, $ref: '#/$defs/n', minimum: 5 });
    expectAccepted(g, q, '5');
    expectRefused(g, q, '4');
    expectPrefixRefused(g, q, '-');
  });
  it('a required list beside oneOf that differs from a branch’s is the union of both', () => {
    const g = compile({
      type: 'object',
      properties: { kind: { enum: ['a', 'b'] }, x: { type: 'integer' } },
      required: ['kind'],
      oneOf: [
        { properties: { kind: { const: 'a' } }, required: ['x'] },
        { properties: { kind: { const: 'b' } } },
      ],
    });
    expectAccepted(g, q, '{"kind":"a","x":1}');
    expectAccepted(g, q, '{"kind":"b"}');
    expectRefused(g, q, '{"kind":"a"}');
    expectPrefixRefused(g, q, '{"kind":"c"');
  });
});

describe('oneOf exclusivity', () => {
  it('a property one branch requires and the other forbids proves the branches disjoint', () => {
    const g = compile({
      oneOf: [
        {
          type: 'object',
          properties: { a: { type: 'integer' } },
          required: ['a'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { b: { type: 'integer' } },
          required: ['b'],
          additionalProperties: false,
        },
      ],
    });
    expectAccepted(g, q, '{"a":1}');
    expectAccepted(g, q, '{"b":1}');
    expectPrefixRefused(g, q, '{"a":1,"b"');
  });
  it('oneOf of required keys means one key without the others', () => {
    const g = compile(
      {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        oneOf: [{ required: ['a'] }, { required: ['b'] }],
      },
      { propertyOrder: 'any', additionalProperties: 'allow' },
    );
    expectAccepted(g, q, '{"a":1}');
    expectAccepted(g, q, '{"b":2}');
    expectRefused(g, q, '{"a":1,"b":2}');
    expectRefused(g, q, '{}');
  });
  it('integer and number overlap; disjoint number ranges do not', () => {
    expect(refusal({ oneOf: [{ type: 'integer' }, { type: 'number' }] }).keyword).toBe('oneOf');
    const g = compile({
      oneOf: [
        { type: 'integer', maximum: 0 },
        { type: 'number', exclusiveMinimum: 0 },
      ],
    });
    expectAccepted(g, q, '-3');
    expectAccepted(g, q, '0.5');
  });
  it('finite branches keep the values exactly one branch takes', () => {
    const g = compile({ oneOf: [{ enum: [1, 2, 3] }, { enum: [3, 4] }] });
    expectAccepted(g, q, '1');
    expectAccepted(g, q, '4');
    expectRefused(g, q, '3');
  });
});

describe('not, if/then/else', () => {
  it('not a type removes that type', () => {
    const g = compile({ not: { type: 'number' } });
    expectAccepted(g, q, '"x"');
    expectAccepted(g, q, 'null');
    expectPrefixRefused(g, q, '1');
  });
  it('not of values filters an enum; not of an open set of values is refused', () => {
    const g = compile({ enum: [1, 169, 182], not: { const: 169 } });
    expectAccepted(g, q, '182');
    expectRefused(g, q, '169');
    expect(refusal({ type: 'integer', not: { const: 169 } }).keyword).toBe('not');
  });
  it('not required: the key must not appear', () => {
    const g = compile(
      { type: 'object', properties: { a: { type: 'integer' } }, not: { required: ['b'] } },
      { propertyOrder: 'any', additionalProperties: 'allow' },
    );
    expectAccepted(g, q, '{"a":1,"c":2}');
    expectPrefixRefused(g, q, '{"b":');
  });
  it('if/then/else on finitely many values', () => {
    const g = compile({
      type: 'integer',
      enum: [1, 3, 5, 7],
      if: { maximum: 4 },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      then: { minimum: 3 },
      else: { minimum: 6 },
    });
    expectAccepted(g, q, '3');
    expectAccepted(g, q, '7');
    expectRefused(g, q, '1');
    expectRefused(g, q, '5');
  });
  it('if on a required property value', () => {
    const g = compile(
      {
        type: 'object',
        properties: { kind: { enum: ['x', 'y'] }, n: { type: 'integer' } },
        required: ['kind'],
        if: { properties: { kind: { const: 'x' } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
        then: { required: ['n'] },
      },
      { propertyOrder: 'any', additionalProperties: 'forbid' },
    );
    expectAccepted(g, q, '{"kind":"x","n":1}');
    expectAccepted(g, q, '{"kind":"y"}');
    expectRefused(g, q, '{"kind":"x"}');
  });
});

describe('enum beside other keywords', () => {
  it('values that break the other keywords are dropped; an optional property with no value is absent', () => {
    const g = compile({
      type: 'object',
      properties: { a: { type: 'object', enum: ['A', 'B'] }, b: { enum: ['xy', 'xyz'], maxLength: 2 } },
    });
    expectAccepted(g, q, '{"b":"xy"}');
    expectPrefixRefused(g, q, '{"a"');
    expectPrefixRefused(g, q, '{"b":"xyz');
  });
});
