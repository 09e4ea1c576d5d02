import { expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { waitForServe } from '../ai-sdk/serve-helper.js';
import { captureIo } from '../helpers/capture-io.js';
import { fixtureModel } from '../onnx/fixture-model.js';
import { runExampleOutput } from './run-example.js';

it('ai-sdk: a valid object and a stream from createHaggle; a buyer turn through fromLanguageModel + haggle serve', async () => {
  const controller = new AbortController();
  const io = captureIo();
  const serving = runCli(
    ['serve', '--backend', 'onnx', '--model', fixtureModel(1), '--port', '0'],
    io,
    controller.signal,
  );
  try {
    const { url, model } = await waitForServe(io);
    const { stdout } = await runExampleOutput('ai-sdk.ts', fixtureModel(1), url, model);
    expect(stdout).toMatch(/^object: valid=true price=[\d.]+ shipping=(standard|express|pickup)$/m);
    expect(stdout).toMatch(/^finish: stop, output tokens: \d+$/m);
    expect(stdout).toMatch(/^streamText: ([2-9]|\d\d+) deltas, finish length$/m);
    expect(stdout).toMatch(/^partial objects: ([2-9]|\d\d+), final valid=true$/m);
    expect(stdout).toMatch(
      /^buyer turn: (offer|offer_with_message|accept|decline|message_only|no_response)( at [\d.]+)?$/m,
    );
    expect(stdout).toMatch(/^note: structured output through the provider's JSON-schema mode/m);
  } finally {
    controller.abort();
    expect(await serving).toBe(0);
  }
}, 180_000);
