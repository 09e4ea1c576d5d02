import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { connectEnvironment } from '../../src/env/env-client.js';
import { generateSuite, saveSuite } from '../../src/evaluation/suite.js';
import { readTournamentFile } from '../../src/evaluation/tournament-file.js';
import { startEnvServe } from './env-serve-process.js';
import { scriptedBestOfferPolicy, scriptedPolicy } from './policies.js';

// `haggle env serve --opponent NAME` with the learning opponents of issue 46, as a real process over a
// real WebSocket: the name resolves through the registry and whole episodes play against it.
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

it('`haggle env serve --opponent utility-nash-seeker` (and the other learners) serve episodes that finish', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-learning-'));
  const suitePath = join(dir, 'suite.json');
  saveSuite(suitePath, generateSuite({ seed: 46, scenarios: 3, seedsPerPair: 1 }));
  for (const [env, opponent] of [
    ['multi-issue-seller', 'utility-nash-seeker'],
    ['multi-issue-buyer', 'utility-hard-headed'],
    ['multi-issue-seller', 'utility-adaptive-concession'],
  ] as const) {
    const out = join(dir, `${opponent}.jsonl`);
    const args = ['--env', env, '--suite', suitePath, '--opponent', opponent, '--out', out];
    const { child, url, stdout } = await startEnvServe(args, { track: children });
    expect(stdout()).toContain(`against ${opponent}`);
    const client = await connectEnvironment(url);
    const policy = scriptedPolicy(env === 'multi-issue-seller' ? 'seller' : 'buyer');
    for (let n = 0; n < 3; n++) {
      let result = await client.reset({ seed: n, episode_id: `e${n}` });
      while (!result.done) result = await client.step({ text: policy(result.observation) });
    }
    await client.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)));
    const file = readTournamentFile(out);
    expect(file.records).toHaveLength(3);
    expect(JSON.stringify(file.header)).toContain(`"kind":"${opponent}"`);
  }
}, 120_000);

it('`haggle env serve --env best-offer-seller --opponent reservation-learner` plays the learning buyer', async () => {
  const { url, stdout } = await startEnvServe(
    ['--env', 'best-offer-seller', '--opponent', 'reservation-learner'],
    {
      track: children,
    },
  );
  expect(stdout()).toContain('against reservation-learner');
  const client = await connectEnvironment(url);
  const policy = scriptedBestOfferPolicy('seller');
  let result = await client.reset({ seed: 1, episode_id: 'b1' });
  let steps = 0;
  while (!result.done && steps++ < 50) result = await client.step({ text: policy(result.observation) });
  expect(result.done).toBe(true);
  await client.close();
}, 60_000);
