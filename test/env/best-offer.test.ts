import { afterEach, describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import type {
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../../src/backends/language-backend.js';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import { boulware } from '../../src/baselines/time-based-agent.js';
import type { Negotiator } from '../../src/contract/negotiator.js';
import { createEnvironment } from '../../src/env/create-environment.js';
import { connectEnvironment } from '../../src/env/env-client.js';
import { EnvironmentServer } from '../../src/env/env-server.js';
import { deriveSeed } from '../../src/internal/random.js';
import { Session } from '../../src/simulation/session.js';
import { generateContexts } from '../../src/simulation/synthetic-contexts.js';
import { randomBestOfferPolicy, scriptedBestOfferPolicy } from './policies.js';

const servers: EnvironmentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const catalog = generateContexts({ count: 1000, seed: 0 });

/** The trained policy's recorded texts, replayed through a NegotiationAgent (the user's model stand-in). */
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

/** The same listing, opponent, seed and texts as a plain Session, scored independently of the environment. */
async function sessionReward(
  seed: number,
  texts: Map<number, string>,
  role: 'seller' | 'buyer',
  opponent: Negotiator,
) {
  const trained = new NegotiationAgent({ backend: new ReplayBackend(texts), invalidOutput: { retries: 0 } });
  const session = new Session({
    context: catalog[seed % catalog.length] as (typeof catalog)[number],
    seller: role === 'seller' ? trained : opponent,
    buyer: role === 'buyer' ? trained : opponent,
    seed,
    id: `episode-${seed}`,
  });
  const result = await session.run().catch(() => session.result);
  const outcome = result?.outcome;
  if (!outcome || !result) throw new Error('no result');
  if (outcome.reason === 'error') return -0.5;
  if (outcome.status !== 'deal' || outcome.price === null) return 0;
  const share = outcome.price / result.context.listPrice;
  return role === 'seller' ? share : 1 - share;
}

describe.each([
  ['best-offer-seller', 'seller', 'population', () => new PopulationAgent()],
  ['best-offer-buyer', 'buyer', 'boulware', () => boulware()],
] as const)('%s over WebSocket', (env, role, opponentName, makeOpponent) => {
  it.each([
    ['random', (seed: number) => randomBestOfferPolicy(seed)],
    ['scripted', () => scriptedBestOfferPolicy(role)],
  ] as const)(
    '200 episodes with a %s policy: the rewards a plain Session gives the same moves',
    async (policyName, makePolicy) => {
      const server = new EnvironmentServer({
        createEnvironment: () =>
          createEnvironment({
            env,
            opponent: makeOpponent(),
            opponentName,
            rewards: { invalidAction: -0.5 },
          }),
        name: env,
        description: 'test',
      });
      servers.push(server);
      const url = await server.listen({ port: 0 });
      const played: { seed: number; reward: number | null; texts: Map<number, string>; invalid: boolean }[] =
        [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, lane) => {
          const client = await connectEnvironment(url);
          for (let seed = lane; seed < 200; seed += 8) {
            const policy = makePolicy(seed);
            const texts = new Map<number, string>();
            let result = await client.reset({ seed });
            while (!result.done) {
              expect(result.observation.schema).not.toBeNull();
              const text = policy(result.observation);
              texts.set(deriveSeed(seed, result.observation.turn as number), text);
              result = await client.step({ text });
            }
            const info = result.observation.info as { invalid_action?: unknown; void?: boolean };
            expect(info.void).toBeUndefined();
            played.push({ seed, reward: result.reward, texts, invalid: info.invalid_action !== undefined });
          }
          client.close();
        }),
      );
      expect(server.stats.protocolErrors).toBe(0);
      expect(played).toHaveLength(200);
      for (const episode of played) {
        const expected = await sessionReward(episode.seed, episode.texts, role, makeOpponent());
        expect(episode.reward, `seed ${episode.seed}`).toBeCloseTo(expected, 12);
        if (episode.invalid) expect(episode.reward).toBe(-0.5);
      }
      const invalid = played.filter((episode) => episode.invalid).length;
      if (policyName === 'random') expect(invalid).toBeGreaterThan(0);
      else expect(invalid).toBe(0);
      expect(played.some((episode) => (episode.reward ?? 0) > 0)).toBe(true);
    },
    120_000,
  );
});
