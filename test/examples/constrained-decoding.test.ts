import { expect, it } from 'vitest';
import { fixtureModel } from '../onnx/fixture-model.js';
import { runExample } from './run-example.js';

it('constrained-decoding: random logits still give valid turns that respect the floor', async () => {
  const out = await runExample('constrained-decoding.ts');
  expect(out).toMatch(/forced at the start: \{"action":"/);
  const lines = out.match(/^seed \d: .*$/gm) ?? [];
  expect(lines).toHaveLength(3);
  for (const line of lines) expect(line).toMatch(/valid turn, floor holds: true$/);
  // Five distinct schemas through a compiler keeping 4: one dropped; the sixth (a repeat) is kept.
  expect(out).toMatch(/^compiler: 4\/4 grammars kept, 1 dropped; \d+\/1024 patterns, \d+\/4096 key shapes$/m);
});

it('constrained-decoding: the tokenizer can come from a model folder, as from an installed package', async () => {
  const out = await runExample('constrained-decoding.ts', fixtureModel(1));
  expect((out.match(/valid turn, floor holds: true$/gm) ?? []).length).toBe(3);
});
