import { beforeAll, describe, expect, it } from 'vitest';
import {
  benchTurnSchemas,
  offerCar,
  offerContract,
  offerLaptop,
} from '../../../bench/shared/decoder-schemas.js';
import {
  allowedTokenIds,
  type CompiledGrammar,
  type CompileOptions,
  compileSchema,
  type DecoderVocabulary,
  isAllowed,
} from '../../../src/decoding/index.js';
import { MaskPrecompute } from '../../../src/decoding/mask/mask-precompute.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { referenceMask } from '../../../src/decoding/testing/reference-mask.js';
import { Random } from '../../../src/internal/random.js';
import { maskDifference } from '../support/mask-against-walk.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

/**
 * Schemas whose positions are enum values, literals (punctuation, keys in schema order, `true`), keys
 * read by name (any order) and numbers under every kind of bound: the leaves whose masks are now
 * precomputed at compile time or computed by per-leaf shortcuts instead of the generic trie walk.
 */
const SCHEMAS: ReadonlyArray<{ name: string; schema: unknown; options?: CompileOptions }> = [
  {
    name: 'offer (numbers, enum, boolean; schema order)',
    schema: {
      type: 'object',
      properties: {
        price: { type: 'number', minimum: 1000, maximum: 80000 },
        days: { type: 'integer', minimum: 1, maximum: 60 },
        financing: { enum: ['cash', 'loan_36', 'loan_60', 'lease'] },
        trade_in: { type: 'boolean' },
        share: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      },
      required: ['price', 'days', 'financing', 'trade_in'],
      additionalProperties: false,
    },
  },
  {
    name: 'numbers of every bound, flexible whitespace',
    schema: {
      type: 'array',
      maxItems: 3,
      items: {
        anyOf: [
          { type: 'number', minimum: -12.5, exclusiveMaximum: 1000 },
          { type: 'integer', minimum: 5000, maximum: 30000, multipleOf: 250 },
          { type: 'number', minimum: -0.75, maximum: -0.125 },
          { type: 'number', multipleOf: 0.05 },
          { enum: [1, 2.5, 'x', null, true] },
        ],
      },
    },
    options: { whitespace: 'flexible', maxFractionDigits: 4 },
  },
  {
    name: 'keys by name in any order, unique enum items',
    schema: {
      type: 'object',
      properties: {
        alpha: { const: 'a' },
        alpine: { type: 'integer', minimum: -3, maximum: 3 },
        beta: { type: 'array', items: { enum: ['charger', 'sleeve', 'mouse'] }, uniqueItems: true },
        b: { type: 'boolean' },
      },
      required: ['alpha'],
      additionalProperties: false,
    },
    options: { propertyOrder: 'any', whitespace: 'flexible' },
  },
];

/**
 * Random sequences through one compiled grammar (so each reads masks cached or precomputed for the
 * others): at every position `mask()` must equal the generic trie walk's mask, and the token taken
 * next is drawn from it (half the time among tokens without whitespace, so whitespace does not
 * crowd out the values).
 */
function checkRandomPositions(
  grammar: CompiledGrammar,
  vocabulary: DecoderVocabulary,
  random: Random,
  sequences: number,
): number {
  const eos = new Set(vocabulary.eosTokenIds);
  const blank = (id: number) => (vocabulary.tokens[id] as Uint8Array).some((b) => b <= 0x20);
  let checked = 0;
  for (let s = 0; s < sequences; s++) {
    const matcher = new GrammarMatcher(grammar);
    const spelled: number[] = [];
    for (let step = 0; step < 48 && !matcher.isTerminated(); step++) {
      // fillMask first: it writes a precomputed mask straight from its ids, mask() keeps a bitset.
      const filled = matcher.fillMask(new Uint32Array(grammar.maskWords).fill(0xffffffff));
      const mask = matcher.mask();
      expect(filled).toEqual(mask);
      const reference = referenceMask(matcher);
      const text = new TextDecoder().decode(new Uint8Array(spelled));
      expect(maskDifference(vocabulary, mask, reference), `after ${JSON.stringify(text)}`).toEqual([]);
      checked++;
      const allowed = allowedTokenIds(mask);
      const values = allowed.filter((id) => !eos.has(id) && !blank(id));
      const id = random.pick(values.length > 0 && random.bernoulli(0.5) ? values : allowed);
      expect(matcher.accept(id)).toBe(true);
      spelled.push(...(vocabulary.tokens[id] ?? []));
    }
  }
  return checked;
}

