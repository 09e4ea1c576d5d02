import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GenerateOptions } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';
import { runExample } from './run-example.js';

// The example is a client; here it talks to haggle serve's server over a scripted model, on loopback.
let server: OpenAIServer;
let url: string;
let local: MockLanguageBackend;
beforeAll(async () => {
  local = new MockLanguageBackend({
    modelId: 'negotiator',
    responses: Array.from(
      { length: 300 },
      () => (options: GenerateOptions) =>
        turnForSchema(options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined),
    ),
  });
  server = new OpenAIServer({ backend: local });
  url = await server.listen();
});
afterAll(() => server.close());

it('remote-backend: predicts and simulates through an OpenAI-compatible server', async () => {
  const out = await runExample('remote-backend.ts', url, 'negotiator', 'vllm');
  expect(out).toMatch(/^opening turn for ".+" \(list [\d.]+\): offer at [\d.]+$/m);
  expect(out).toMatch(/^sessions: 8, deal rate: \d+\.\d%, errors: 0$/m);
  // The server really answered: the prediction and every buyer turn of the run.
  expect(local.calls.length).toBeGreaterThan(8);
  expect(local.calls[0]?.responseFormat?.type).toBe('json');
});
