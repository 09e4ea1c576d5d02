import { beforeAll, describe, expect, it } from 'vitest';
import { HaggleAbortError } from '../../../src/contract/errors.js';
import { compileSchema, SchemaLimitError, UnsupportedSchemaError } from '../../../src/decoding/index.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { expectAccepted, expectRefused } from '../support/walk.js';

let q: Qwen3;
// Loading the tokenizer takes seconds, and many more on a loaded machine.
beforeAll(async () => {
  q = await qwen3();
}, 120_000);

/** Runs `compile` and returns what it threw (a RangeError from the stack would fail the test). */
function thrown(compile: () => unknown): unknown {
  try {
    compile();
  } catch (error) {
    return error;
  }
  return null;
}

function expectLimit(error: unknown, limit: SchemaLimitError['limit']): void {
  expect(error).toBeInstanceOf(SchemaLimitError);
  const e = error as SchemaLimitError;
  expect(e.limit).toBe(limit);
  expect(e.message).toContain(e.option ?? (e.limit === 'document' ? 'lower the' : 'simplify the pattern'));
}

/** definitions d0 .. d{n-1}, each `make(next)`, the last one `{type: integer, minimum: 10}`. */
function chain(n: number, make: (next: string) => unknown): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) definitions[`d${i}`] = make(`#/definitions/d${i + 1}`);
  definitions[`d${n}`] = { type: 'integer', minimum: 10 };
  return { $ref: '#/definitions/d0', definitions };
}

describe('bounded compilation: typed refusals, never a stack overflow', () => {
  const LEVELS = 10_000;
  const shapes: Record<string, () => unknown> = {
    'objects nested through references': () =>
      chain(LEVELS, (next) => ({ type: 'object', properties: { x: { $ref: next } } })),
    'references to references': () => chain(LEVELS, (next) => ({ $ref: next })),
    'allOf of references': () => chain(LEVELS, (next) => ({ allOf: [{ $ref: next }], type: 'integer' })),
    'objects nested inline': () => {
      let schema: unknown = { type: 'integer', minimum: 10 };
      for (let i = 0; i < LEVELS; i++) schema = { type: 'object', properties: { x: schema } };
      return schema;
    },
    'enum values nested inline': () => {
      let value: unknown = 1;
      for (let i = 0; i < LEVELS; i++) value = [value];
      return { enum: [value] };
    },
  };
  for (const [name, make] of Object.entries(shapes)) {
    it(`${LEVELS.toLocaleString('en')} levels deep (${name}): SchemaLimitError naming maxDepth`, () => {
      const error = thrown(() => compileSchema(make(), q.vocabulary));
      expectLimit(error, 'depth');
      expect((error as SchemaLimitError).option).toBe('maxDepth');
    });
  }

  it('within the default depth, a chain of references compiles and its last constraint holds', () => {
    const g = compileSchema(
      chain(100, (next) => ({ $ref: next })),
      q.vocabulary,
    );
    expectAccepted(g, q, '10');
    expectRefused(g, q, '9');
  });

  it('a reference cycle through values is refused when a value is checked against it', () => {
    // `{"$ref": "#"}` at the root with an enum beside it (2020-12 reads both): checking 1 follows the
    // reference without end.
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', $ref: '#', enum: [1] };
    expect(thrown(() => compileSchema(schema, q.vocabulary))).toBeInstanceOf(UnsupportedSchemaError);
  });

  it('a schema past maxNodes is refused quickly with SchemaLimitError naming maxNodes', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 5_000; i++) properties[`p${i}`] = { type: 'integer', minimum: i };
    const schema = { type: 'object', properties };
    const error = thrown(() => compileSchema(schema, q.vocabulary, { maxNodes: 2_000 }));
    expectLimit(error, 'nodes');
    expect((error as SchemaLimitError).value).toBe(2_000);
  });

  it('the time budget and the AbortSignal stop a long compilation', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 2_000; i++) properties[`p${i}`] = { type: 'string', maxLength: i + 1 };
    const schema = { type: 'object', properties };
    expectLimit(
      thrown(() => compileSchema(schema, q.vocabulary, { timeBudgetMs: 0, warm: false })),
      'time',
    );
    const controller = new AbortController();
    controller.abort();
    expect(
      thrown(() => compileSchema(schema, q.vocabulary, { signal: controller.signal, warm: false })),
    ).toBeInstanceOf(HaggleAbortError);
  });

  it('bounds are validated', () => {
    for (const options of [{ maxDepth: 0 }, { maxNodes: -1 }, { timeBudgetMs: Number.NaN }]) {
      expect(() => compileSchema({}, q.vocabulary, options)).toThrow(/maxDepth|maxNodes|timeBudgetMs/);
    }
  });

  it('a minLength the pattern already implies is dropped (no length analysis), one it does not is kept', () => {
    const implied = compileSchema(
      { type: 'string', minLength: 1, pattern: '^(?:a+ ){0,99}a+$' },
      q.vocabulary,
    );
    expectAccepted(implied, q, '"a a"');
    expectRefused(implied, q, '""');
    const kept = compileSchema({ type: 'string', minLength: 4, pattern: '^(?:a+ ){0,99}a+$' }, q.vocabulary);
    expectRefused(kept, q, '"a a"');
    expectAccepted(kept, q, '"aa a"');
  });
});

