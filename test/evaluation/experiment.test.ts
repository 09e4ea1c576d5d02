import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ExperimentFileError,
  experimentRecord,
  experimentTournament,
  loadExperiment,
  MultiIssueLlmAgent,
  parseExperiment,
} from '../../src/evaluation/index.js';
import { HaggleError, InvalidInputError } from '../../src/index.js';

// biome-ignore lint/suspicious/noExplicitAny: tests edit the experiment's JSON freely, field by field
type Json = any;
const llm = (model: string, extra: Record<string, unknown> = {}): { llm: Json } => ({
  llm: { baseURL: 'http://127.0.0.1:8000/v1', model, ...extra },
});

const valid = () => ({
  suite: { generate: { seed: 3, scenarios: 2, seedsPerPair: 1 } },
  arms: {
    base: { ...llm('qwen3-4b'), family: 'qwen3' },
    grpo: {
      ...llm('qwen3-4b-grpo', { sampling: { temperature: 0.7, seed: 5 } }),
      family: 'qwen3',
      base: 'base',
    },
    boulware: { baseline: 'utility-boulware' },
  },
  opponents: {
    'buyer-a': { ...llm('frontier-a', { apiKeyEnv: 'BUYER_A_KEY' }), family: 'gpt', trainingPool: true },
    'buyer-b': { baseline: 'utility-conceder', family: 'baseline', trainingPool: false },
  },
  maxRounds: 6,
});

/** The issues of the error a bad experiment raises (it must be an ExperimentFileError). */
function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseExperiment(value, 'exp.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ExperimentFileError);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(HaggleError.isInstance(error) && error.code).toBe('invalid-input');
    expect((error as Error).message).toMatch(/^Invalid experiment exp\.json: /);
    return (error as ExperimentFileError).issues;
  }
  throw new Error('the experiment was accepted');
}

