import { expect, it } from 'vitest';
import { qwen3 } from '../support/qwen3.js';
import { runRandomTurns, turnVariants } from '../support/random-turns.js';

// The decoder's guarantee against the hardest customer: random logits. 500 turns here (and 500 at the
// other temperature in its own file, so the two run in parallel); the 10,000-turn version is
// test/decoding/support/random-turns-run.ts, run by hand.
it('random logits at temperature 1.5 always yield a valid turn within the guardrails', async () => {
  const q = await qwen3();
  const result = await runRandomTurns(q, turnVariants(q), {
    turns: 500,
    temperature: 1.5,
    seed: 15,
    maxTokens: 100,
  });
  expect(result.failures).toEqual([]);
  expect(result.turns).toBe(500);
  // Both ways of ending happen: the model ending the JSON, and the budget steering it to an end.
  expect(result.finishedByBudget).toBeGreaterThan(0);
  expect(result.finishedByBudget).toBeLessThan(500);
}, 180_000);
