import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../../src/backends/language-backend.js';
import { createEnvironment } from '../../src/env/create-environment.js';
import { connectEnvironment, type EnvironmentClient } from '../../src/env/env-client.js';
import { EnvironmentServer } from '../../src/env/env-server.js';
import { EpisodeLog } from '../../src/env/episode-log.js';
import { EnvironmentServerError } from '../../src/env/errors.js';
import { generateSuite, type Suite, suiteMatches } from '../../src/evaluation/suite.js';
import { runTournament } from '../../src/evaluation/tournament.js';
import { readTournamentFile } from '../../src/evaluation/tournament-file.js';
import { deriveSeed } from '../../src/internal/random.js';
import { MULTI_ISSUE_BASELINES } from '../../src/multi-issue/multi-issue-baseline-registry.js';
import { MultiIssueLlmAgent } from '../../src/multi-issue/multi-issue-llm-agent.js';
import { bargainingReward } from '../../src/multi-issue/reward.js';
import { randomPolicy, scriptedPolicy } from './policies.js';

// 25 scenarios x 8 seeds: 200 negotiations per opponent, so episode seeds 0..199 play each once.
const suite = generateSuite({ seed: 32, scenarios: 25, seedsPerPair: 8 });
const OPPONENT = 'utility-conceder';

const servers: EnvironmentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(
  env: 'multi-issue-seller' | 'multi-issue-buyer',
  options: {
    out?: string;
    limits?: ConstructorParameters<typeof EnvironmentServer>[0]['limits'];
    opponent?: string;
    observation?: 'full' | 'minimal';
  } = {},
) {
  const opponentName = options.opponent ?? OPPONENT;
  const environmentOptions = {
    env,
    suite,
    opponent: MULTI_ISSUE_BASELINES[opponentName as keyof typeof MULTI_ISSUE_BASELINES](),
    opponentName,
    rewards: { invalidAction: -0.5 },
  };
  const log = options.out
    ? EpisodeLog.open(options.out, createEnvironment(environmentOptions).runHeader())
    : undefined;
  const server = new EnvironmentServer({
    createEnvironment: () => createEnvironment(environmentOptions),
    name: env,
    description: 'test',
    ...(options.limits ? { limits: options.limits } : {}),
    ...(log ? { log } : {}),
    ...(options.observation ? { observation: options.observation } : {}),
  });
  servers.push(server);
  const url = await server.listen({ port: 0 });
  return { server, url, log };
}

interface Played {
  seed: number;
  reward: number | null;
  done: boolean;
  /** The policy's texts by the seed the tournament gives that turn (the match seed and the round). */
  texts: Map<number, string>;
  invalid: boolean;
  info: Record<string, unknown>;
}

async function playEpisode(
  client: EnvironmentClient,
  seed: number,
  policy: (observation: Record<string, unknown>) => string,
): Promise<Played> {
  const matchSeed = (suiteMatches(suite, [OPPONENT])[seed] as { seed: number }).seed;
  const texts = new Map<number, string>();
  let result = await client.reset({ seed });
  while (!result.done) {
    expect(Object.keys(result.observation)).toEqual(
      expect.arrayContaining(['messages', 'legal_moves', 'schema']),
    );
    const text = policy(result.observation);
    texts.set(deriveSeed(matchSeed, result.observation.turn as number), text);
    const next = await client.step({ text });
    if (!next.done) expect(next.reward).toBe(0);
    result = next;
  }
  const info = result.observation.info as Record<string, unknown>;
  return {
    seed,
    reward: result.reward,
    done: result.done,
    texts,
    invalid: info.invalid_action !== undefined,
    info,
  };
}

/** The trained policy's recorded texts, replayed as an LLM arm's backend in a tournament. */
class ReplayBackend implements LanguageBackend {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'replay';
  readonly modelId = 'policy';
  constructor(private readonly texts: Map<number, string>) {}
  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    const text = this.texts.get(options.seed as number);
    if (text === undefined) throw new Error(`no recorded text for seed ${options.seed}`);
    return {
      choices: [{ text, finishReason: 'stop' }],
      usage: { promptTokens: 0, completionTokens: 0 },
      warnings: [],
    };
  }
}

