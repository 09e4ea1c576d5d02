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
});
