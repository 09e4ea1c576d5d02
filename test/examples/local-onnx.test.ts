import { expect, it } from 'vitest';
import { fixtureModel } from '../onnx/fixture-model.js';
import { runExample } from './run-example.js';

it('local-onnx: loads the tiny model (CUDA asked, CPU used), predicts and runs a session', async () => {
  const out = await runExample('local-onnx.ts', fixtureModel(1), 'cuda');
  expect(out).toMatch(/^loaded fixture-model-v2-seed-1 on cpu \(fp32\)$/m);
  expect(out).toMatch(/^warning: fallback$/m);
  expect(out).toMatch(
    /^opening turn: (offer|offer_with_message|accept|decline|message_only|no_response)( at [\d.]+)?$/m,
  );
  const session = out.match(/^session: (deal|no-deal) \(\w[\w-]*\) after (\d+) turns, (\d+) turn events$/m);
  expect(session).not.toBeNull();
  expect(session?.[2]).toBe(session?.[3]);
  // The session's turns resend the conversation: its shared start comes from the prefix cache.
  const tokens = out.match(/^prompt tokens: (\d+), of which (\d+) came from the prefix cache$/m);
  expect(Number(tokens?.[2])).toBeGreaterThan(0);
  expect(Number(tokens?.[2])).toBeLessThan(Number(tokens?.[1]));
}, 120_000);
