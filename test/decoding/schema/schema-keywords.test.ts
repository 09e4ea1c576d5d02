import { beforeAll, describe, expect, it } from 'vitest';
import { HaggleError, InvalidInputError } from '../../../src/contract/index.js';
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

const isAllowedToken = (mask: Uint32Array, id: number): boolean =>
  (((mask[id >>> 5] as number) >>> (id & 31)) & 1) === 1;

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

const compile = (schema: unknown, options?: SchemaCompileOptions): CompiledGrammar =>
  compileSchema(schema, q.vocabulary, options);

describe('objects: properties in schema order, required, additionalProperties: false', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'string' }, c: { type: 'boolean' } },
    required: ['a', 'c'],
    additionalProperties: false,
  };
  it('accepts required properties in order, with or without the optional one', () => {
    const g = compile(schema);
    expectAccepted(g, q, '{"a":1,"b":"x","c":true}');
    expectAccepted(g, q, '{"a":1,"c":false}');
  });
  it('refuses another order, a missing required property, an undeclared one', () => {
    const g = compile(schema);
    expectPrefixRefused(g, q, '{"c":true,"a":1}');
    expectRefused(g, q, '{"a":1}');
    expectPrefixRefused(g, q, '{"a":1,"d":2,"c":true}');
    expectPrefixRefused(g, q, '{"a":1,"c":true,"b":"x"}');
  });
  it('an object with no properties and additionalProperties false is {}', () => {
    const g = compile({ type: 'object', additionalProperties: false });
    expectAccepted(g, q, '{}');
    expectPrefixRefused(g, q, '{"a":1}');
  });
  it('a free-form object takes any keys and values', () => {
    const g = compile({ type: 'object' });
    expectAccepted(g, q, '{"x":[1,{"y":null}],"z":"w"}');
    expectPrefixRefused(g, q, '{x:1}');
  });
});

describe('enum and const', () => {
  it('enum allows exactly its values', () => {
    const g = compile({ enum: ['red', 'green', 42, null] });
    for (const ok of ['"red"', '"green"', '42', 'null']) expectAccepted(g, q, ok);
    expectPrefixRefused(g, q, '"blue"');
    expectRefused(g, q, '"re"');
    expectPrefixRefused(g, q, '421');
  });
  it('enum with type keeps only values of that type', () => {
    const g = compile({ type: 'string', enum: ['a', 1] });
    expectAccepted(g, q, '"a"');
    expectPrefixRefused(g, q, '1');
  });
  it('const allows one value, objects included', () => {
    const g = compile({ const: { k: [1, 2] } });
    expectAccepted(g, q, '{"k":[1,2]}');
    expectPrefixRefused(g, q, '{"k":[2');
  });
});