/** Rewards a tournament gives the same texts on the same negotiations, recomputed from its records. */
async function tournamentRewards(
  played: Played[],
  role: 'seller' | 'buyer',
  s: Suite,
): Promise<Map<number, number | null>> {
  const texts = new Map<number, string>();
  for (const episode of played) for (const [seed, text] of episode.texts) texts.set(seed, text);
  const arm = new MultiIssueLlmAgent({ backend: new ReplayBackend(texts), retries: 0 });
  const rewards = new Map<number, number | null>();
  const scenarios = new Map(s.scenarios.map((scenario) => [scenario.id, scenario]));
  const run = runTournament({
    suite: s,
    arms: { policy: arm },
    opponents: { [OPPONENT]: MULTI_ISSUE_BASELINES[OPPONENT]() },
    onlyOpponents: [OPPONENT],
    armRoles: [role],
    earlyStop: 0,
  });
  run.on('match-end', (record) => {
    const scenario = scenarios.get(record.scenarioId);
    if (!scenario) throw new Error('unknown scenario');
    rewards.set(record.index, bargainingReward(scenario, record.result, role, { invalidTurn: -0.5 }));
  });
  await run.done();
  expect(rewards.size).toBe(played.length);
  return rewards;
}

describe.each(['multi-issue-seller', 'multi-issue-buyer'] as const)('%s over WebSocket', (env) => {
  const role = env === 'multi-issue-seller' ? 'seller' : 'buyer';
  it.each([
    ['random', (seed: number) => randomPolicy(seed)],
    ['scripted', (seed: number) => scriptedPolicy(role, seed % 2 === 1)],
  ] as const)(
    '200 episodes with a %s policy: no protocol error, the rewards a tournament gives the same moves',
    async (_name, makePolicy) => {
      const dir = mkdtempSync(join(tmpdir(), 'haggle-env-'));
      const out = join(dir, 'run.jsonl');
      const { url, server, log } = await serve(env, { out });
      // 8 connections, each playing every 8th seed: episodes in flight at once on one server.
      const played: Played[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, lane) => {
          const client = await connectEnvironment(url);
          for (let seed = lane; seed < 200; seed += 8)
            played.push(await playEpisode(client, seed, makePolicy(seed)));
          client.close();
        }),
      );
      log?.close();
      expect(server.stats.protocolErrors).toBe(0);
      expect(played).toHaveLength(200);
      const expected = await tournamentRewards(played, role, suite);
      for (const episode of played)
        expect(episode.reward, `seed ${episode.seed}`).toBe(expected.get(episode.seed));
      const invalid = played.filter((episode) => episode.invalid);
      for (const episode of invalid) {
        expect(episode.reward).toBe(-0.5);
        expect(episode.info.end_reason).toBe('error');
        expect((episode.info.invalid_action as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
      }
      if (_name === 'random') expect(invalid.length).toBeGreaterThan(0);
      else expect(invalid).toHaveLength(0);
      // Every episode on file, with the policy's raw texts, in the tournament's record format.
      const file = readTournamentFile(out);
      expect(file.header?.format).toBe('haggle-tournament');
      expect(file.records).toHaveLength(200);
      const bySeed = new Map(played.map((episode) => [episode.seed, episode]));
      for (const record of file.records) {
        const episode = (
          record as unknown as { episode: { seed: number; reward: number | null; rawTexts: string[] } }
        ).episode;
        expect(episode.reward).toBe(bySeed.get(episode.seed)?.reward);
        expect(episode.rawTexts).toEqual([...(bySeed.get(episode.seed)?.texts.values() ?? [])]);
        expect(record.armRole).toBe(role);
      }
    },
    120_000,
  );
});

