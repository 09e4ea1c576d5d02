/**
 * Schemas from the outside attack of issue 26 and their neighbours: each must be answered 400 (the
 * schema is past a bound, or cannot be enforced) or 504 (the deadline), never kill or disable the
 * server. `answers` lists what a case may get.
 */
export interface AbuseCase {
  name: string;
  schema: unknown;
  /** Sent with `stream: true`: the refusal must still be a JSON 4xx, before any SSE byte. */
  stream?: boolean;
  answers: readonly number[];
}

const REFUSED = [400] as const;
const REFUSED_OR_LATE = [400, 504] as const;

const enumOf = (n: number) => ({ enum: Array.from({ length: n }, (_, i) => `v${i}`) });

export const ABUSE_CASES: readonly AbuseCase[] = [
  // Finding 1: killed the process (V8's "invalid size error").
  { name: 'minLength 1e9', schema: { type: 'string', minLength: 1e9 }, answers: REFUSED },
  { name: 'minLength 1e8', schema: { type: 'string', minLength: 1e8 }, answers: REFUSED },
  { name: 'minLength 1e6', schema: { type: 'string', minLength: 1e6 }, answers: REFUSED },
  { name: 'minItems 1e9', schema: { type: 'array', minItems: 1e9 }, answers: REFUSED },
  { name: 'minProperties 1e9', schema: { type: 'object', minProperties: 1e9 }, answers: REFUSED },
  {
    name: 'minItems x minLength (each within bounds, 3.6 GB together)',
    schema: { type: 'array', minItems: 60_000, items: { type: 'string', minLength: 60_000 } },
    answers: REFUSED,
  },
  {
    // Found by `npm run abuse`: a 1 MB shortest document was a 502 "Maximum call stack size exceeded".
    name: '100 items of minLength 9999 (a 1 MB shortest document)',
    schema: { type: 'array', minItems: 100, items: { type: 'string', minLength: 9999 } },
    answers: REFUSED,
  },
  // Finding 2: exhausted the worker's heap, then every request got 502 while /health said ok.
  {
    name: 'unanchored [^x]{1000}',
    schema: { type: 'string', pattern: '[^x]{1000}' },
    answers: REFUSED_OR_LATE,
  },
  { name: 'enum of 100k values', schema: enumOf(100_000), answers: REFUSED },
  { name: 'enum of 150k values', schema: enumOf(150_000), answers: REFUSED },
  // Finding 3: deadlines and the compile budget not kept.
  {
    name: '.*a.{25} (exponential DFA)',
    schema: { type: 'string', pattern: '.*a.{25}' },
    answers: REFUSED_OR_LATE,
  },
  { name: '^(a{1000}){1000}$', schema: { type: 'string', pattern: '^(a{1000}){1000}$' }, answers: REFUSED },
  { name: '^(a|b)*a(a|b){20}$', schema: { type: 'string', pattern: '^(a|b)*a(a|b){20}$' }, answers: REFUSED },
  {
    name: 'a DFA past its bound in an object key',
    schema: { type: 'object', propertyNames: { pattern: '^(a|b)*a(a|b){18}$' }, minProperties: 1 },
    answers: REFUSED_OR_LATE,
  },
  // Finding 4: a streamed bad schema got 200 text/event-stream and no [DONE].
  {
    name: 'stream: back-reference',
    schema: { type: 'string', pattern: '^(a)\\1$' },
    stream: true,
    answers: REFUSED,
  },
  {
    name: 'stream: minLength 1e9',
    schema: { type: 'string', minLength: 1e9 },
    stream: true,
    answers: REFUSED,
  },
  // Neighbours: recursion and nesting.
  {
    name: '$ref recursion without a finite value',
    schema: {
      $ref: '#/definitions/a',
      definitions: { a: { type: 'array', minItems: 1, items: { $ref: '#/definitions/a' } } },
    },
    answers: REFUSED,
  },
  {
    name: '$ref doubling (2^40 expansions)',
    schema: (() => {
      const definitions: Record<string, unknown> = { d40: { type: 'integer' } };
      for (let i = 0; i < 40; i++) {
        definitions[`d${i}`] = {
          type: 'array',
          prefixItems: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }],
          items: false,
          minItems: 2,
        };
      }
      return { $ref: '#/definitions/d0', definitions };
    })(),
    answers: REFUSED_OR_LATE,
  },
  {
    name: 'arrays nested 28 deep, 65,536 items each',
    schema: (() => {
      let schema: unknown = { type: 'string', minLength: 65_536 };
      for (let i = 0; i < 28; i++) schema = { type: 'array', minItems: 65_536, items: schema };
      return schema;
    })(),
    answers: REFUSED,
  },
  // Issue 40: schemas that compiled but held the model worker while decoding (40-104 s, 19 s, 10.6 s).
  {
    name: 'uniqueItems strings, minItems 20,000',
    schema: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 20_000 },
    answers: REFUSED,
  },
  { name: 'enum of 60k strings', schema: enumOf(60_000), answers: REFUSED },
  { name: 'const of 3.5 MB', schema: { const: 'a'.repeat(3_500_000) }, answers: REFUSED },
];
