import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/contract/errors.js';
import { GrammarCompiler } from '../../src/decoding/index.js';
import { allowedTokenIds } from '../../src/decoding/vocabulary.js';
import { type Qwen3, qwen3 } from './qwen3.js';

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
    const matcher = compiler.compile(offer(100)).matcher();
    for (const token of q.encode('{"action":"offer","price":12}')) expect(matcher.accept(token)).toBe(true);
    expect(allowedTokenIds(matcher.mask())).toEqual(expect.arrayContaining([...q.vocabulary.eosTokenIds]));
  });

  it('refuses cache sizes that are not positive integers', () => {
    expect(() => new GrammarCompiler(q.vocabulary, { grammarCacheSize: 0 })).toThrow(InvalidInputError);
  });
});
