import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { parseExperiment } from '../../src/evaluation/experiment-file.js';
import { experimentParticipants } from '../../src/evaluation/experiment-participants.js';
import { captureIo } from '../helpers/capture-io.js';
import { serveFixtureModel } from './serve-helper.js';

// `haggle evaluate --experiment` with a buyer written as `{ "provider": "openai-compatible", ... }`:
// resolved through the installed AI SDK package and played against a real `haggle serve` of the
// fixture model, beside a baseline arm. Only shapes, counts, headers and exit codes are asserted.

const KEY_VARIABLE = 'HAGGLE_AI_SDK_TEST_KEY';
const KEY = 'sk-test-provider-key-0123456789';

describe('haggle evaluate --experiment with a provider participant', () => {
  const served = serveFixtureModel(['--max-tokens', '48']);
  beforeAll(() => {
    process.env[KEY_VARIABLE] = KEY;
  });
  afterAll(() => {
    delete process.env[KEY_VARIABLE];
  });

  const experiment = (extra: Record<string, unknown> = {}) => ({
    name: 'provider-buyer',
    suite: { generate: { seed: 2026, scenarios: 2, seedsPerPair: 1 } },
    arms: { boulware: { baseline: 'utility-boulware' }, conceder: { baseline: 'utility-conceder' } },
    opponents: {
      frontier: {
        provider: 'openai-compatible',
        model: served().model,
        baseURL: served().url,
        apiKeyEnv: KEY_VARIABLE,
        maxTokens: 48,
        family: 'gpt',
        trainingPool: true,
        ...extra,
      },
    },
    maxRounds: 4,
    concurrency: 4,
  });

  it('plays every match, records the provider participant (no URL) and its label', {
    timeout: 300_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-ai-sdk-evaluate-'));
    const file = join(dir, 'exp.json');
    const out = join(dir, 't.jsonl');
    writeFileSync(file, JSON.stringify(experiment()));
    const io = captureIo();
    const exit = await runCli(
      ['evaluate', '--experiment', file, '--json', '--no-progress', '--out', out],
      io,
    );
    expect(io.err()).toBe('');
    expect(exit).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.matches).toBe(4);
    expect(result.errors).toBe(0);
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] ?? '');
    expect(header.labels.opponents.frontier).toEqual({ kind: 'llm', family: 'gpt', trainingPool: true });
    // The experiment record keeps who played (provider, model, key variable), not where it was served.
    expect(header.experiment.definition.opponents.frontier).toMatchObject({
      provider: 'openai-compatible',
      model: served().model,
      apiKeyEnv: KEY_VARIABLE,
    });
    expect(JSON.stringify(header.experiment)).not.toContain('127.0.0.1');
    expect(readFileSync(out, 'utf8')).not.toContain(KEY);
    // Played through @ai-sdk/openai-compatible (installed here), whose chat model names itself so.
    expect(readFileSync(out, 'utf8')).toContain('"aiSdkProvider":"openai-compatible.chat"');
  });

  it('says which variable is unset, by path, and which package is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-ai-sdk-evaluate-'));
    const file = join(dir, 'exp.json');
    writeFileSync(file, JSON.stringify(experiment({ apiKeyEnv: 'HAGGLE_AI_SDK_UNSET_VARIABLE' })));
    const unset = captureIo();
    expect(await runCli(['evaluate', '--experiment', file, '--no-progress'], unset)).not.toBe(0);
    expect(unset.err()).toMatch(
      /opponents\.frontier\.apiKeyEnv: the environment variable HAGGLE_AI_SDK_UNSET_VARIABLE is not set/,
    );

    writeFileSync(file, JSON.stringify(experiment({ provider: 'anthropic', baseURL: undefined })));
    const missing = captureIo();
    expect(await runCli(['evaluate', '--experiment', file, '--no-progress'], missing)).not.toBe(0);
    expect(missing.err()).toContain('npm install @ai-sdk/anthropic');

    const shorthand = captureIo();
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--opponents', 'buyer', '--scenarios', '1'], captureIo()),
    ).toBe(0);
    expect(
      await runCli(
        [
          'evaluate',
          '--suite',
          suite,
          '--arm',
          'utility-boulware',
          '--opponent',
          'buyer=anthropic:claude-sonnet-4-5',
          '--no-progress',
        ],
        shorthand,
      ),
    ).not.toBe(0);
    expect(shorthand.err()).toContain('npm install @ai-sdk/anthropic');
  });

  it('--opponent NAME=openai-compatible:MODEL@URL plays the suite opponent through the provider package', {
    timeout: 300_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-ai-sdk-evaluate-'));
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(
        ['suite', '--out', suite, '--opponents', 'buyer', '--scenarios', '2', '--seeds-per-pair', '1'],
        captureIo(),
      ),
    ).toBe(0);
    const io = captureIo();
    const exit = await runCli(
      [
        'evaluate',
        '--suite',
        suite,
        '--arm',
        'utility-boulware',
        '--opponent',
        `buyer=openai-compatible:${served().model}@${served().url}`,
        '--max-rounds',
        '4',
        '--json',
        '--no-progress',
      ],
      io,
    );
    expect(io.err()).toBe('');
    expect(exit).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.matches).toBe(2);
    expect(result.errors).toBe(0);
  });

  it('refuses provider fields without a provider, and an inline key', () => {
    expect(() =>
      parseExperiment({
        suite: { generate: { seed: 1 } },
        arms: { a: { baseline: 'utility-boulware', model: 'x' } },
        opponents: { b: { provider: 'anthropic', model: 'm', apiKey: 'sk-abc' } },
      }),
    ).toThrow(
      /arms\.a\.model: belongs to a "provider" participant[\s\S]*opponents\.b\.apiKey: an API key is never written/,
    );
  });

  it('without haggle/ai-sdk backends, experimentParticipants names what to do', () => {
    const parsed = parseExperiment(experiment());
    expect(() => experimentParticipants(parsed, { env: { [KEY_VARIABLE]: KEY } })).toThrow(
      /opponents\.frontier\.provider: a "provider" participant is played through haggle\/ai-sdk/,
    );
  });
});