// Issue 26: sizes a client's schema asks for are checked before they size memory. Before these checks
// `minLength: 1e9` ended the whole process (V8's "invalid size error", not a catchable exception), and
// the patterns below compiled for minutes.
describe('sizes and automata are bounded before they are allocated', () => {
  it.each([
    ['minLength 1e9', { type: 'string', minLength: 1e9 }, 'minLength'],
    ['minItems 1e9', { type: 'array', minItems: 1e9 }, 'minItems'],
    ['minProperties 1e9', { type: 'object', minProperties: 1e9 }, 'minProperties'],
    ['an enum of 100,000 values', { enum: Array.from({ length: 100_000 }, (_, i) => i) }, 'enum values'],
  ])('%s: SchemaLimitError (size) naming the keyword and maxSize', (_name, schema, keyword) => {
    const error = thrown(() => compileSchema(schema, q.vocabulary, { warm: false }));
    expectLimit(error, 'size');
    expect((error as SchemaLimitError).message).toContain(keyword);
    expect((error as SchemaLimitError).option).toBe('maxSize');
  });

  it('a shortest document over 64 KiB (items times lengths, each within maxSize) is refused', () => {
    const schema = { type: 'array', minItems: 60_000, items: { type: 'string', minLength: 60_000 } };
    const error = thrown(() => compileSchema(schema, q.vocabulary, { warm: false }));
    expectLimit(error, 'document');
    // A fixed bound: no option to raise, and a fix that says what to lower.
    expect((error as SchemaLimitError).option).toBeNull();
    expect((error as Error).message).toMatch(/lower the minLength, minItems or minProperties/);
  });

  it.each([
    ['nested counted repeats (a million NFA states)', '^(a{1000}){1000}$'],
    ['an exponential DFA, anchored', '^(a|b)*a(a|b){20}$'],
    ['an exponential DFA, unanchored', '.*a.{25}'],
  ])('%s: SchemaLimitError (pattern), with a fix in its message', (_name, pattern) => {
    const error = thrown(() => compileSchema({ type: 'string', pattern }, q.vocabulary));
    expectLimit(error, 'pattern');
    expect((error as SchemaLimitError).option).toBeNull();
    // Said where the pattern is used, not at a placeholder: the automaton is shared, the compiler knows.
    const nested = thrown(() =>
      compileSchema({ type: 'object', properties: { code: { type: 'string', pattern } } }, q.vocabulary),
    );
    expect((nested as SchemaLimitError).schemaPath).toBe('#/properties/code');
    expect((nested as Error).message).toContain('at #/properties/code;');
  });

  it('a size within the bound still compiles and is enforced', () => {
    const grammar = compileSchema({ type: 'string', minLength: 3, maxLength: 5 }, q.vocabulary);
    expectAccepted(grammar, q, '"abc"');
    expectRefused(grammar, q, '"ab"');
    expect(() => compileSchema({}, q.vocabulary, { maxSize: 0 })).toThrow(/maxSize/);
  });
});
