import { expect } from 'vitest';
import type { CompiledGrammar } from '../../../src/decoding/index.js';
import { compileSchema, isAllowed } from '../../../src/decoding/index.js';
import { GrammarMatcher } from '../../../src/decoding/matcher/grammar-matcher.js';
import type { Random } from '../../../src/internal/random.js';
import type { Qwen3 } from './qwen3.js';

/**
 * Walks `text`'s Qwen3 tokens through a fresh matcher. Returns the index of the first refused token
 * (-1 if all are accepted) and whether the document is then complete with end-of-sequence allowed.
 * Checks at every step that the mask and accept() agree.
 */
export function walk(
  grammar: CompiledGrammar,
  q: Qwen3,
  text: string,
): { refusedAt: number; complete: boolean } {
  const matcher = new GrammarMatcher(grammar);
  const ids = q.encode(text);
  for (const [index, id] of ids.entries()) {
    const allowed = isAllowed(matcher.mask(), id);
    const accepted = matcher.accept(id);
    expect(accepted, `mask and accept disagree on token ${index} of ${JSON.stringify(text)}`).toBe(allowed);
    if (!accepted) return { refusedAt: index, complete: false };
  }
  const eos = q.vocabulary.eosTokenIds[0] as number;
  const complete = matcher.isComplete();
  expect(isAllowed(matcher.mask(), eos)).toBe(complete);
  return { refusedAt: -1, complete };
}

/** The text is a whole valid document: every token accepted, then end-of-sequence allowed. */
export function expectAccepted(grammar: CompiledGrammar, q: Qwen3, text: string): void {
  expect(walk(grammar, q, text), JSON.stringify(text)).toEqual({ refusedAt: -1, complete: true });
}

/** The text is refused: some token is refused, or every token passes but the document is incomplete. */
export function expectRefused(grammar: CompiledGrammar, q: Qwen3, text: string): void {
  const result = walk(grammar, q, text);
  expect(result.refusedAt >= 0 || !result.complete, `${JSON.stringify(text)} should be refused`).toBe(true);
}

/** Refused as a prefix: some token is refused (not merely incomplete). */
export function expectPrefixRefused(grammar: CompiledGrammar, q: Qwen3, text: string): void {
  expect(
    walk(grammar, q, text).refusedAt,
    `${JSON.stringify(text)} should be refused`,
  ).toBeGreaterThanOrEqual(0);
}

/** A valid prefix: every token accepted (complete or not). */
export function expectPrefixAccepted(grammar: CompiledGrammar, q: Qwen3, text: string): void {
  expect(walk(grammar, q, text).refusedAt, `${JSON.stringify(text)} should be accepted`).toBe(-1);
}

/**
 * For each case, cuts the text at every byte (inside UTF-8 characters and escapes too), feeds the cut as
 * one-byte tokens, and checks the mask there against accepting each token byte by byte: `highBytes`
 * picks tokens that start with a byte >= 0x80, `randomIds` any tokens.
 */
export function expectMasksMatchBytesAtEveryCut(
  q: Qwen3,
  cases: ReadonlyArray<readonly [unknown, string]>,
  random: Random,
  sample: { highBytes: number; randomIds: number },
): void {
  const highBytes = q.vocabulary.tokens.flatMap((bytes, id) => ((bytes[0] ?? 0) >= 0x80 ? [id] : []));
  const byteToken = (b: number) => q.vocabulary.tokens.findIndex((t) => t.length === 1 && t[0] === b);
  for (const [schema, text] of cases) {
    const g = compileSchema(schema, q.vocabulary);
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut <= bytes.length; cut++) {
      const m = new GrammarMatcher(g);
      let ok = true;
      for (const b of bytes.subarray(0, cut)) ok &&= m.accept(byteToken(b));
      expect(ok, `${cut} of ${text}`).toBe(true);
      const mask = m.mask();
      const ids = [
        ...Array.from({ length: sample.highBytes }, () => random.pick(highBytes)),
        ...Array.from({ length: sample.randomIds }, () => random.int(0, 151_000)),
      ];
      for (const id of ids) {
        const token = q.vocabulary.tokens[id] as Uint8Array;
        expect(isAllowed(mask, id), `cut ${cut} of ${text}, token ${id}`).toBe(
          token.length > 0 && m.acceptsBytes(token),
        );
      }
    }
  }
}
