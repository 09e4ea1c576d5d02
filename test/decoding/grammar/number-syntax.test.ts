import { beforeAll, describe, expect, it } from 'vitest';
import { DEAD } from '../../../src/decoding/grammar/nodes.js';
import { NumberLeaf, type NumberLeafOptions } from '../../../src/decoding/grammar/number-leaf.js';
import {
  type CompiledGrammar,
  compileSchema,
  type SchemaCompileOptions,
} from '../../../src/decoding/index.js';
import { Random } from '../../../src/internal/random.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { expectAccepted, expectRefused } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

const JSON_NUMBERS: SchemaCompileOptions = { numberSyntax: 'json', maxFractionDigits: 15, maxDigits: 17 };
const compile = (schema: unknown, options: SchemaCompileOptions = JSON_NUMBERS): CompiledGrammar =>
  compileSchema(schema, q.vocabulary, options);

function leaf(options: Partial<NumberLeafOptions>): NumberLeaf {
  return new NumberLeaf(0, {
    integer: false,
    lower: undefined,
    upper: undefined,
    maxFractionDigits: 15,
    maxDigits: 17,
    exponent: true,
    ...options,
  });
}

/** Steps `text` byte by byte; null when a byte is refused. */
function run(l: NumberLeaf, text: string): unknown {
  let state: unknown = l.initial();
  for (let i = 0; i < text.length; i++) {
    state = l.step(state, text.charCodeAt(i));
    if (state === DEAD) return null;
  }
  return state;
}

/** Every state reached on the way through `text` has a completion that ends: the leaf's invariant. */
function expectCompletable(l: NumberLeaf, text: string): void {
  for (let cut = 0; cut <= text.length; cut++) {
    const state = run(l, text.slice(0, cut));
    if (state === null) return;
    const tail = String.fromCharCode(...(l.completion(state) ?? []));
    const end = run(l, text.slice(0, cut) + tail);
    expect(end !== null && l.canEnd(end), `${text.slice(0, cut)} + ${tail}`).toBe(true);
  }
}

describe("numberSyntax: 'json': exponents", () => {
  it('a number takes every JSON spelling of a value in range, and the same values as before', () => {
    const g = compile({ type: 'number', minimum: 0 });
    for (const text of ['1.256e-05', '1.256E-05', '1e5', '1E+5', '2.5e+16', '0e0', '0.5e1', '12e-3']) {
      expectAccepted(g, q, text);
    }
    for (const text of ['-1e5', '1e', '1e+', '.5e1', '1.e5', '1e5.0', '1e999']) expectRefused(g, q, text);
  });

  it('bounds and multipleOf hold for the value an exponent spells', () => {
    const g = compile({ type: 'number', minimum: 0.001, maximum: 1000, multipleOf: 0.001 });
    expectAccepted(g, q, '1e-3');
    expectAccepted(g, q, '1e3');
    expectAccepted(g, q, '25e-3');
    expectRefused(g, q, '1e-4');
    expectRefused(g, q, '1.0001e3');
    expectRefused(g, q, '25e-4');
  });

  it('without the option (the default) no exponent is written, as the agent turns are', () => {
    const g = compile({ type: 'number' }, {});
    expectAccepted(g, q, '125');
    expectRefused(g, q, '1e5');
  });

  it('an unbounded integer may be longer than maxDigits (an id written as a number); a bounded one not', () => {
    const long = '1234567890123456789012345';
    expectAccepted(compile({ type: 'integer' }), q, long);
    expectRefused(compile({ type: 'integer' }, {}), q, long);
    expectRefused(compile({ type: 'integer', minimum: 0 }), q, long);
  });

  it('integers take no exponent and no point', () => {
    const g = compile({ type: 'integer' });
    expectAccepted(g, q, '100');
    expectRefused(g, q, '1e2');
    expectRefused(g, q, '1.0');
  });

  it('every state a byte leads to can still be completed (the decoder never dead-ends in a number)', () => {
    const leaves = [
      leaf({}),
      leaf({ lower: { value: 0, exclusive: true } }),
      leaf({ lower: { value: 0.15, exclusive: false }, upper: { value: 0.16, exclusive: false } }),
      leaf({
        lower: { value: 0.00001256, exclusive: false },
        upper: { value: 0.00001256, exclusive: false },
      }),
      leaf({ lower: { value: -5, exclusive: false }, upper: { value: 2e10, exclusive: false } }),
      leaf({ multipleOf: 0.25, upper: { value: 3, exclusive: true } }),
    ];
    const texts = [
      '1.256e-05',
      '0.0000125',
      '-0.00',
      '155e-3',
      '2e10',
      '20000000000e0',
      '0.',
      '-',
      '3e-1',
      '9',
    ];
    for (const l of leaves) for (const text of texts) expectCompletable(l, text);
  });

  it('random texts: whatever a leaf takes is in range, and whatever it lets through can be finished', () => {
    const random = new Random(19);
    const alphabet = '0123456789.-+eE';
    const leaves: Array<[NumberLeaf, (x: number) => boolean]> = [
      [leaf({}), () => true],
      [leaf({ lower: { value: 0, exclusive: true } }), (x) => x > 0],
      [
        leaf({ lower: { value: -5, exclusive: false }, upper: { value: 2e10, exclusive: false } }),
        (x) => x >= -5 && x <= 2e10,
      ],
      [
        leaf({ multipleOf: 0.25, upper: { value: 3, exclusive: true } }),
        (x) => x < 3 && Number.isInteger(x * 4),
      ],
      [
        leaf({ lower: { value: 2, exclusive: false }, upper: { value: 2, exclusive: false } }),
        (x) => x === 2,
      ],
    ];
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random.next() * 9);
      let text = '';
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random.next() * alphabet.length)];
      for (const [l, inRange] of leaves) {
        expectCompletable(l, text);
        const state = run(l, text);
        if (state !== null && l.canEnd(state)) expect(inRange(Number(text)), text).toBe(true);
      }
    }
  });
});

describe("numberSyntax: 'json': enum and const numbers in every spelling", () => {
  it('2 is also 2.0, 2.00, 2e0, 20e-1, and nothing else', () => {
    const g = compile({ enum: [2, 'x'] });
    for (const text of ['2', '2.0', '2.00', '2e0', '2E+0', '20e-1', '0.2e1']) expectAccepted(g, q, text);
    for (const text of ['2.1', '20', '2e1', '-2', '"2"']) expectRefused(g, q, text);
    expectAccepted(g, q, '"x"');
  });

  it('numbers inside enum objects and arrays too ({"a": 0.0})', () => {
    const g = compile({ enum: [{ a: 0 }, [1.5, 2]] });
    expectAccepted(g, q, '{"a":0.0}');
    expectAccepted(g, q, '{"a":0}');
    expectAccepted(g, q, '[15e-1,2.000]');
    expectRefused(g, q, '{"a":1}');
  });

  it('a small float as Python writes it', () => {
    const g = compile({ const: 0.00001256 });
    expectAccepted(g, q, '1.256e-05');
    expectAccepted(g, q, '0.00001256');
    expectRefused(g, q, '1.256e-06');
  });

  it('the default keeps the one compact spelling', () => {
    const g = compile({ enum: [2] }, {});
    expectAccepted(g, q, '2');
    expectRefused(g, q, '2.0');
  });
});
