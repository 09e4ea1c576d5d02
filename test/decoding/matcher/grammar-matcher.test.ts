import { beforeAll, describe, expect, it } from 'vitest';
import { turnJsonSchema } from '../../../src/contract/index.js';
import {
  type CompiledGrammar,
  compileSchema,
  decodeConstrained,
  isAllowed,
  jumpForward,
  TokenSampler,
} from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import { Random } from '../../../src/internal/random.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import {
  expectAccepted,
  expectMasksMatchBytesAtEveryCut,
  expectPrefixAccepted,
  expectPrefixRefused,
  expectRefused,
} from '../support/walk.js';

let q: Qwen3;
let turn: CompiledGrammar;
const EXAMPLE =
  '{"action":"offer_with_message","price":45.0,"message_labels":["build_rapport","invoke_compromise"],"message":"Hi, I\'ve been looking for this exact item...","response_time":3}';

beforeAll(async () => {
  q = await qwen3();
  turn = compileSchema(
    turnJsonSchema({ role: 'seller', guardrails: { seller: { minPrice: 40 } } }),
    q.vocabulary,
  );
});

describe('the turn schema', () => {
  it('accepts the model card example token by token', () => {
    expectAccepted(turn, q, EXAMPLE);
    expectAccepted(
      turn,
      q,
      '{"action":"accept","price":null,"message_labels":[],"message":"","response_time":0.5}',
    );
  });
  it("enforces the seller's floor while the price is written", () => {
    expectPrefixRefused(turn, q, '{"action":"offer","price":39,');
    expectPrefixAccepted(turn, q, '{"action":"offer","price":3'); // 300 is above the floor
    expectAccepted(
      turn,
      q,
      '{"action":"offer","price":40,"message_labels":[],"message":"","response_time":1}',
    );
    expectPrefixRefused(turn, q, '{"action":"offer","price":-');
  });
  it('refuses what the contract refuses', () => {
    expectPrefixRefused(turn, q, '{"action":"offer","price":50,"message_labels":["x"]');
    expectPrefixRefused(turn, q, '{"action":"accept","price":4');
    expectRefused(turn, q, '{"action":"message_only","price":null,"message_labels":[],"message":""');
    expectPrefixRefused(turn, q, '{"action":"message_only","price":null,"message_labels":["Bad"');
    expectPrefixRefused(turn, q, '{"action":"message_only","price":null,"message_labels":["a","a"]');
    expectPrefixRefused(
      turn,
      q,
      '{"action":"offer","price":50,"message_labels":[],"message":"","response_time":100001',
    );
    expectPrefixRefused(turn, q, '{"action":"haggle"');
  });
});

describe('masks', () => {
  it('agree with accepting each token on its own, at many positions (trie walk and string fast path)', () => {
    const random = new Random(3);
    const ids = q.encode(EXAMPLE);
    const special = q.vocabulary.specialTokenIds as ReadonlySet<number>;
    const quoteIds = q.vocabulary.tokens.flatMap((bytes, id) => (bytes.includes(0x22) ? [id] : []));
    for (let cut = 0; cut <= ids.length; cut += 3) {
      const matcher = new GrammarMatcher(turn);
      for (const id of ids.slice(0, cut)) expect(matcher.accept(id)).toBe(true);
      const mask = matcher.mask();
      const sample = [
        ...quoteIds.slice(0, 400),
        ...Array.from({ length: 1500 }, () => random.int(0, q.vocabulary.tokens.length - 1)),
      ];
      for (const id of sample) {
        const bytes = q.vocabulary.tokens[id] as Uint8Array;
        const expected = !special.has(id) && bytes.length > 0 && matcher.acceptsBytes(bytes);
        expect(
          isAllowed(mask, id),
          `token ${id} ${JSON.stringify(new TextDecoder().decode(bytes))} at cut ${cut}`,
        ).toBe(expected);
      }
    }
  });
  it('agree with accepting each token inside strings mid-character and mid-escape, with and without a pattern', () => {
    const random = new Random(5);
    const cases: Array<[unknown, string]> = [
      [{ type: 'string', maxLength: 12 }, '"日本語😀é\\u00e9\\n'],
      [{ type: 'string', pattern: '^[a-zé]+$' }, '"aébé'],
    ];
    expectMasksMatchBytesAtEveryCut(q, cases, random, { highBytes: 300, randomIds: 300 });
  });
  it('stay exact when positions share a cached mask (numbers whose completions are all in range)', () => {
    const g = compileSchema(
      { type: 'object', properties: { p: { type: 'number', minimum: 200, maximum: 2000 } }, required: ['p'] },
      q.vocabulary,
    );
    const candidates = q.encode('0123456789.,}-"').concat(q.encode(' 5'), q.encode('.5'));
    for (const text of ['{"p":899.9', '{"p":640.5', '{"p":1999.', '{"p":2000', '{"p":19', '{"p":200.']) {
      const m = new GrammarMatcher(g);
      for (const id of q.encode(text)) expect(m.accept(id)).toBe(true);
      const mask = m.mask();
      for (const id of candidates) {
        expect(isAllowed(mask, id), `${text} + ${q.tokenizer.decode([id])}`).toBe(
          m.acceptsBytes(q.vocabulary.tokens[id] as Uint8Array),
        );
      }
    }
  });
  it('are cached per grammar state: the same state twice costs one computation', () => {
    const g = compileSchema({ type: 'array', items: { type: 'integer' } }, q.vocabulary);
    const m = new GrammarMatcher(g);
    for (const id of q.encode('[1,2,3,4')) {
      m.mask();
      m.accept(id);
    }
    const misses = g.stats.misses;
    for (const id of q.encode(',5,6,7')) {
      m.mask();
      m.accept(id);
    }
    expect(g.stats.misses).toBe(misses); // "," after a number and a digit after "," repeat
    expect(g.stats.hits).toBeGreaterThan(0);
  });
  it('never allow special tokens; end-of-sequence only once the JSON is complete', () => {
    const g = compileSchema({ type: 'string' }, q.vocabulary);
    const m = new GrammarMatcher(g);
    const imEnd = q.tokenizer.tokenId('<|im_end|>') as number;
    expect(q.vocabulary.eosTokenIds).toContain(imEnd);
    const imStart = q.tokenizer.tokenId('<|im_start|>') as number;
    expect(m.accept(q.encode('"')[0] as number)).toBe(true);
    expect(isAllowed(m.mask(), imStart)).toBe(false);
    expect(m.accept(imStart)).toBe(false);
    expect(isAllowed(m.mask(), imEnd)).toBe(false);
    expect(m.accept(imEnd)).toBe(false);
    expect(m.accept(q.encode('"')[0] as number)).toBe(true);
    expect(m.isComplete()).toBe(true);
    expect(isAllowed(m.mask(), imEnd)).toBe(true);
    expect(isAllowed(m.mask(), imStart)).toBe(false);
    expect(m.accept(imEnd)).toBe(true);
    expect(m.isTerminated()).toBe(true);
    expect(m.mask().every((w) => w === 0)).toBe(true);
  });
});

