import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import { bestOfferSessions } from '../../src/env/best-offer-sessions.js';
import { createEnvironment } from '../../src/env/create-environment.js';
import { EpisodeLog } from '../../src/env/episode-log.js';
import { loadTournament } from '../../src/evaluation/load-tournament.js';
import { generateSuite } from '../../src/evaluation/suite.js';
import { MULTI_ISSUE_BASELINES } from '../../src/multi-issue/multi-issue-baseline-registry.js';
import { RunFileError, readRunFile } from '../../src/simulation/run-file.js';
import { scriptedBestOfferPolicy } from './policies.js';

const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;

it('a best-offer run file: `haggle analyse` names the command that reads it, `haggle env sessions` writes its sessions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-sessions-'));
  const run = join(dir, 'run.jsonl');
  const env = createEnvironment({
    env: 'best-offer-seller',
    opponent: new PopulationAgent(),
    opponentName: 'population',
  });
  const log = EpisodeLog.open(run, env.runHeader());
  const rewards: (number | null)[] = [];
  for (let seed = 0; seed < 6; seed++) {
    const policy = scriptedBestOfferPolicy('seller');
    let result = await env.reset({ seed });
    while (!result.done)
      result = await env.step(policy(result.observation as unknown as Record<string, unknown>));
    rewards.push(result.reward);
    const record = env.record();
    if (record) log.append(record);
  }
  log.close();
  expect(rewards.some((reward) => (reward ?? 0) > 0)).toBe(true);

  expect(() => loadTournament(run)).toThrow(RunFileError);
  expect(() => loadTournament(run)).toThrow(/haggle env sessions FILE --out SESSIONS\.jsonl/);

  const sessions = bestOfferSessions(run);
  expect(sessions.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5]);
  // The session's own outcome gives back the episode's reward (haggle's price-over-list for a seller).
  sessions.forEach((session, i) => {
    const { outcome, context } = session;
    const expected =
      outcome.status === 'deal' && outcome.price !== null ? outcome.price / context.listPrice : 0;
    expect(rewards[i]).toBeCloseTo(expected, 12);
  });

  const out = join(dir, 'sessions.jsonl');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', BIN, 'env', 'sessions', run, '--out', out],
    { timeout: 60_000, killSignal: 'SIGKILL' },
  );
  expect(stdout).toMatch(/^6 sessions written/);
  expect(readRunFile(out).sessions).toEqual(sessions);

  // A multi-issue run file is not one: the refusal says which command reads it.
  const multi = join(dir, 'multi.jsonl');
  const options = {
    env: 'multi-issue-seller' as const,
    suite: generateSuite({ seed: 1, scenarios: 2, seedsPerPair: 1 }),
    opponent: MULTI_ISSUE_BASELINES['utility-linear'](),
    opponentName: 'utility-linear',
  };
  EpisodeLog.open(multi, createEnvironment(options).runHeader()).close();
  expect(() => bestOfferSessions(multi)).toThrow(/read by `haggle analyse` directly/);
}, 90_000);
