import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { GenerateOptions } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';
import { captureIo } from '../helpers/capture-io.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('haggle serve --cors', () => {
  it('answers the preflight of an allowed origin with 204, and streams a chained remote answer', async () => {
    // An upstream haggle serve whose backend hands its text out 4 characters at a time.
    const upstreamBackend = new MockLanguageBackend({
      modelId: 'upstream-model',
      streamChunkSize: 4,
      responses: [
        (options: GenerateOptions) =>
          turnForSchema(options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined),
      ],
    });
    const upstream = new OpenAIServer({ backend: upstreamBackend });
    servers.push(upstream);
    const upstreamUrl = await upstream.listen();

    const io = captureIo();
    const controller = new AbortController();
    const exit = runCli(
      [
        'serve',
        '--backend',
        'openai',
        '--base-url',
        upstreamUrl,
        '--model',
        'upstream-model',
        '--port',
        '0',
        '--cors',
        'http://localhost:5173',
        '--cors',
        'http://127.0.0.1:5173',
      ],
      io,
      controller.signal,
    );
    let url: string | undefined;
    for (let i = 0; i < 400 && !url; i++) {
      url = /at (http:\/\/\S+)/.exec(io.out())?.[1];
      if (!url) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:5173']) {
      const preflight = await fetch(`${url}/chat/completions`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const refused = await fetch(`${url}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(refused.status).toBe(403);

    const answer = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'upstream-model',
        messages: [{ role: 'user', content: 'turn?' }],
        stream: true,
        response_format: { type: 'json_schema', json_schema: { name: 'turn', schema: { type: 'object' } } },
      }),
    });
    const events = (await answer.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const deltas = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice(6)) as { choices: { delta: { content?: string } }[] })
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .filter((text) => text !== '');
    // Chunk by chunk through both servers: the upstream's 4-character pieces arrive as they were cut.
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((text) => text.length <= 4)).toBe(true);

    controller.abort();
    expect(await exit).toBe(0);
  });

  it.each([
    [['--cors', '*'], /--cors-allow-any-origin/],
    [['--cors-allow-any-origin'], /goes with --cors '\*'/],
    [['--cors', 'http://localhost:5173/'], /scheme:\/\/host/],
  ])('refuses %j with one line', async (extra, message) => {
    const io = captureIo();
    const code = await runCli(
      [
        'serve',
        '--backend',
        'openai',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'm',
        '--port',
        '0',
        ...extra,
      ],
      io,
    );
    expect(code).not.toBe(0);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });
});
