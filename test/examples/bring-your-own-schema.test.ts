import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('bring-your-own-schema: random logits satisfy every keyword; an unenforceable one is refused', async () => {
  const out = await runExample('bring-your-own-schema.ts');
  const verdicts = out.match(/satisfies the schema: (true|false)/g) ?? [];
  expect(verdicts).toHaveLength(3);
  for (const verdict of verdicts) expect(verdict).toBe('satisfies the schema: true');
  expect(out).toMatch(/refused: contains at #$/m);
});
