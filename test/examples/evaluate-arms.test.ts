import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('evaluate-arms: two arms on 1,152 negotiations each, a paired verdict, GRPO groups', async () => {
  const out = await runExample('evaluate-arms.ts');
  expect(out).toMatch(/^boulware\s+matches 1152 {2}deal rate \d+\.\d% {2}utility \d\.\d{3} \[/m);
  expect(out).toMatch(/^linear\s+matches 1152/m);
  expect(out).toMatch(/detectable difference at the 5% level: mean difference/);
  expect(out).toMatch(/^192 GRPO groups of 12 rollouts$/m);
});
