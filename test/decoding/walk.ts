import { expect } from 'vitest';
import type { CompiledGrammar } from '../../src/decoding/index.js';
import { isAllowed } from '../../src/decoding/index.js';
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
  const matcher = grammar.matcher();
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