describe('matcher API', () => {
  it('rollback(n) returns to an earlier position', () => {
    const m = new GrammarMatcher(turn);
    const ids = q.encode(EXAMPLE);
    for (const id of ids.slice(0, 10)) m.accept(id);
    const before = m.mask().slice();
    for (const id of ids.slice(10, 15)) m.accept(id);
    m.rollback(5);
    expect(m.acceptedTokens).toEqual(ids.slice(0, 10));
    expect(m.mask()).toEqual(before);
    expect(() => m.rollback(11)).toThrow(/rollback/);
  });
  it('forcedText() is what the grammar forces next', () => {
    const m = new GrammarMatcher(turn);
    expect(m.forcedText()).toBe('{"action":"');
    for (const id of q.encode('{"action":"offer_with')) m.accept(id);
    expect(m.forcedText()).toBe('_message","price":');
    for (const id of q.encode('_message","price":45')) m.accept(id);
    expect(m.forcedText()).toBe('');
  });
  it('completionBytes() finishes any position with a valid document', () => {
    const ids = q.encode(EXAMPLE);
    for (let cut = 0; cut < ids.length; cut += 2) {
      const m = new GrammarMatcher(turn);
      for (const id of ids.slice(0, cut)) m.accept(id);
      const text = new TextDecoder().decode(
        new Uint8Array([
          ...ids.slice(0, cut).flatMap((id) => [...(q.vocabulary.tokens[id] as Uint8Array)]),
          ...m.completionBytes(),
        ]),
      );
      expect(() => JSON.parse(text)).not.toThrow();
      expectAccepted(turn, q, text);
    }
  });
});

describe('jump-forward', () => {
  it('appends forced text as the tokenizer would tokenise it, re-tokenising the last token', () => {
    const m = new GrammarMatcher(turn);
    const first = jumpForward(m, q.encode);
    expect(first?.rollback).toBe(0);
    expect(q.tokenizer.decode(first?.tokens ?? [])).toBe('{"action":"');
    const m2 = new GrammarMatcher(turn);
    for (const id of q.encode('{"action":"offer_with_message')) m2.accept(id);
    const jf = jumpForward(m2, q.encode);
    expect(jf).not.toBeNull();
    const text = q.tokenizer.decode(m2.acceptedTokens);
    expect(text).toBe('{"action":"offer_with_message","price":');
    // The tokens are the tokenizer's own for that text (apart from a held-back boundary token).
    const natural = q.encode(text);
    expect(natural.slice(0, m2.acceptedTokens.length)).toEqual([...m2.acceptedTokens]);
  });
  it('saves at least a third of the forward passes of typical turns', async () => {
    const texts = [
      EXAMPLE,
      '{"action":"offer","price":42.5,"message_labels":[],"message":"","response_time":2}',
      '{"action":"accept","price":null,"message_labels":[],"message":"","response_time":1}',
    ];
    let withJump = 0;
    let without = 0;
    for (const text of texts) {
      const target = q.encode(text);
      for (const encode of [q.encode, undefined]) {
        // A "model" that wants exactly the target text: its logits favour the next target token.
        const result = await decodeConstrained({
          grammar: turn,
          sampler: new TokenSampler({ temperature: 0 }),
          encode,
          nextLogits: (tokens) => {
            const logits = new Float32Array(q.vocabulary.tokens.length);
            const next = target[tokens.length] ?? (q.vocabulary.eosTokenIds[0] as number);
            logits[next] = 10;
            return logits;
          },
        });
        expect(result.text).toBe(text);
        if (encode) withJump += result.forwardPasses;
        else without += result.forwardPasses;
      }
    }
    expect(withJump).toBeLessThanOrEqual((without * 2) / 3);
  });
});