describe('oneOf and anyOf', () => {
  it('oneOf branches by a const property (the turn schema shape)', () => {
    const g = compile({
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'a' }, n: { type: 'integer' } },
          required: ['kind', 'n'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'b' }, s: { type: 'string' } },
          required: ['kind', 's'],
        },
      ],
    });
    expectAccepted(g, q, '{"kind":"a","n":3}');
    expectAccepted(g, q, '{"kind":"b","s":"x"}');
    expectPrefixRefused(g, q, '{"kind":"a","s":"x"}');
    expectPrefixRefused(g, q, '{"kind":"c"');
  });
  it('oneOf whose branches may overlap is refused at compile time, naming oneOf and the path', () => {
    const error = (() => {
      try {
        compile({ properties: { x: { oneOf: [{ type: 'number' }, { type: 'integer' }] } }, type: 'object' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as UnsupportedSchemaError).keyword).toBe('oneOf');
    expect((error as UnsupportedSchemaError).schemaPath).toBe('#/properties/x');
  });
  it('anyOf allows any branch; siblings apply to every branch', () => {
    const g = compile({ anyOf: [{ type: 'integer' }, { type: 'string' }], minimum: 5 });
    expectAccepted(g, q, '7');
    expectAccepted(g, q, '"x"');
    expectRefused(g, q, '4'); // 40 would do: refused only as a whole
    expectPrefixRefused(g, q, '-');
    expectPrefixRefused(g, q, 'true');
  });
});

describe('arrays: items, minItems, maxItems, uniqueItems', () => {
  it('items and counts', () => {
    const g = compile({ type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 });
    expectAccepted(g, q, '[1]');
    expectAccepted(g, q, '[1,2,3]');
    expectRefused(g, q, '[]');
    expectPrefixRefused(g, q, '[1,2,3,4]');
    expectPrefixRefused(g, q, '["a"]');
  });
  it('maxItems 0 allows only []', () => {
    const g = compile({ type: 'array', maxItems: 0 });
    expectAccepted(g, q, '[]');
    expectPrefixRefused(g, q, '[1]');
  });
  it('uniqueItems refuses a repeated string, even one written with an escape', () => {
    const g = compile({ type: 'array', items: { type: 'string' }, uniqueItems: true });
    expectAccepted(g, q, '["ab","abc","b"]');
    expectPrefixRefused(g, q, '["ab","ab"]');
    expectPrefixRefused(g, q, '["ab","\\u0061b"]');
    expectPrefixAccepted(g, q, '["ab","ab');
  });
  it('uniqueItems with maxLength: a repeat that fills the string is refused before it is full', () => {
    // The turn's labels: a model that writes the same 4-byte token until the bound would otherwise
    // reach a position where only the closing quote fits and the quote repeats a value (no token left).
    const g = compile({
      type: 'array',
      items: { type: 'string', pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$', maxLength: 8 },
      uniqueItems: true,
      maxItems: 5,
    });
    expectAccepted(g, q, '["baarbaar","baarbaa"]');
    expectAccepted(g, q, '["baarbaar","baarbaab"]');
    expectPrefixRefused(g, q, '["baarbaar","baarbaar');
    for (const text of ['["baarbaar","baarbaa', '["baarbaar","baar', '["baarbaar","']) {
      const m = new GrammarMatcher(g);
      for (const id of q.encode(text)) expect(m.accept(id)).toBe(true);
      // Every position the mask allows still has a completion: the mask is never a dead end.
      expect(m.mask().some((word) => word !== 0)).toBe(true);
      const r = q.encode('r')[0] as number;
      if (text.endsWith('baa')) expect(isAllowedToken(m.mask(), r)).toBe(false);
    }
  });
  it('uniqueItems over an enum', () => {
    const g = compile({ type: 'array', items: { enum: ['x', 'y'] }, uniqueItems: true, maxItems: 5 });
    expectAccepted(g, q, '["x","y"]');
    expectPrefixRefused(g, q, '["y","y"]');
  });
  it('uniqueItems on objects is refused at compile time; too few distinct values is unsatisfiable', () => {
    expect(() => compile({ type: 'array', items: { type: 'object' }, uniqueItems: true })).toThrow(
      UnsupportedSchemaError,
    );
    expect(() => compile({ type: 'array', items: { enum: [1, 2] }, uniqueItems: true, minItems: 3 })).toThrow(
      UnsatisfiableSchemaError,
    );
  });
});

describe('strings: minLength, maxLength, escapes, UTF-8, pattern', () => {
  it('lengths count characters', () => {
    const g = compile({ type: 'string', minLength: 2, maxLength: 4 });
    expectAccepted(g, q, '"ab"');
    expectAccepted(g, q, '"abcd"');
    expectAccepted(g, q, '"héé"');
    expectRefused(g, q, '"a"');
    expectPrefixRefused(g, q, '"abcde"');
  });
  it('JSON escapes are read; bad escapes and raw control characters are refused', () => {
    const g = compile({ type: 'string' });
    expectAccepted(g, q, '"line\\nnext \\"quoted\\" \\\\ \\/ \\u00e9\\t"');
    expectPrefixRefused(g, q, '"bad \\x41"');
    expectPrefixRefused(g, q, '"raw\nnewline"');
    expectPrefixRefused(g, q, '"\\u12G4"');
  });
  it('multi-byte characters split across byte-level tokens', () => {
    const g = compile({ type: 'string', maxLength: 3 });
    expectAccepted(g, q, '"日本"');
    expectAccepted(g, q, '"😀x"'); // an emoji is two UTF-16 units
    expectPrefixRefused(g, q, '"😀😀"');
  });
  it('pattern (the open label vocabulary)', () => {
    const g = compile({ type: 'string', pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$' });
    expectAccepted(g, q, '"build_rapport"');
    expectAccepted(g, q, '"a1_b2"');
    expectPrefixRefused(g, q, '"Build"');
    expectPrefixRefused(g, q, '"build__rapport"');
    expectRefused(g, q, '"build_"');
    expectPrefixRefused(g, q, '"_x"');
    expectPrefixRefused(g, q, '"été"');
  });
  it('an unanchored pattern matches anywhere', () => {
    const g = compile({ type: 'string', pattern: '\\S' });
    expectAccepted(g, q, '"  x "');
    expectRefused(g, q, '"   "');
  });
  it('patterns beyond the subset are refused at compile time', () => {
    expect(() => compile({ type: 'string', pattern: '(a)\\1' })).toThrow(UnsupportedSchemaError);
    expect(() => compile({ type: 'string', pattern: '(?=a)' })).toThrow(UnsupportedSchemaError);
  });
});

describe('numbers: bounds enforced digit by digit', () => {
  it('no "-" when the minimum is 0', () => {
    const g = compile({ type: 'number', minimum: 0 });
    expectPrefixRefused(g, q, '-');
    expectAccepted(g, q, '0');
    expectAccepted(g, q, '12.5');
  });
  it('a digit that overshoots the maximum is refused', () => {
    const g = compile({ type: 'integer', maximum: 150 });
    expectAccepted(g, q, '150');
    expectPrefixRefused(g, q, '151');
    expectPrefixRefused(g, q, '1500');
    expectAccepted(g, q, '-7');
    expectPrefixRefused(g, q, '1.0');
  });
  it('a prefix that can still reach the minimum is allowed, one that cannot is refused', () => {
    const g = compile({ type: 'number', minimum: 40 });
    expectPrefixAccepted(g, q, '3'); // 30 is too small, but 300 is not
    expectRefused(g, q, '39');
    expectAccepted(g, q, '40');
    expectAccepted(g, q, '45.25');
    expectPrefixRefused(g, q, '-1');
  });
  it('exclusive bounds', () => {
    const g = compile({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expectRefused(g, q, '0');
    expectAccepted(g, q, '0.5');
    expectPrefixRefused(g, q, '1');
    expectRefused(g, q, '0.0');
  });
  it('no exponents, and a bounded count of fraction digits', () => {
    const g = compile({ type: 'number' });
    expectPrefixRefused(g, q, '1e5');
    expectAccepted(g, q, '1.123456');
    expectPrefixRefused(g, q, '1.1234567');
    const cents = compile({ type: 'number' }, { maxFractionDigits: 2 });
    expectAccepted(cents, q, '9.99');
    expectPrefixRefused(cents, q, '9.999');
  });
  it('no leading zeros, no lone minus', () => {
    const g = compile({ type: 'integer' });
    expectPrefixRefused(g, q, '01');
    expectRefused(g, q, '-');
    expectPrefixRefused(g, q, '-0');
  });
  it('bounds no number meets are unsatisfiable', () => {
    expect(() => compile({ type: 'integer', minimum: 1.5, maximum: 1.9 })).toThrow(UnsatisfiableSchemaError);
  });
});

describe('null, boolean, $ref and $defs', () => {
  it('null and booleans', () => {
    expectAccepted(compile({ type: 'null' }), q, 'null');
    expectPrefixRefused(compile({ type: 'null' }), q, 'nil');
    expectAccepted(compile({ type: 'boolean' }), q, 'false');
    expectAccepted(compile({ type: ['string', 'null'] }), q, 'null');
  });
  it('local references, recursive ones included', () => {
    const g = compile({
      $defs: {
        node: {
          type: 'object',
          properties: {
            v: { type: 'integer' },
            next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] },
          },
          required: ['v', 'next'],
        },
      },
      $ref: '#/$defs/node',
    });
    expectAccepted(g, q, '{"v":1,"next":{"v":2,"next":null}}');
    expectPrefixRefused(g, q, '{"v":1,"next":{"v":"x"');
  });
  it('remote references and left recursion are refused', () => {
    expect(() => compile({ $ref: 'https://example.com/s.json' })).toThrow(UnsupportedSchemaError);
    expect(() =>
      compile({ $defs: { a: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }] } }, $ref: '#/$defs/a' }),
    ).toThrow(UnsupportedSchemaError);
  });
});

describe('whitespace', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'array', items: { type: 'integer' } } },
    required: ['a'],
  };
  it('compact by default', () => {
    expectAccepted(compile(schema), q, '{"a":[1,2]}');
    expectPrefixRefused(compile(schema), q, '{"a": [1, 2]}');
  });
  it('flexible as an option', () => {
    const g = compile(schema, { whitespace: 'flexible' });
    expectAccepted(g, q, '{ "a" : [ 1 , 2 ] }');
    expectAccepted(g, q, '{\n  "a": [1, 2]\n}');
    expectAccepted(g, q, '{"a":[]}');
  });
});

