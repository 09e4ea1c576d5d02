import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/contract/errors.js';
import { GrammarCompiler } from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { allowedTokenIds } from '../../../src/decoding/vocabulary/vocabulary.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';

const offer = (maximum: number) => ({
  type: 'object',
  properties: { action: { enum: ['offer', 'accept'] }, price: { type: 'number', minimum: 0, maximum } },
  required: ['action', 'price'],
  additionalProperties: false,
});

describe('GrammarCompiler: one per vocabulary, a bounded cache of compiled grammars', () => {
  let q: Qwen3;
  let compiler: GrammarCompiler;
  beforeAll(async () => {
    q = await qwen3();
    compiler = new GrammarCompiler(q.vocabulary, { grammarCacheSize: 4 });
  }, 120_000);

  it('returns the kept grammar for the same schema and options, a new one for others', () => {
    const first = compiler.compile(offer(100));
    expect(compiler.compile(offer(100))).toBe(first);
    // The budget and the signal bound one compile; they are not part of what is kept.
    expect(compiler.compile(offer(100), { timeBudgetMs: 5_000, signal: new AbortController().signal })).toBe(
      first,
    );
    expect(compiler.compile(offer(100), { warm: false })).not.toBe(first);
    expect(compiler.compile(offer(200))).not.toBe(first);
    // `build` compiles every time.
    expect(compiler.build(offer(100))).not.toBe(first);
  });

  it('keeps at most grammarCacheSize grammars however many distinct schemas come, and says so', () => {
    for (let maximum = 1_000; maximum < 1_040; maximum++) compiler.compile(offer(maximum));
    const memory = compiler.memory();
    expect(memory.grammars).toBe(4);
    expect(memory.grammarLimit).toBe(4);
    expect(memory.grammarEvictions).toBeGreaterThanOrEqual(36);
    expect(memory.grammarBytes).toBeGreaterThan(0);
    expect(memory.insideBytes).toBeGreaterThan(0);
  });

  it('compiles grammars that decode over its vocabulary', () => {
    const matcher = new GrammarMatcher(compiler.compile(offer(100)));
    for (const token of q.encode('{"action":"offer","price":12}')) expect(matcher.accept(token)).toBe(true);
    expect(allowedTokenIds(matcher.mask())).toEqual(expect.arrayContaining([...q.vocabulary.eosTokenIds]));
  });

  it('refuses cache sizes that are not positive integers', () => {
    expect(() => new GrammarCompiler(q.vocabulary, { grammarCacheSize: 0 })).toThrow(InvalidInputError);
  });
});

describe('GrammarCompiler: every per-vocabulary cache is its own, and bounded', () => {
  let q: Qwen3;
  beforeAll(async () => {
    q = await qwen3();
  }, 120_000);

  /** An object whose keys are its own `n` names, with a `pattern` string per key (a distinct shape). */
  const named = (n: number) => ({
    type: 'object',
    properties: Object.fromEntries(
      [`k${n}a`, `k${n}b`].map((name) => [name, { type: 'string', pattern: `^x${n}$` }]),
    ),
    additionalProperties: false,
  });

  /**
   * Opens the object and its first key, and asks for the mask there (an inside-the-key mask; keys in
   * any order, so the key is a `KeyLeaf` over the names, not the first name as a literal).
   */
  function maskInsideKey(compiler: GrammarCompiler, schema: unknown): number[] {
    const matcher = new GrammarMatcher(compiler.build(schema, { warm: false, propertyOrder: 'any' }));
    for (const token of q.encode('{"')) expect(matcher.accept(token)).toBe(true);
    return allowedTokenIds(matcher.mask());
  }

  it('two compilers over the same vocabulary share no cache object', () => {
    const one = new GrammarCompiler(q.vocabulary);
    const two = new GrammarCompiler(q.vocabulary);
    expect(two.trie).not.toBe(one.trie);
    expect(two.inside).not.toBe(one.inside);
    expect(two.inside.keys).not.toBe(one.inside.keys);
    expect(two.inside.plainLengths).toBeDefined();
    expect(two.inside.plainLengths).not.toBe(one.inside.plainLengths);
    expect(two.patterns).not.toBe(one.patterns);
    // What one compiler learns from a schema, the other does not hold.
    const before = two.memory();
    const mask = maskInsideKey(one, named(1));
    expect(one.memory().patterns).toBe(1);
    expect(one.memory().keyShapes).toBe(1);
    expect(two.memory()).toEqual(before);
    // And both give the same mask for it, from their own caches.
    expect(maskInsideKey(two, named(1))).toEqual(mask);
    expect(two.memory().keyShapes).toBe(1);
  }, 60_000);

  it('the key-shape and pattern tables stop growing at their bounds however many names clients send', () => {
    const compiler = new GrammarCompiler(q.vocabulary, { keyShapeCacheSize: 64, patternCacheSize: 32 });
    const sizes: number[] = [];
    for (let n = 0; n < 400; n++) {
      expect(maskInsideKey(compiler, named(n)).length).toBeGreaterThan(0);
      const memory = compiler.memory();
      expect(memory.keyShapes).toBeLessThanOrEqual(64);
      expect(memory.patterns).toBeLessThanOrEqual(32);
      sizes.push(memory.keyShapes);
    }
    // Each schema added a shape until the bound, and the table stayed full at it after.
    expect(sizes[9]).toBe(10);
    expect(sizes.slice(63)).toEqual(Array(400 - 63).fill(64));
    const memory = compiler.memory();
    expect(memory).toMatchObject({ keyShapeLimit: 64, patterns: 32, patternLimit: 32 });
  }, 120_000);

  it('refuses table sizes that are not positive integers', () => {
    expect(() => new GrammarCompiler(q.vocabulary, { keyShapeCacheSize: 0 })).toThrow(InvalidInputError);
    expect(() => new GrammarCompiler(q.vocabulary, { patternCacheSize: 1.5 })).toThrow(InvalidInputError);
  });
});
