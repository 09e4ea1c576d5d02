import { beforeAll, describe, expect, it } from 'vitest';
import { type CompiledGrammar, compileSchema, UnsupportedSchemaError } from '../../../src/decoding/index.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { expectAccepted, expectPrefixRefused, expectRefused } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

const compile = (schema: unknown): CompiledGrammar => compileSchema(schema, q.vocabulary);

describe('multipleOf', () => {
  it('integers: digit by digit, with the bounds', () => {
    const g = compile({ type: 'integer', multipleOf: 16, minimum: -32, maximum: 100 });
    for (const ok of ['0', '16', '96', '-32']) expectAccepted(g, q, ok);
    expectRefused(g, q, '17');
    expectPrefixRefused(g, q, '-4');
    expectPrefixRefused(g, q, '112');
  });
  it('numbers: a decimal step such as 0.01', () => {
    const g = compile({ type: 'number', multipleOf: 0.01 });
    expectAccepted(g, q, '12.34');
    expectAccepted(g, q, '-0.5');
    expectPrefixRefused(g, q, '12.345');
  });
  it('a step finer than the digits written is refused', () => {
    expect(() => compile({ type: 'number', multipleOf: 1e-9 })).toThrow(UnsupportedSchemaError);
  });
});

describe('tuples', () => {
  it('items as a list (draft 4), with additionalItems', () => {
    const g = compile({
      type: 'array',
      items: [{ type: 'integer' }, { type: 'string' }],
      additionalItems: false,
    });
    expectAccepted(g, q, '[1,"a"]');
    expectAccepted(g, q, '[1]');
    expectAccepted(g, q, '[]');
    expectPrefixRefused(g, q, '["a"');
    expectPrefixRefused(g, q, '[1,"a",');
  });
  it('prefixItems, then items for the rest, with minItems', () => {
    const g = compile({
      type: 'array',
      prefixItems: [{ const: 'x' }],
      items: { type: 'integer' },
      minItems: 2,
    });
    expectAccepted(g, q, '["x",1,2]');
    expectRefused(g, q, '["x"]');
    expectPrefixRefused(g, q, '["x","y"');
  });
  it('additionalItems beside a single items schema is ignored, as validators do', () => {
    const g = compile({ type: 'array', items: { type: 'integer' }, additionalItems: false });
    expectAccepted(g, q, '[1,2,3]');
    expectPrefixRefused(g, q, '["a"');
  });
});
