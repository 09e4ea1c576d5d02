import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('training-env: one episode in process and over WebSocket, the same reward; an invalid action penalised; minimal observations', async () => {
  const out = await runExample('training-env.ts');
  expect(out).toMatch(/^episode 3: scenario-\d{3}, legal moves offer, walk_away$/m);
  const reward = /^in-process reward (-?\d\.\d{3}) \((accepted|walked-away|deadline)\)$/m.exec(out);
  expect(reward).not.toBeNull();
  expect(out).toMatch(/^over WebSocket reward -?\d\.\d{3}: the same$/m);
  expect(out).toMatch(/^invalid action: done true, reward -1, expected one JSON object/m);
  expect(out).toMatch(/^minimal observation: messages, legal_moves, role, turn, info, schema$/m);
  expect(out).toMatch(/^minimal reward the same$/m);
});
