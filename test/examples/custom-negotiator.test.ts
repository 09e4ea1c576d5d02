import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('custom-negotiator: a custom seller plays a session to its end', async () => {
  const out = await runExample('custom-negotiator.ts');
  expect(out).toMatch(/#0 .* buyer /);
  expect(out).toMatch(/^outcome: (deal|no-deal) \(/m);
});
