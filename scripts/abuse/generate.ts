/**
 * Hostile JSON Schemas generated deterministically from a seed, for `npm run abuse`: five families
 * (nested, huge, regex-heavy, enum-heavy, $ref-recursive), each mixing sizes under and over the
 * compiler's bounds, so both refusals and schemas that compile get exercised.
 */
import { Random } from '../../src/internal/random.js';

export const FAMILIES = ['nested', 'huge', 'regex', 'enum', 'ref'] as const;
export type Family = (typeof FAMILIES)[number];

export interface GeneratedSchema {
  family: Family;
  schema: unknown;
  /** Sent with `stream: true` (one in five). */
  stream: boolean;
}

/** A power of ten from 10^lo to 10^hi, sometimes nudged: sizes around every bound. */
function size(random: Random, lo: number, hi: number): number {
  const base = 10 ** random.int(lo, hi);
  return random.bernoulli(0.3) ? base + random.int(-1, 1) : base;
}

const ATOMS = ['a', 'b', '.', '[^x]', '\\d', '\\w', '[a-z]', '(a|b)', '\\s', '[^"]'];

function regex(random: Random, depth = 0): string {
  const parts: string[] = [];
  const n = random.int(1, 4);
  for (let i = 0; i < n; i++) {
    let part = depth < 2 && random.bernoulli(0.3) ? `(${regex(random, depth + 1)})` : random.pick(ATOMS);
    const quantifier = random.int(0, 5);
    if (quantifier === 1) part += '*';
    else if (quantifier === 2) part += '+';
    else if (quantifier === 3) part += `{${size(random, 0, 3)}}`;
    else if (quantifier === 4) part += `{${random.int(0, 20)},${size(random, 1, 3)}}`;
    parts.push(part);
  }
  const body = parts.join(random.bernoulli(0.2) ? '|' : '');
  return random.bernoulli(0.5) ? `^${body}$` : body;
}

function nested(random: Random): unknown {
  let schema: unknown = { type: 'string', maxLength: random.int(1, 20) };
  const levels = random.int(1, 25);
  for (let i = 0; i < levels; i++) {
    schema = random.bernoulli(0.5)
      ? { type: 'array', items: schema, minItems: random.bernoulli(0.3) ? size(random, 0, 5) : 0 }
      : { type: 'object', properties: { [`k${i}`]: schema }, required: [`k${i}`] };
  }
  return schema;
}

function huge(random: Random): unknown {
  switch (random.int(0, 3)) {
    case 0:
      return { type: 'string', minLength: size(random, 2, 10) };
    case 1:
      return { type: 'array', minItems: size(random, 2, 10), items: { type: 'integer' } };
    case 2:
      return { type: 'object', minProperties: size(random, 2, 10) };
    default:
      return {
        type: 'array',
        minItems: size(random, 1, 5),
        items: { type: 'string', minLength: size(random, 1, 5) },
      };
  }
}

function enumeration(random: Random): unknown {
  const n = size(random, 1, 5);
  const values = Array.from({ length: n }, (_, i) => (random.bernoulli(0.5) ? `v${i}` : i));
  return random.bernoulli(0.5) ? { enum: values } : { type: 'array', items: { enum: values }, minItems: 1 };
}

function references(random: Random): unknown {
  const depth = random.int(2, 45);
  const definitions: Record<string, unknown> = { [`d${depth}`]: { type: 'integer' } };
  const doubling = random.bernoulli(0.5);
  for (let i = 0; i < depth; i++) {
    const next = { $ref: `#/definitions/d${random.bernoulli(0.1) ? 0 : i + 1}` };
    definitions[`d${i}`] = doubling
      ? { type: 'array', prefixItems: [next, next], items: false, minItems: 2 }
      : { anyOf: [next, { type: 'object', properties: { x: next }, required: ['x'] }] };
  }
  return { $ref: '#/definitions/d0', definitions };
}

/** `count` schemas from `seed`: the same seed gives the same list. */
export function generateSchemas(seed: number, count: number): GeneratedSchema[] {
  const random = new Random(seed);
  return Array.from({ length: count }, (_, i) => {
    const family = FAMILIES[i % FAMILIES.length] as Family;
    const schema =
      family === 'nested'
        ? nested(random)
        : family === 'huge'
          ? huge(random)
          : family === 'regex'
            ? { type: 'string', pattern: regex(random) }
            : family === 'enum'
              ? enumeration(random)
              : references(random);
    return { family, schema, stream: random.bernoulli(0.2) };
  });
}