describe('masks without the trie walk (precomputed, per-leaf shortcuts, number keys)', () => {
  it('equal the generic trie walk at random positions of enum, key, literal and number leaves', () => {
    const random = new Random(19);
    let checked = 0;
    for (const { schema, options } of SCHEMAS) {
      // A budget in positions only, so that what is precomputed does not depend on the machine's load.
      const precompute = { positions: 300, timeMs: Number.POSITIVE_INFINITY };
      const grammar = compileSchema(schema, q.vocabulary, { ...options, precompute });
      // Free whitespace and keys read by name are left to decoding time (their masks are walks).
      if (options?.whitespace !== 'flexible') expect(grammar.stats.precomputed).toBeGreaterThan(10);
      checked += checkRandomPositions(grammar, q.vocabulary, random, 12);
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('are stored from the ids the walk listed only where those are every token it set', () => {
    // The precompute stores a mask from the token ids the walk lists as it sets them, not by scanning
    // the mask; here every stored mask is scanned too and must hold exactly the listed ids (a path of
    // the walk that sets a bit without listing it throws). Schemas with every kind of position the
    // precompute stores: keys, enums, numbers, booleans, string openings, lists of objects, the turn's
    // alternatives, and free whitespace (whose tables are not listed: those masks are scanned instead).
    const schemas = [offerLaptop, offerCar, offerContract, ...Object.values(benchTurnSchemas())];
    MaskPrecompute.checkRecording = true;
    try {
      let stored = 0;
      for (const schema of schemas) {
        for (const whitespace of ['compact', 'flexible'] as const) {
          const precompute = { positions: 400, timeMs: Number.POSITIVE_INFINITY };
          stored += compileSchema(schema, q.vocabulary, { whitespace, precompute }).stats.precomputed;
        }
      }
      for (const { schema, options } of SCHEMAS) {
        const precompute = { positions: 400, timeMs: Number.POSITIVE_INFINITY };
        stored += compileSchema(schema, q.vocabulary, { ...options, precompute }).stats.precomputed;
      }
      expect(stored).toBeGreaterThan(1500);
    } finally {
      MaskPrecompute.checkRecording = false;
    }
  });

  it('hold with tokens of several digits and signs, as other tokenizers write numbers', () => {
    // Qwen3 writes one digit per token; Llama 3 writes up to three, and other vocabularies hold tokens
    // such as "0.", ".5", "-1" or "5,". Such tokens are appended to the real vocabulary here.
    const extra = [
      '12',
      '345',
      '999',
      '0.',
      '.5',
      '.25',
      '-1',
      '-0',
      '5,',
      '0}',
      '00',
      '1e',
      'e5',
      '.0,',
    ].map((text) => new TextEncoder().encode(text));
    const vocabulary: DecoderVocabulary = {
      tokens: [...q.vocabulary.tokens, ...extra],
      eosTokenIds: q.vocabulary.eosTokenIds,
      specialTokenIds: q.vocabulary.specialTokenIds ?? [],
    };
    const random = new Random(7);
    for (const { schema, options } of SCHEMAS.slice(0, 2)) {
      const grammar = compileSchema(schema, vocabulary, options);
      checkRandomPositions(grammar, vocabulary, random, 10);
    }
  });

  it('share a number mask only between texts with the same completions', () => {
    const grammar = compileSchema({ type: 'integer', minimum: 1000, maximum: 80000 }, q.vocabulary, {
      precompute: { positions: 0 },
    });
    const maskAfter = (text: string) => {
      const matcher = new GrammarMatcher(grammar);
      for (const id of q.encode(text)) expect(matcher.accept(id)).toBe(true);
      return matcher.mask();
    };
    const misses = () => grammar.stats.misses;
    // "23" and "41" both need two or three more digits: one mask.
    const first = maskAfter('23');
    const before = misses();
    expect(maskAfter('41')).toBe(first);
    expect(misses()).toBe(before);
    // "8" is a prefix of the maximum: "80000" may end, "81000" may not; it has its own mask.
    const eight = maskAfter('8000');
    const seven = maskAfter('7000');
    const zero = q.encode('0')[0] as number;
    const one = q.encode('1')[0] as number;
    expect(isAllowed(eight, zero)).toBe(true);
    expect(isAllowed(eight, one)).toBe(false);
    expect(isAllowed(seven, one)).toBe(true);
  });

  it('follow free whitespace before punctuation or a number down its own runs, not the whole trie', () => {
    const grammar = compileSchema({ type: 'array', items: { type: 'integer' } }, q.vocabulary, {
      whitespace: 'flexible',
      precompute: { positions: 0 },
    });
    const matcher = new GrammarMatcher(grammar);
    for (const id of q.encode('[1')) expect(matcher.accept(id)).toBe(true);
    // After "1": more digits, or whitespace, then "," or "]". No generic walk (trie nodes stepped one
    // by one), and the same tokens as the walk: whitespace runs, ",", "]", " ]" and the like.
    const visited = grammar.stats.nodesVisited;
    const mask = matcher.mask();
    expect(grammar.stats.nodesVisited).toBe(visited);
    expect(allowedTokenIds(mask)).toEqual(allowedTokenIds(referenceMask(matcher)));
    for (const text of [' ]', '\n', ',', ']', '0']) {
      const id = q.encode(text);
      if (id.length === 1) expect(isAllowed(mask, id[0] as number), text).toBe(true);
    }
    expect(isAllowed(mask, q.encode('"')[0] as number)).toBe(false);
  });

  it('keep "-0.0" and "-0.5" apart (a negative zero cannot end)', () => {
    const grammar = compileSchema({ type: 'number', multipleOf: 0.01 }, q.vocabulary);
    const eos = q.vocabulary.eosTokenIds[0] as number;
    for (const [text, complete] of [
      ['-0.0', false],
      ['-0.5', true],
      ['-0.05', true],
    ] as const) {
      const matcher = new GrammarMatcher(grammar);
      for (const id of q.encode(text)) expect(matcher.accept(id)).toBe(true);
      expect(isAllowed(matcher.mask(), eos), text).toBe(complete);
      expect(matcher.isComplete(), text).toBe(complete);
    }
  });

  it('let a sequence that stays on the schema read only precomputed masks: no trie walk at decode time', () => {
    const grammar = compileSchema(SCHEMAS[0]?.schema, q.vocabulary);
    const text = '{"price":23450.5,"days":14,"financing":"loan_60","trade_in":true,"share":0.25}';
    const matcher = new GrammarMatcher(grammar);
    const misses = grammar.stats.misses;
    for (const id of q.encode(text)) {
      expect(isAllowed(matcher.mask(), id)).toBe(true);
      expect(matcher.accept(id)).toBe(true);
    }
    expect(matcher.isComplete()).toBe(true);
    expect(grammar.stats.misses).toBe(misses);
    expect(grammar.cacheBytes()).toBeGreaterThan(0);
  });

  it('reach past a price and a list of strings to the next string opening, and hold it exact', () => {
    // A turn's shape: a number (hundreds of digit positions), a list of labels, then a message. The
    // opening of the message is read by every sequence that writes one; its closing tokens are walked
    // with the whole parser, so it is worth its place in the budget.
    const grammar = compileSchema(
      {
        type: 'object',
        properties: {
          price: { type: 'number', minimum: 40, maximum: 1_000_000_000 },
          labels: { type: 'array', items: { type: 'string', pattern: '^[a-z_]+$' }, maxItems: 5 },
          message: { type: 'string', minLength: 1, maxLength: 2000 },
        },
        required: ['price', 'labels', 'message'],
        additionalProperties: false,
      },
      q.vocabulary,
      // The default budget in positions, with no time limit: on a loaded machine the default 50 ms
      // ends the precomputation before the message opening (a CI run at load 20 failed here).
      { precompute: { positions: 512, timeMs: Number.POSITIVE_INFINITY } },
    );
    const matcher = new GrammarMatcher(grammar);
    for (const id of q.encode('{"price":45.5,"labels":["a"],"message":"')) {
      expect(matcher.accept(id)).toBe(true);
    }
    const misses = grammar.stats.misses;
    const mask = matcher.mask();
    expect(grammar.stats.misses).toBe(misses);
    expect(allowedTokenIds(mask)).toEqual(allowedTokenIds(referenceMask(matcher)));
  });
});