describe('EnvironmentServer', () => {
  it("serves OpenEnv's /health, /metadata and /schema", async () => {
    const { url } = await serve('multi-issue-seller');
    expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ status: 'healthy' });
    expect(await (await fetch(`${url}/metadata`)).json()).toMatchObject({ name: 'multi-issue-seller' });
    const schema = (await (await fetch(`${url}/schema`)).json()) as Record<string, { required?: string[] }>;
    expect(schema.action?.required).toEqual(['text']);
    expect(Object.keys(schema)).toEqual(['action', 'observation', 'state']);
    expect((await fetch(`${url}/reset`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
  });

  it('--observation minimal leaves out prompt and template, and changes nothing else', async () => {
    const full = await serve('multi-issue-seller');
    const minimal = await serve('multi-issue-seller', { observation: 'minimal' });
    const [a, b] = await Promise.all([connectEnvironment(full.url), connectEnvironment(minimal.url)]);
    for (const seed of [0, 1, 2]) {
      const policy = scriptedPolicy('seller');
      let left = await (a as EnvironmentClient).reset({ seed });
      let right = await (b as EnvironmentClient).reset({ seed });
      for (;;) {
        expect(typeof left.observation.prompt).toBe('string');
        expect(left.observation.template).toBe('qwen3_nothink');
        const { prompt: _prompt, template: _template, ...rest } = left.observation;
        expect(right.observation).toEqual(rest);
        expect(Object.keys(right.observation)).toEqual(
          expect.arrayContaining(['messages', 'legal_moves', 'schema']),
        );
        expect([right.reward, right.done]).toEqual([left.reward, left.done]);
        if (left.done) break;
        const text = policy(left.observation);
        left = await (a as EnvironmentClient).step({ text });
        right = await (b as EnvironmentClient).step({ text });
      }
    }
    const schema = (await (await fetch(`${minimal.url}/schema`)).json()) as {
      observation: { required: string[]; properties: Record<string, unknown> };
    };
    expect(schema.observation.required).not.toContain('prompt');
    expect(Object.keys(schema.observation.properties)).not.toContain('template');
    expect(minimal.server.stats.protocolErrors).toBe(0);
    a?.close();
    b?.close();
  });

  it('plays 64 episodes at once on one server', async () => {
    const { url, server } = await serve('multi-issue-seller');
    const clients = await Promise.all(Array.from({ length: 64 }, () => connectEnvironment(url)));
    const first = await Promise.all(clients.map((client, i) => client.reset({ seed: i })));
    expect(first.every((result) => !result.done)).toBe(true);
    expect(server.activeSessions).toBe(64);
    expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ active_sessions: 64 });
    const rewards = await Promise.all(
      clients.map(async (client, i) => {
        const policy = scriptedPolicy('seller');
        let result = first[i] as Awaited<ReturnType<EnvironmentClient['reset']>>;
        while (!result.done) result = await client.step({ text: policy(result.observation) });
        return result.reward;
      }),
    );
    expect(rewards.every((reward) => typeof reward === 'number')).toBe(true);
    expect(server.stats).toMatchObject({ episodes: 64, protocolErrors: 0 });
    for (const client of clients) client.close();
  });

  it('frees the episode of a dropped connection, and refuses one over --max-sessions', async () => {
    const { url, server } = await serve('multi-issue-seller', { limits: { maxSessions: 2 } });
    const a = await connectEnvironment(url);
    const b = await connectEnvironment(url);
    await a.reset({ seed: 1 });
    await b.reset({ seed: 2 });
    const c = await connectEnvironment(url);
    await expect(c.reset({ seed: 3 })).rejects.toThrow(/code: CAPACITY_REACHED/);
    expect(server.stats.refused).toBe(1);
    a.drop();
    await expect.poll(() => server.activeSessions).toBe(1);
    const d = await connectEnvironment(url);
    expect((await d.reset({ seed: 3 })).done).toBe(false);
    b.close();
    d.close();
  });

  it('reaps an idle episode', async () => {
    const { url, server } = await serve('multi-issue-seller', { limits: { idleTimeoutMs: 100 } });
    const client = await connectEnvironment(url);
    await client.reset({ seed: 0 });
    await expect.poll(() => server.stats.reaped, { timeout: 5000 }).toBe(1);
    expect(server.activeSessions).toBe(0);
    await expect(client.step({ text: '{}' })).rejects.toThrow(EnvironmentServerError);
  });

  it('does not reap an episode whose opponent is still thinking', async () => {
    const slow = MULTI_ISSUE_BASELINES['utility-linear']();
    const opponent = {
      describe: () => slow.describe(),
      predict: async (...args: Parameters<typeof slow.predict>) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        return slow.predict(...args);
      },
    };
    const server = new EnvironmentServer({
      createEnvironment: () =>
        createEnvironment({ env: 'multi-issue-buyer', suite, opponent, opponentName: 'utility-linear' }),
      name: 'multi-issue-buyer',
      description: 'test',
      limits: { idleTimeoutMs: 100 },
    });
    servers.push(server);
    const client = await connectEnvironment(await server.listen({ port: 0 }));
    // The seller (the slow opponent) opens: reset waits 600 ms, six idle timeouts.
    const first = await client.reset({ seed: 0 });
    expect(first.done).toBe(false);
    expect(server.stats.reaped).toBe(0);
    client.close();
  });

  it("answers bad messages with OpenEnv's error codes and keeps the session", async () => {
    const { url } = await serve('multi-issue-seller', { limits: { maxMessageBytes: 4096 } });
    const client = await connectEnvironment(url);
    const code = async (message: Record<string, unknown>) => (await client.send(message)).data.code;
    expect(await code({ type: 'step', data: { text: '{}' } })).toBe('EXECUTION_ERROR'); // before reset
    expect(await code({ type: 'dance' })).toBe('UNKNOWN_TYPE');
    expect(await code({ type: 'reset', data: { seed: -1 } })).toBe('VALIDATION_ERROR');
    expect(await code({ type: 'reset', data: [1] })).toBe('VALIDATION_ERROR');
    await client.reset({ seed: 4, episode_id: 'e-4' });
    expect(await code({ type: 'step', data: { code: 'print(1)' } })).toBe('VALIDATION_ERROR');
    expect(await client.state()).toMatchObject({ episode_id: 'e-4', step_count: 0, seed: 4, done: false });
    // Over the message limit: the connection is closed (1009), not the server.
    await expect(client.step({ text: 'x'.repeat(10_000) })).rejects.toThrow(/connection closed \(1009\)/);
    const again = await connectEnvironment(url);
    expect((await again.reset({ seed: 4 })).done).toBe(false);
    again.close();
  });

  it('answers invalid JSON with INVALID_JSON', async () => {
    const { url } = await serve('multi-issue-seller');
    const client = await connectEnvironment(url);
    // The client only sends JSON; reach under it for a raw text frame.
    const raw = client as unknown as { socket: { send(text: string): void }; waiting: unknown[] };
    const answer = new Promise<{ data: { code: string } }>((resolve, reject) =>
      raw.waiting.push({ resolve, reject }),
    );
    raw.socket.send('{not json');
    expect((await answer).data.code).toBe('INVALID_JSON');
    client.close();
  });
});

it('the run file of a server is what `haggle analyse` reads', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-'));
  const out = join(dir, 'run.jsonl');
  const { url, log } = await serve('multi-issue-seller', { out });
  const client = await connectEnvironment(url);
  for (let seed = 0; seed < 3; seed++) await playEpisode(client, seed, scriptedPolicy('seller'));
  client.close();
  log?.close();
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(4);
  const { loadTournament } = await import('../../src/evaluation/load-tournament.js');
  const loaded = loadTournament(out);
  expect(loaded.records.map((r) => r.index)).toEqual([0, 1, 2]);
  expect(loaded.missing).toBe(0);
});