describe('experiment files', () => {
  it('accepts a full experiment and builds its negotiators and labels', () => {
    const experiment = parseExperiment(valid());
    const { options, suite } = experimentTournament(experiment, {
      env: { BUYER_A_KEY: 'sk-test-1234567890' },
    });
    expect(suite.opponents).toEqual(['buyer-a', 'buyer-b']);
    expect(suite.scenarios).toHaveLength(2);
    expect(Object.keys(options.arms)).toEqual(['base', 'grpo', 'boulware']);
    expect(options.arms.grpo).toBeInstanceOf(MultiIssueLlmAgent);
    expect(options.arms.grpo?.describe()).toMatchObject({
      temperature: 0.7,
      seed: 5,
      modelId: 'qwen3-4b-grpo',
    });
    expect(options.arms.boulware?.describe().kind).toBe('utility-concession');
    expect(options.labels).toEqual({
      arms: {
        base: { kind: 'llm', family: 'qwen3' },
        grpo: { kind: 'llm', family: 'qwen3', base: 'base' },
        boulware: { kind: 'baseline' },
      },
      opponents: {
        'buyer-a': { kind: 'llm', family: 'gpt', trainingPool: true },
        'buyer-b': { kind: 'baseline', family: 'baseline', trainingPool: false },
      },
    });
    expect(options.maxRounds).toBe(6);
    expect(options.armRoles).toEqual(['seller']);
    // The key's value is in no description the header records.
    expect(JSON.stringify(options.opponents['buyer-a']?.describe())).not.toContain('sk-test');
    expect(JSON.stringify(options.experiment)).not.toContain('sk-test');
  });

  it('refuses an inline key (any spelling) and a credential in a URL, saying to name an env var', () => {
    const inline = valid();
    (inline.opponents['buyer-a'].llm as Record<string, unknown>).apiKey = 'sk-secret-value';
    const snake = valid();
    (snake.arms.base.llm as Record<string, unknown>).api_key = 'sk-secret-value';
    const url = valid();
    url.arms.base.llm.baseURL = 'http://user:sk-secret-value@127.0.0.1:8000/v1';
    const query = valid();
    query.arms.base.llm.baseURL = 'http://127.0.0.1:8000/v1?api-key=sk-secret-value';
    const cases: [unknown, string][] = [
      [inline, 'opponents.buyer-a.llm.apiKey'],
      [snake, 'arms.base.llm.api_key'],
      [url, 'arms.base.llm.baseURL'],
      [query, 'arms.base.llm.baseURL'],
    ];
    for (const [experiment, path] of cases) {
      const issues = issuesOf(experiment);
      expect(issues.map((issue) => issue.path)).toEqual([path]);
      expect(issues[0]?.message).toMatch(/environment variable/);
      expect(issues[0]?.message).toMatch(/"apiKeyEnv": "OPENAI_API_KEY"/);
      expect(JSON.stringify(issues)).not.toContain('sk-secret-value');
    }
  });

  it('names an unset key variable (every one at once) and never runs without it', () => {
    const experiment = valid();
    (experiment.arms.grpo.llm as Record<string, unknown>).apiKeyEnv = 'GRPO_KEY';
    let caught: unknown;
    try {
      experimentTournament(parseExperiment(experiment), { env: { BUYER_A_KEY: '' }, file: 'exp.json' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ExperimentFileError);
    const issues = (caught as ExperimentFileError).issues;
    expect(issues.map((issue) => issue.path)).toEqual([
      'arms.grpo.llm.apiKeyEnv',
      'opponents.buyer-a.llm.apiKeyEnv',
    ]);
    expect(issues[0]?.message).toMatch(/the environment variable GRPO_KEY is not set/);
    expect(issues[1]?.message).toMatch(/BUYER_A_KEY is not set/);
  });

  it.each([
    [
      'an unknown baseline',
      (e: ReturnType<typeof valid>) => {
        (e.arms.boulware as { baseline: string }).baseline = 'utility-bulwark';
      },
      'arms.boulware.baseline',
      /unknown baseline; choose from utility-boulware, utility-linear/,
    ],
    [
      'a base that is no arm',
      (e: ReturnType<typeof valid>) => {
        e.arms.grpo.base = 'qwen3-8b';
      },
      'arms.grpo.base',
      /names no arm of this experiment; the arms are base, grpo, boulware/,
    ],
    [
      'both a baseline and an llm',
      (e: ReturnType<typeof valid>) => {
        (e.arms.boulware as Record<string, unknown>).llm = llm('x').llm;
      },
      'arms.boulware',
      /exactly one of "baseline"/,
    ],
    [
      'both baseURL and replicas',
      (e: ReturnType<typeof valid>) => {
        (e.arms.base.llm as Record<string, unknown>).replicas = ['http://127.0.0.1:8001/v1'];
      },
      'arms.base.llm.baseURL',
      /exactly one of "baseURL" \(one server\) or "replicas"/,
    ],
    [
      'a key variable that is no name',
      (e: ReturnType<typeof valid>) => {
        e.opponents['buyer-a'].llm.apiKeyEnv = '$BUYER A';
      },
      'opponents.buyer-a.llm.apiKeyEnv',
      /the NAME of an environment variable/,
    ],
    [
      'a misspelt field',
      (e: ReturnType<typeof valid>) => {
        (e as Record<string, unknown>).maxRound = 6;
      },
      'maxRound',
      /not an experiment field/,
    ],
    [
      'a suite given twice',
      (e: ReturnType<typeof valid>) => {
        (e.suite as Record<string, unknown>).file = 'suite.json';
      },
      'suite',
      /exactly one of "file"/,
    ],
    [
      'an arm name with "="',
      (e: ReturnType<typeof valid>) => {
        (e.arms as Record<string, unknown>)['a=b'] = { baseline: 'utility-linear' };
      },
      'arms.a=b',
      /names are 1-64 letters/,
    ],
  ])('refuses %s, naming the JSON path', (_, edit, path, message) => {
    const experiment = valid();
    edit(experiment);
    const issues = issuesOf(experiment);
    expect(issues[0]?.path).toBe(path);
    expect(issues[0]?.message).toMatch(message);
  });

  it('loads a file, resolving the suite file next to it, and refuses opponents the suite lacks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-experiment-'));
    const experiment = { ...valid(), suite: { file: 'suite.json' } };
    writeFileSync(join(dir, 'exp.json'), JSON.stringify(experiment));
    const generated = experimentTournament(parseExperiment(valid()), { env: { BUYER_A_KEY: 'k' } }).suite;
    writeFileSync(join(dir, 'suite.json'), JSON.stringify(generated));
    const loaded = loadExperiment(join(dir, 'exp.json'));
    expect(loaded.baseDir).toBe(dir);
    expect(experimentTournament(loaded, { env: { BUYER_A_KEY: 'k' } }).suite.id).toBe(generated.id);

    const renamed = {
      ...experiment,
      opponents: { ...experiment.opponents, 'buyer-c': { baseline: 'utility-linear' } },
    };
    writeFileSync(join(dir, 'exp.json'), JSON.stringify(renamed));
    expect(() =>
      experimentTournament(loadExperiment(join(dir, 'exp.json')), { env: { BUYER_A_KEY: 'k' } }),
    ).toThrow(
      /opponents\.buyer-c: the suite has no opponent of that name; its opponents are buyer-a, buyer-b/,
    );
    writeFileSync(join(dir, 'broken.json'), '{"arms": ');
    expect(() => loadExperiment(join(dir, 'broken.json'))).toThrow(
      /broken\.json: \(root\): cannot read it as JSON/,
    );
  });

  it('the record leaves out where servers are and how fast it runs; the hash follows what decides results', () => {
    const hash = (edit: (e: ReturnType<typeof valid>) => void) => {
      const experiment = valid();
      edit(experiment);
      return experimentRecord(parseExperiment(experiment), 'suite-id').hash;
    };
    const same = hash(() => {});
    // Where and how fast: the same experiment.
    expect(
      hash((e) => {
        e.arms.base.llm.baseURL = 'http://10.0.0.7:9000/v1';
        (e.arms.base.llm as Record<string, unknown>).concurrencyPerEndpoint = 4;
        (e.arms.base.llm as Record<string, unknown>).timeoutMs = 5000;
        (e as Record<string, unknown>).concurrency = 32;
        (e as Record<string, unknown>).out = 'elsewhere.jsonl';
      }),
    ).toBe(same);
    // What: another experiment.
    expect(hash((e) => (e.arms.grpo.llm.sampling.temperature = 1))).not.toBe(same);
    expect(hash((e) => (e.opponents['buyer-a'].trainingPool = false))).not.toBe(same);
    expect(hash((e) => (e.maxRounds = 8))).not.toBe(same);
    expect(
      hash((e) => {
        const { base, grpo, boulware } = e.arms;
        e.arms = { grpo, base, boulware } as typeof e.arms;
      }),
    ).not.toBe(same);
    expect(experimentRecord(parseExperiment(valid()), 'other-suite').hash).not.toBe(same);
    const record = experimentRecord(parseExperiment(valid()), 'suite-id');
    expect(JSON.stringify(record)).not.toContain('127.0.0.1');
    expect(record.definition).toMatchObject({ suite: { id: 'suite-id' }, roles: 'seller', maxRounds: 6 });
  });
});
