import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('marketplace-suggest-reply: the below-floor counter is re-asked, the suggestion respects the floor', async () => {
  const out = await runExample('marketplace-suggest-reply.ts');
  // The seller's counter lies above the buyer's 70 and below the list price, and the floor narrows it.
  expect(out).toMatch(/legal move: offer at a price in \[95, 120\) in steps of 0\.01/);
  expect(out).toMatch(/legal move: accept \(a deal at 70/);
  expect(out).toMatch(/suggested reply: offer_with_message 104/);
  expect(out).toMatch(/model calls: 2/);
  expect(out.match(/^option:/gm)).toHaveLength(2);
  // The wrong side and an unmeetable floor are refused before the backend is asked (3 calls before).
  expect(out).toMatch(/not the buyer's turn: the seller moves next/);
  expect(out).toMatch(
    /guardrail refused: the seller's guardrails \(minPrice 150\) leave it no price to offer or accept/,
  );
  expect(out).toMatch(/set seller\.minPrice at or below 119\.99/);
  expect(out).toMatch(/model calls after both mistakes: 3/);
});
