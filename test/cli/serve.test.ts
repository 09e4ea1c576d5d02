import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createCliBackend } from '../../src/cli/backend-options.js';
import { runCli } from '../../src/cli/main.js';
import { BackendUnavailableError, type GenerateOptions, HaggleError, TurnSchema } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';
import { captureIo } from '../helpers/capture-io.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('haggle serve', () => {
  it('--backend onnx --model DIR parses, then fails with a typed "not available yet" error', async () => {
    const io = captureIo();
    const code = await runCli(
      ['serve', '--backend', 'onnx', '--model', './qwen3-4b-onnx', '--port', '0'],
      io,
    );
    expect(code).toBe(1);
    expect(io.err()).toMatch(
      /^haggle: The onnx backend is not available: .*\.\/qwen3-4b-onnx.*--backend openai/,
    );
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.out()).toBe('');

    let caught: unknown;
    try {
      createCliBackend({ backend: 'onnx', model: './m' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BackendUnavailableError);
    expect(HaggleError.isInstance(caught) && caught.code).toBe('backend-unavailable');
  });

  it.each([
    [['serve'], /--backend/],
    [['serve', '--backend', 'onnx'], /--backend onnx needs --model/],
    [['serve', '--backend', 'tpu'], /--backend must be one of openai, onnx/],
    [['serve', '--backend', 'openai', '--model', 'm'], /needs --base-url/],
    [['serve', '--backend', 'openai', '--base-url', 'http://x/v1', '--port', '70000'], /--port must be/],
    [
      ['serve', '--backend', 'openai', '--base-url', 'http://x/v1', '--max-queue', '0'],
      /--max-queue must be/,
    ],
    [
      ['serve', '--backend', 'openai', '--base-url', 'http://x/v1', '--max-tokens', '1e9'],
      /--max-tokens must be/,
    ],
    [
      ['serve', '--backend', 'openai', '--base-url', 'http://x/v1', '--request-timeout', '-1'],
      /--request-timeout/,
    ],
  ])('bad arguments %j exit 2 with one line', async (args, message) => {
    const io = captureIo();
    expect(await runCli(args as string[], io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('--backend openai serves a remote model until the signal fires; the openai client uses it', async () => {
    const upstreamBackend = new MockLanguageBackend({
      modelId: 'upstream-model',
      responses: Array.from(
        { length: 4 },
        () => (options: GenerateOptions) =>
          turnForSchema(options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined),
      ),
    });
    const upstream = new OpenAIServer({ backend: upstreamBackend });
    servers.push(upstream);
    const upstreamUrl = await upstream.listen();

    const io = captureIo();
    const controller = new AbortController();
    const args = [
      'serve',
      '--backend',
      'openai',
      '--base-url',
      upstreamUrl,
      '--model',
      'upstream-model',
      '--port',
      '0',
    ];
    const exit = runCli(args, io, controller.signal);
    let url: string | undefined;
    for (let i = 0; i < 400 && !url; i++) {
      url = /at (http:\/\/\S+)/.exec(io.out())?.[1];
      if (!url) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'upstream-model',
      messages: [{ role: 'user', content: 'turn?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'turn', schema: { type: 'object' } } },
    });
    expect(() => TurnSchema.parse(JSON.parse(completion.choices[0]?.message.content ?? ''))).not.toThrow();
    expect(upstreamBackend.calls).toHaveLength(1);

    controller.abort();
    expect(await exit).toBe(0);
    expect(io.out()).toMatch(/stopped/);
    expect(io.err()).toBe('');
  });
});
