import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { experimentRecord, parseExperiment } from '../../src/evaluation/index.js';
import { captureIo } from '../helpers/capture-io.js';
import { fixtureModel } from '../onnx/fixture-model.js';

// `haggle evaluate --experiment` end to end, at CI size: two LLM arms and two LLM buyers, all played by
// one `haggle serve` of the fixture model (random weights, real tokenizer, constrained decoding) under
// four served names, plus a baseline arm. No assertion is about speed or about what the random model
// chooses: only shapes, counts, files, headers and exit codes.

const MODELS = ['qwen3-base', 'qwen3-grpo', 'frontier-a', 'frontier-b'];

interface Served {
  url: string;
  stop: () => Promise<void>;
}

async function serve(): Promise<Served> {
  const controller = new AbortController();
  const io = captureIo();
  const names = MODELS.flatMap((name) => ['--served-model-name', name]);
  // --max-tokens: every turn of the random model ends within 48 tokens (the decoder closes the JSON).
  const args = [
    'serve',
    '--backend',
    'onnx',
    '--model',
    fixtureModel(1),
    '--port',
    '0',
    '--max-tokens',
    '48',
    ...names,
  ];
  const exit = runCli(args, io, controller.signal);
  for (let i = 0; i < 1200; i++) {
    const match = /model "([^"]+)" at (http:\/\/\S+)/.exec(io.out());
    if (match?.[2]) {
      expect(match[1]).toBe(MODELS[0]);
      return {
        url: match[2],
        stop: async () => {
          controller.abort();
          expect(await exit).toBe(0);
        },
      };
    }
    if (io.err()) throw new Error(`haggle serve failed: ${io.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('haggle serve did not start');
}

let served: Served;
beforeAll(async () => {
  served = await serve();
}, 120_000);
afterAll(async () => {
  await served?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: tests edit the experiment's JSON freely, field by field
type Json = Record<string, any>;

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-experiment-cli-'));

function experiment(url: string, edit: (e: Json) => void = () => {}) {
  const llm = (model: string, extra: Record<string, unknown> = {}) => ({
    baseURL: url,
    model,
    maxTokens: 48,
    ...extra,
  });
  const value: Json = {
    name: 'ci-small',
    suite: { generate: { seed: 2026, scenarios: 1, seedsPerPair: 1 } },
    arms: {
      base: { llm: llm('qwen3-base'), family: 'qwen3', trainingPool: false },
      grpo: {
        llm: llm('qwen3-grpo', { sampling: { temperature: 0.7, seed: 11 }, concurrencyPerEndpoint: 2 }),
        family: 'qwen3',
        base: 'base',
      },
      boulware: { baseline: 'utility-boulware' },
    },
    opponents: {
      'buyer-a': { llm: llm('frontier-a'), family: 'gpt', trainingPool: true },
      'buyer-b': {
        llm: { replicas: [url, url], model: 'frontier-b', maxTokens: 48 },
        family: 'claude',
        trainingPool: false,
      },
    },
    maxRounds: 4,
    concurrency: 6,
  };
  edit(value);
  return value;
}

describe('haggle evaluate --experiment (LLM arms and buyers through haggle serve)', () => {
  it('prints the table, writes --json and the run file whose header records labels and the experiment', async () => {
    const dir = tmp();
    const file = join(dir, 'exp.json');
    writeFileSync(file, JSON.stringify(experiment(served.url)));

    const table = captureIo();
    expect(await runCli(['evaluate', '--experiment', file, '--no-progress'], table)).toBe(0);
    for (const arm of ['base', 'grpo', 'boulware']) {
      for (const opponent of ['buyer-a', 'buyer-b', 'all'])
        expect(table.out()).toMatch(
          new RegExp(`^${arm}\\s+${opponent}\\s+${opponent === 'all' ? 2 : 1}\\s`, 'm'),
        );
    }
    expect(table.out()).toMatch(/^base vs grpo, arm utility: (no )?detectable difference/m);
    expect(table.err()).toBe('');

    const out = join(dir, 'runs', 't.jsonl');
    const report = join(dir, 'report.html');
    const args = ['evaluate', '--experiment', file, '--json', '--no-progress', '--out', out];
    const json = captureIo();
    expect(await runCli([...args, '--report', report], json)).toBe(0);
    const result = JSON.parse(json.out());
    expect(result.matches).toBe(6);
    expect(result.errors).toBe(0);
    expect(
      result.scores
        .filter((s: { opponent: string }) => s.opponent === '*')
        .map((s: { arm: string }) => s.arm),
    ).toEqual(['base', 'grpo', 'boulware']);
    expect(result.experimentHash).toMatch(/^[0-9a-f]{16,}$/);
    const evaluatePage = readFileSync(report, 'utf8');
    expect(evaluatePage).toMatch(/^<!doctype html>/i);
    for (const arm of ['base', 'grpo', 'boulware']) expect(evaluatePage).toContain(arm);
    // The HTML report of the run file, as `haggle report` writes it for any tournament.
    const page = join(dir, 'page.html');
    const reported = captureIo();
    expect(await runCli(['report', out, '--out', page], reported)).toBe(0);
    expect(reported.out()).toMatch(/\(6 tournament matches\)/);
    const html = readFileSync(page, 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    for (const name of ['base', 'grpo', 'boulware', 'buyer-a', 'buyer-b']) expect(html).toContain(name);

    const [header, ...matches] = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(matches).toHaveLength(6);
    // Every LLM turn came back legal: the random model's answers were decoded under the scenario schema.
    for (const match of matches) expect(match.result.reason).not.toBe('invalid-turn');
    expect(header.labels).toEqual({
      arms: {
        base: { kind: 'llm', family: 'qwen3', trainingPool: false },
        grpo: { kind: 'llm', family: 'qwen3', base: 'base' },
        boulware: { kind: 'baseline' },
      },
      opponents: {
        'buyer-a': { kind: 'llm', family: 'gpt', trainingPool: true },
        'buyer-b': { kind: 'llm', family: 'claude', trainingPool: false },
      },
    });
    const expected = experimentRecord(parseExperiment(experiment(served.url)), header.suiteId);
    expect(header.experiment).toEqual(expected);
    expect(JSON.stringify(header.experiment)).not.toContain('127.0.0.1'); // locations live in provenance
    expect(header.provenance.locations['opponent buyer-b']).toEqual([{ replicas: [served.url, served.url] }]);

    // Resuming: a server on another port or another concurrency is the same experiment...
    writeFileSync(
      file,
      JSON.stringify(
        experiment(served.url, (e) => {
          e.concurrency = 2;
          e.arms.base.llm.concurrencyPerEndpoint = 1;
        }),
      ),
    );
    expect(await runCli([...args, '--resume'], captureIo())).toBe(0);
    // ...another temperature is not: refused with both hashes and what changed.
    writeFileSync(
      file,
      JSON.stringify(experiment(served.url, (e) => (e.arms.grpo.llm.sampling.temperature = 1))),
    );
    const refused = captureIo();
    expect(await runCli([...args, '--resume'], refused)).toBe(2);
    expect(refused.err()).toMatch(
      /t\.jsonl: was started from another experiment \(hash [0-9a-f]{12}; this one hashes to [0-9a-f]{12}, changed: arms\.grpo\.llm\.sampling\.temperature\)/,
    );
    expect(refused.err().trim().split('\n')).toHaveLength(1);
  }, 120_000);

  it('takes one-off LLM arms and opponents on the command line: NAME=openai:MODEL@URL', async () => {
    const dir = tmp();
    const suite = join(dir, 'suite.json');
    const made = captureIo();
    const suiteArgs = [
      'suite',
      '--out',
      suite,
      '--scenarios',
      '1',
      '--seeds-per-pair',
      '2',
      '--opponents',
      'buyer-a',
    ];
    expect(await runCli(suiteArgs, made)).toBe(0);
    const io = captureIo();
    const args = [
      'evaluate',
      '--suite',
      suite,
      '--arm',
      `grpo=openai:qwen3-grpo@${served.url}`,
      '--arm',
      'tough=utility-boulware',
      '--opponent',
      `buyer-a=openai:frontier-a@${served.url},${served.url}`,
      '--max-rounds',
      '4',
      '--json',
      '--no-progress',
    ];
    expect(await runCli(args, io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.scores.map((s: { arm: string; opponent: string }) => `${s.arm}/${s.opponent}`)).toEqual([
      'grpo/buyer-a',
      'grpo/*',
      'tough/buyer-a',
      'tough/*',
    ]);
    expect(result.errors).toBe(0);
  }, 120_000);
});

describe('haggle evaluate: bad experiments and bad shorthand exit 2 with one line that says what to write', () => {
  it.each([
    [
      (e: Json) => (e.opponents['buyer-a'].llm.apiKey = 'sk-inline-secret-123'),
      /opponents\.buyer-a\.llm\.apiKey: an API key is never written in the experiment file: .*"apiKeyEnv": "OPENAI_API_KEY"/,
    ],
    [
      (e: Json) => (e.opponents['buyer-a'].llm.apiKeyEnv = 'HAGGLE_TEST_UNSET_KEY_16'),
      /opponents\.buyer-a\.llm\.apiKeyEnv: the environment variable HAGGLE_TEST_UNSET_KEY_16 is not set/,
    ],
    [
      (e: Json) => (e.arms.boulware.baseline = 'boulware'),
      /arms\.boulware\.baseline: unknown baseline; choose from utility-boulware, utility-linear, utility-conceder, utility-tit-for-tat/,
    ],
  ])('experiment %#', async (edit, message) => {
    delete process.env.HAGGLE_TEST_UNSET_KEY_16;
    const file = join(tmp(), 'exp.json');
    writeFileSync(file, JSON.stringify(experiment('http://127.0.0.1:9/v1', edit)));
    const io = captureIo();
    expect(await runCli(['evaluate', '--experiment', file], io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err()).not.toContain('sk-inline-secret-123');
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.out()).toBe('');
  });

  it('refuses flags the experiment file sets', async () => {
    const file = join(tmp(), 'exp.json');
    writeFileSync(file, JSON.stringify(experiment('http://127.0.0.1:9/v1')));
    const io = captureIo();
    expect(await runCli(['evaluate', '--experiment', file, '--arm', 'utility-linear'], io)).toBe(2);
    expect(io.err()).toMatch(
      /^haggle: --arm cannot be combined with --experiment: the experiment file sets it/,
    );
  });

  it.each([
    ['grpo=openai:qwen3@127.0.0.1:8000/v1', /the URL must start with http:\/\/ or https:\/\//],
    ['openai:qwen3@http://127.0.0.1:8000/v1', /an LLM needs a name/],
    ['grpo=vllm:qwen3@http://127.0.0.1:8000/v1', /"vllm:" is not a backend here/],
    ['grpo=openai:qwen3', /no @URL/],
    ['grpo=openai:@http://127.0.0.1:8000/v1', /no MODEL before @/],
    ['grpo=openai:qwen3@http://user:pw@127.0.0.1:8000/v1', /keep secrets out of arguments/],
    ['gpt-9', /--arm gpt-9: unknown/],
  ])('--arm %s', async (value, message) => {
    const dir = tmp();
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '1', '--seeds-per-pair', '1'], captureIo()),
    ).toBe(0);
    const io = captureIo();
    expect(await runCli(['evaluate', '--suite', suite, '--arm', value], io)).toBe(2);
    expect(io.err()).toMatch(message);
    // Every message shows the right spelling, and never the password of a URL.
    expect(io.err()).toMatch(
      /write NAME=openai:MODEL@URL \(e\.g\. grpo=openai:qwen3-4b-grpo@http:\/\/127\.0\.0\.1:8000\/v1/,
    );
    expect(io.err()).not.toContain('pw@');
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });
});
