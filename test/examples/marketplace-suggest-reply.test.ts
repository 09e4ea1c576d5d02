import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('marketplace-suggest-reply: the below-floor counter is re-asked, the suggestion respects the floor', async () => {
  const out = await runExample('marketplace-suggest-reply.ts');
  expect(out).toMatch(/suggested reply: offer_with_message 104/);
  expect(out).toMatch(/model calls: 2/);
  expect(out.match(/^option:/gm)).toHaveLength(2);
});
