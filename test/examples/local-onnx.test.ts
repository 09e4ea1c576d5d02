import { expect, it } from 'vitest';
import { cudaProviderInstalled } from '../../src/onnx/index.js';
import { fixtureModel } from '../onnx/fixture-model.js';
import { runExampleOutput } from './run-example.js';

// npm installs onnxruntime-node's CPU-only build (no CUDA provider): the case a newcomer meets, and CI's.
// With the CUDA provider installed, the example takes CUDA and nothing falls back.
const cpuOnly = cudaProviderInstalled() !== true;

it('local-onnx, no device named: the CPU where there is no CUDA provider, no fallback, no native red line', async () => {
  const { stdout, stderr } = await runExampleOutput('local-onnx.ts', fixtureModel(1));
  expect(stdout).toMatch(
    cpuOnly ? /^loaded fixture-model-v4-seed-1 on cpu \(fp32\)$/m : /^loaded \S+ on cuda /m,
  );
  expect(stdout).not.toMatch(/^warning:/m);
  expect(stdout).toMatch(
    /^opening turn: (offer|offer_with_message|accept|decline|message_only|no_response)( at [\d.]+)?$/m,
  );
  const session = stdout.match(
    /^session: (deal|no-deal) \(\w[\w-]*\) after (\d+) turns, (\d+) turn events$/m,
  );
  expect(session).not.toBeNull();
  expect(session?.[2]).toBe(session?.[3]);
  // The session's turns resend the conversation: its shared start comes from the prefix cache.
  const tokens = stdout.match(/^prompt tokens: (\d+), of which (\d+) came from the prefix cache$/m);
  expect(Number(tokens?.[2])).toBeGreaterThan(0);
  expect(Number(tokens?.[2])).toBeLessThan(Number(tokens?.[1]));
  expect(stderr).toBe('');
}, 120_000);

it("local-onnx, CUDA asked without the provider: one warning in haggle's words, no native red line", async () => {
  const { stdout, stderr } = await runExampleOutput('local-onnx.ts', fixtureModel(1), 'cuda');
  expect(stdout).toMatch(
    cpuOnly ? /^loaded fixture-model-v4-seed-1 on cpu \(fp32\)$/m : /^loaded \S+ on cuda /m,
  );
  if (cpuOnly)
    expect(stdout).toMatch(
      /^warning: fallback: The cuda execution provider is not available \(.*\); running on the CPU\. Install the CUDA provider with `npm explore onnxruntime-node -- .*`\.$/m,
    );
  else expect(stdout).not.toMatch(/^warning:/m);
  expect(stdout).toMatch(/^session: (deal|no-deal) /m);
  expect(stderr).not.toMatch(/Failed to load library/);
  expect(stderr).toBe('');
}, 120_000);
