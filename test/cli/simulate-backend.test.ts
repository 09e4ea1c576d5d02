import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { GenerateOptions } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';
import { captureIo } from '../helpers/capture-io.js';

const KEY = 'sk-cli-test-7f3a9c1e';

describe('haggle simulate --backend openai', () => {
  let server: OpenAIServer;
  let url: string;
  let local: MockLanguageBackend;
  beforeAll(async () => {
    local = new MockLanguageBackend({
      modelId: 'negotiator-lora',
      responses: Array.from(
        { length: 400 },
        () => (options: GenerateOptions) =>
          turnForSchema(options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined),
      ),
    });
    // The server insists on the key, so a run that succeeds proves the key from the environment was sent.
    server = new OpenAIServer({ backend: local, apiKey: KEY });
    url = await server.listen();
    process.env.HAGGLE_API_KEY = KEY;
  });
  afterAll(async () => {
    delete process.env.HAGGLE_API_KEY;
    await server.close();
  });

  it('plays both sides through the remote model, the key from $HAGGLE_API_KEY, never printed or recorded', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-remote-cli-')), 'run.jsonl');
    const io = captureIo();
    const args = ['simulate', '-n', '6', '-c', '3', '--backend', 'openai', '--base-url', url];
    const code = await runCli([...args, '--model', 'negotiator-lora', '--json', '--out', out], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ sessions: 6 });
    const file = readFileSync(out, 'utf8');
    const header = JSON.parse(file.split('\n')[0] ?? '{}');
    expect(header.config.buyer).toMatchObject({
      kind: 'llm',
      provider: 'openai-compatible',
      modelId: 'negotiator-lora',
    });
    expect(header.config.seller).toMatchObject({ kind: 'llm' });
    for (const text of [file, io.out(), io.err()]) expect(text).not.toContain(KEY);
    expect(local.calls.length).toBeGreaterThanOrEqual(12);
  });

  it('--seller population keeps the baseline on that side', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-remote-cli-')), 'run.jsonl');
    const io = captureIo();
    const args = [
      'simulate',
      '-n',
      '2',
      '--backend',
      'openai',
      '--base-url',
      url,
      '--model',
      'negotiator-lora',
    ];
    expect(await runCli([...args, '--seller', 'population', '--json', '--out', out], io)).toBe(0);
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] ?? '{}');
    expect(header.config.buyer.kind).toBe('llm');
    expect(header.config.seller.kind).not.toBe('llm');
  });

  it('a wrong key fails the run with a typed error that does not echo it', async () => {
    const io = captureIo();
    const args = [
      'simulate',
      '-n',
      '2',
      '--early-stop',
      '0',
      '--backend',
      'openai',
      '--base-url',
      url,
      '--model',
      'negotiator-lora',
    ];
    const code = await runCli([...args, '--api-key', 'sk-wrong-key-123456', '--json'], io);
    // Sessions record the failure and the run completes; the summary counts the errors, lists the
    // error once with its count, and the exit code says that nothing finished.
    expect(code).toBe(3);
    expect(JSON.parse(io.out())).toMatchObject({ sessions: 2, finished: 0, errors: 2, dealRate: null });
    expect(io.err()).toMatch(/^haggle: 2 of 2 sessions failed:\nhaggle: {3}2 × \w+Error: .*401/);
    expect(io.out() + io.err()).not.toContain('sk-wrong-key-123456');
  });

  it.each([
    [['simulate', '--base-url', 'http://x/v1'], 2, /--base-url needs --backend/],
    [['simulate', '--backend', 'openai', '--model', 'm'], 2, /--backend openai needs --base-url/],
    [['simulate', '--backend', 'openai', '--base-url', 'http://x/v1'], 2, /needs --model/],
    [
      ['simulate', '--backend', 'openai', '--base-url', 'http://x/v1', '--model', 'm', '--dialect', 'tgi'],
      2,
      /--dialect must be one of/,
    ],
    [['simulate', '--backend', 'onnx', '--model', './m'], 1, /onnx backend is not available/],
  ])('%j exits %i with one line', async (args, exit, message) => {
    const io = captureIo();
    expect(await runCli(args as string[], io)).toBe(exit);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });
});
