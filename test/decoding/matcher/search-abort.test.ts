import { beforeAll, describe, expect, it } from 'vitest';
import { HaggleAbortError } from '../../../src/contract/errors.js';
import { SEARCH_BUDGET_MS } from '../../../src/decoding/grammar/search-budget.js';
import {
  compileSchema,
  decodeConstrained,
  SchemaLimitError,
  TokenSampler,
} from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';

// Issue 40: a search inside the decoder runs on the model worker's thread, which every request of a
// model shares, and inside one token's work, where no abort event can arrive. Each long search (the
// completion near the token budget, a mask over a large enum, the bytes a grammar forces) looks at
// the abort signal as it goes (through a getter, as the worker reads its shared-memory flag), and the
// completion search has a deadline of its own. Before, the completion search of a unique list ran for
// seconds to minutes without looking, and a mask walked every value of an enum.

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
}, 120_000);

/** An AbortSignal as the model worker makes one: `aborted` read from memory another thread writes. */
function flagSignal(): { signal: AbortSignal; reads: () => number; set: () => void } {
  let flag = false;
  let reads = 0;
  const signal = {
    get aborted() {
      reads++;
      return flag;
    },
    reason: 'aborted by the caller',
  } as AbortSignal;
  return { signal, reads: () => reads, set: () => (flag = true) };
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

/**
 * Unique strings of digits, many of them: finishing the list near the token budget is a search (the
 * structural completion's letter suffixes do not match the pattern).
 */
const UNIQUE = {
  type: 'array',
  items: { type: 'string', pattern: '^[0-9]+$' },
  uniqueItems: true,
  minItems: 200,
};

describe('searches inside the decoder look at the abort flag and a deadline', () => {
  it('the completion search stops at an abort set while it runs, with HaggleAbortError', () => {
    const grammar = compileSchema(UNIQUE, q.vocabulary, { warm: false });
    const { signal, set } = flagSignal();
    // The flag is set by "another thread" 50 ms into the search (a timer cannot fire inside it; the
    // clock is read through the signal's getter instead).
    const started = performance.now();
    const abortAt = started + 50;
    const timed = {
      get aborted() {
        if (performance.now() > abortAt) set();
        return signal.aborted;
      },
      reason: signal.reason,
    } as AbortSignal;
    const timedMatcher = new GrammarMatcher(grammar, timed);
    for (const id of q.encode('["1')) expect(timedMatcher.accept(id)).toBe(true);
    const error = thrown(() => timedMatcher.completionBytes());
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(HaggleAbortError);
    // Generous for a loaded machine: the search looks every 256 steps, each microseconds.
    expect(ms).toBeLessThan(SEARCH_BUDGET_MS);
  });

  it('without an abort, a completion search that cannot finish is a SchemaLimitError (search) by its deadline, not a hang', () => {
    const grammar = compileSchema(UNIQUE, q.vocabulary, { warm: false });
    const matcher = new GrammarMatcher(grammar);
    for (const id of q.encode('["1')) expect(matcher.accept(id)).toBe(true);
    const started = performance.now();
    const error = thrown(() => matcher.completionBytes());
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(SchemaLimitError);
    expect((error as SchemaLimitError).limit).toBe('search');
    expect((error as SchemaLimitError).code).toBe('schema-limit');
    expect(ms).toBeLessThan(SEARCH_BUDGET_MS + 3_000);
  }, 30_000);

  it('a mask over a large enum is walked with the abort flag in view', () => {
    const values = Array.from({ length: 4_000 }, (_, i) => `label-${i}-${'x'.repeat(i % 17)}`);
    // No warming: the first mask is computed by the walk this test aborts.
    const grammar = compileSchema({ enum: values }, q.vocabulary, { warm: false });
    const { signal, reads, set } = flagSignal();
    set();
    const error = thrown(() => new GrammarMatcher(grammar, signal).mask());
    expect(error).toBeInstanceOf(HaggleAbortError);
    expect(reads()).toBeGreaterThan(0);
    // Not aborted: the same walk gives the mask, every value's first token allowed.
    const mask = new GrammarMatcher(grammar).mask();
    expect(mask.some((word) => word !== 0)).toBe(true);
  });

  it('a list of 200 unique strings is finished structurally, in milliseconds, each value new', () => {
    const grammar = compileSchema({ ...UNIQUE, items: { type: 'string' } }, q.vocabulary, { warm: false });
    const matcher = new GrammarMatcher(grammar);
    for (const id of q.encode('["a","","b')) expect(matcher.accept(id)).toBe(true);
    const started = performance.now();
    const rest = new TextDecoder().decode(matcher.completionBytes());
    expect(performance.now() - started).toBeLessThan(1_000);
    const list = JSON.parse(`["a","","b${rest}`) as string[];
    expect(list).toHaveLength(200);
    expect(new Set(list).size).toBe(200);
  });

  it('decodeConstrained stops inside the search of one step when the abort comes during it', async () => {
    // A budget of 24 tokens: the decoder looks for the way to finish the list before the first token,
    // and that search is where the abort (the caller's deadline, 50 ms in) arrives.
    const grammar = compileSchema(UNIQUE, q.vocabulary, { warm: false });
    const abortAt = performance.now() + 50;
    const signal = {
      get aborted() {
        return performance.now() > abortAt;
      },
      reason: 'aborted by the caller',
    } as AbortSignal;
    const logits = new Float32Array(q.vocabulary.tokens.length);
    let passes = 0;
    const started = performance.now();
    const run = decodeConstrained({
      grammar,
      sampler: new TokenSampler({ seed: 1 }),
      maxTokens: 24,
      nextLogits: () => {
        passes++;
        return logits;
      },
      encode: (text) => q.encode(text),
      signal,
    });
    await expect(run).rejects.toBeInstanceOf(HaggleAbortError);
    expect(passes).toBe(0);
    expect(performance.now() - started).toBeLessThan(SEARCH_BUDGET_MS);
  });
});

describe('what a grammar costs to decode is bounded when it is compiled', () => {
  it('uniqueItems with minItems 20,000 (90 bytes of schema) is refused at once: unique, maxUniqueItems', () => {
    const started = performance.now();
    const error = thrown(() =>
      compileSchema(
        { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 20_000 },
        q.vocabulary,
        { warm: false },
      ),
    );
    expect(error).toBeInstanceOf(SchemaLimitError);
    expect((error as SchemaLimitError).limit).toBe('unique');
    expect((error as SchemaLimitError).option).toBe('maxUniqueItems');
    expect((error as SchemaLimitError).message).toContain('256 unique items');
    expect(performance.now() - started).toBeLessThan(1_000);
    // The option raises it: the same list of 300 compiles.
    expect(() =>
      compileSchema({ ...UNIQUE, minItems: 300 }, q.vocabulary, { warm: false, maxUniqueItems: 300 }),
    ).not.toThrow();
  });

  it('an enum of 60,000 strings (within maxSize) is refused by maxEnumValues', () => {
    const error = thrown(() =>
      compileSchema({ enum: Array.from({ length: 60_000 }, (_, i) => `v${i}`) }, q.vocabulary, {
        warm: false,
      }),
    );
    expect(error).toBeInstanceOf(SchemaLimitError);
    expect((error as SchemaLimitError).limit).toBe('enum');
    expect((error as SchemaLimitError).option).toBe('maxEnumValues');
    expect((error as SchemaLimitError).message).toContain('4096 enum values');
  });

  it('a 3.5 MB const, and const/enum text over 1 MiB in all, are refused (literal)', () => {
    const big = thrown(() => compileSchema({ const: 'a'.repeat(3_500_000) }, q.vocabulary, { warm: false }));
    expect(big).toBeInstanceOf(SchemaLimitError);
    expect((big as SchemaLimitError).limit).toBe('literal');
    expect((big as SchemaLimitError).message).toMatch(/const or enum value of 3500002 characters/);
    // Each value within 64 KiB, 20 of them: 1.2 MB of const text in one schema.
    const many = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`k${i}`, { const: `${i}`.padEnd(60_000, 'z') }]),
      ),
    };
    const total = thrown(() => compileSchema(many, q.vocabulary, { warm: false }));
    expect(total).toBeInstanceOf(SchemaLimitError);
    expect((total as SchemaLimitError).limit).toBe('literal');
    expect((total as SchemaLimitError).message).toContain('1048576 characters');
  });
});
