import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { createEnvironment } from '../../src/env/create-environment.js';
import { EnvironmentServer } from '../../src/env/env-server.js';
import { generateSuite } from '../../src/evaluation/suite.js';
import { MULTI_ISSUE_BASELINES } from '../../src/multi-issue/multi-issue-baseline-registry.js';

// OpenEnv's own client is Python: this drives the server from a Python process that sends and parses
// GenericEnvClient's messages (test/env/openenv_wire_client.py says what it follows), so the wire format
// is checked by a second implementation in another language, not only by haggle's TypeScript client.
const CLIENT = new URL('./openenv_wire_client.py', import.meta.url).pathname;
const EPISODES = 20;
const suite = generateSuite({ seed: 32, scenarios: 10, seedsPerPair: 2 });
const options = {
  env: 'multi-issue-seller' as const,
  suite,
  opponent: MULTI_ISSUE_BASELINES['utility-conceder'](),
  opponentName: 'utility-conceder',
};

let server: EnvironmentServer | undefined;
afterEach(async () => {
  await server?.close();
});

interface PythonEpisode {
  seed: number;
  reward: number | null;
  done: boolean;
  steps: number;
  texts: string[];
  state: Record<string, unknown>;
}

it("a Python client speaking GenericEnvClient's messages plays episodes with the in-process rewards", async () => {
  server = new EnvironmentServer({
    createEnvironment: () => createEnvironment(options),
    name: 'multi-issue-seller',
    description: 'test',
  });
  const url = await server.listen({ port: 0 });
  // A kill timeout and a memory ceiling: the child is a client we wrote, but a hang must not stall CI.
  const { stdout } = await promisify(execFile)(
    'prlimit',
    ['--as=1073741824', '--', 'python3', CLIENT, url, String(EPISODES)],
    { timeout: 60_000, killSignal: 'SIGKILL' },
  );
  const episodes = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as PythonEpisode);
  expect(episodes).toHaveLength(EPISODES);
  expect(server.stats).toMatchObject({ episodes: EPISODES, protocolErrors: 0 });
  // The same texts in process: the same rewards, step counts and final state.
  const local = createEnvironment(options);
  for (const episode of episodes) {
    expect(episode.done).toBe(true);
    expect(episode.steps).toBeGreaterThan(0);
    let result = await local.reset({ seed: episode.seed, episodeId: `py-${episode.seed}` });
    for (const text of episode.texts) result = await local.step(text);
    expect(result.done, `seed ${episode.seed}`).toBe(true);
    expect(episode.reward, `seed ${episode.seed}`).toBe(result.reward);
    expect(episode.state).toEqual(JSON.parse(JSON.stringify(local.state())));
    expect(episode.state).toMatchObject({ episode_id: `py-${episode.seed}`, step_count: episode.steps });
  }
  expect(episodes.some((episode) => typeof episode.reward === 'number' && episode.reward > 0)).toBe(true);
}, 90_000);