describe('unsupported keywords are compile-time errors naming keyword and path', () => {
  it.each([
    [{ type: 'string', format: 'regex' }, 'format', '#'],
    [
      { type: 'object', properties: { p: { type: 'number', multipleOf: 0.0000001 } } },
      'multipleOf',
      '#/properties/p',
    ],
    [
      { type: 'object', dependentSchemas: { a: { required: ['b'] } } },
      'dependentSchemas',
      '#/dependentSchemas/a',
    ],
    [{ type: 'array', prefixItems: [{ type: 'string' }], items: [{ type: 'string' }] }, 'items', '#'],
    [{ not: { type: 'string', minLength: 2 } }, 'not', '#/not'],
    [
      { type: 'object', patternProperties: { a: { type: 'string' }, b: { type: 'integer' } } },
      'patternProperties',
      '#',
    ],
  ])('%j', (schema, keyword, path) => {
    try {
      compile(schema);
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(UnsupportedSchemaError);
      expect(HaggleError.isInstance(error)).toBe(true);
      expect((error as UnsupportedSchemaError).keyword).toBe(keyword);
      expect((error as UnsupportedSchemaError).schemaPath).toBe(path);
      expect((error as UnsupportedSchemaError).code).toBe('unsupported-schema');
    }
  });
});

describe('numbers at the digit limits', () => {
  it('a point is refused when no fraction digit fits (15 significant digits)', () => {
    const g = compile({ type: 'number' });
    expectAccepted(g, q, '290759205743111');
    expectPrefixRefused(g, q, '290759205743111.');
    expectAccepted(g, q, '29075920574311.1');
    expectPrefixRefused(g, q, '2907592057431111');
  });
});

describe('bad input', () => {
  it('a vocabulary without end-of-sequence ids, or bad options, is an InvalidInputError', () => {
    expect(() =>
      compileSchema({ type: 'null' }, { tokens: [new Uint8Array([0x6e])], eosTokenIds: [] }),
    ).toThrow(InvalidInputError);
    expect(() => compile({ type: 'number' }, { maxFractionDigits: -1 })).toThrow(InvalidInputError);
  });
});
