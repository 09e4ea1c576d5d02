import { expect, it } from 'vitest';
import { fixtureModel } from '../onnx/fixture-model.js';
import { runExample } from './run-example.js';

// Run with the tokenizer of a model folder, as from an installed package (no dev dependency's files).
it('bring-your-own-schema: random logits satisfy every keyword; an unenforceable one is refused', async () => {
  const out = await runExample('bring-your-own-schema.ts', fixtureModel(1));
  const verdicts = out.match(/satisfies the schema: (true|false)/g) ?? [];
  expect(verdicts).toHaveLength(3);
  for (const verdict of verdicts) expect(verdict).toBe('satisfies the schema: true');
  expect(out).toMatch(/refused: contains at #$/m);
});
