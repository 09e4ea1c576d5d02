import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/contract/errors.js';
import { createEnvironment } from '../../src/env/create-environment.js';
import { EnvironmentStateError } from '../../src/env/errors.js';
import { generateSuite } from '../../src/evaluation/suite.js';
import { utilityBoulware, utilityConceder } from '../../src/multi-issue/multi-issue-baselines.js';
import { randomPolicy } from './policies.js';

const suite = generateSuite({ seed: 5, scenarios: 6, seedsPerPair: 2 });
const options = {
  env: 'multi-issue-seller' as const,
  suite,
  opponent: utilityConceder(),
  opponentName: 'utility-conceder',
};

async function rollout(seed: number, policySeed: number) {
  const env = createEnvironment(options);
  const policy = randomPolicy(policySeed);
  const trace: unknown[] = [];
  let result = await env.reset({ seed });
  trace.push(result);
  while (!result.done) {
    result = await env.step(policy(result.observation as unknown as Record<string, unknown>));
    trace.push(result);
  }
  return { trace, state: env.state(), record: env.record() };
}

describe('createEnvironment (multi-issue)', () => {
  it('is deterministic: the same seed and actions give the same observations and rewards', async () => {
    for (let seed = 0; seed < 12; seed++) {
      const a = await rollout(seed, seed + 100);
      const b = await rollout(seed, seed + 100);
      expect(b.trace).toEqual(a.trace);
      expect(JSON.stringify(b.record?.result)).toBe(JSON.stringify(a.record?.result));
    }
  });

  it('observations carry the chat, the rendered prompt, the legal moves and the turn schema', async () => {
    const env = createEnvironment(options);
    const first = await env.reset({ seed: 1 });
    const { observation } = first;
    expect(observation.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(observation.prompt).toMatch(/^<\|im_start\|>system\n/);
    expect(observation.prompt.endsWith('<|im_start|>assistant\n')).toBe(true);
    // The seller opens: nothing stands to accept.
    expect(observation.legal_moves.map((m) => m.action)).toEqual(['offer', 'walk_away']);
    expect(JSON.stringify(observation.schema)).toContain('"walk_away"');
    expect(JSON.stringify(observation.schema)).not.toContain('"accept"');
    expect(first.reward).toBe(0);
    const done = await env.step('{"action":"walk_away","offer":null,"message":""}');
    expect(done).toMatchObject({
      done: true,
      observation: { info: { end_reason: 'walked-away', deal: false } },
    });
    expect(done.reward).toBe(
      suite.scenarios.find((s) => s.id === env.state().scenario_id)?.seller.reservation,
    );
  });

  it('an invalid action ends the episode with the configured penalty and says why', async () => {
    const env = createEnvironment({ ...options, rewards: { invalidAction: -2 } });
    await env.reset({ seed: 0 });
    const result = await env.step('{"action":"accept","offer":null,"message":""}');
    expect(result.done).toBe(true);
    expect(result.reward).toBe(-2);
    expect(result.observation.info.invalid_action?.issues[0]?.message).toMatch(
      /no proposal stands to accept/,
    );
  });

  it('refuses calls out of order and bad options with typed errors', async () => {
    const env = createEnvironment(options);
    await expect(env.step('{}')).rejects.toThrow(EnvironmentStateError);
    await env.reset({ seed: 0 });
    await env.step('nonsense');
    await expect(env.step('{}')).rejects.toThrow(/call reset/);
    await expect(env.reset({ seed: -3 })).rejects.toThrow(InvalidInputError);
    expect(() => createEnvironment({ ...options, env: 'poker' as 'multi-issue-seller' })).toThrow(
      InvalidInputError,
    );
    expect(() => createEnvironment({ ...options, rewards: { step: Number.NaN } })).toThrow(/finite/);
  });

  it('reset abandons an episode in progress; the buyer environment trains the buyer', async () => {
    const env = createEnvironment({
      ...options,
      env: 'multi-issue-buyer',
      opponent: utilityBoulware(),
      opponentName: 'utility-boulware',
    });
    const first = await env.reset({ seed: 2 });
    // The seller (the opponent) opened: the buyer may accept its proposal.
    expect(first.observation.role).toBe('buyer');
    expect(first.observation.legal_moves.map((m) => m.action)).toContain('accept');
    const again = await env.reset({ seed: 2 });
    expect(again).toEqual(first);
    const accepted = await env.step('{"action":"accept","offer":null,"message":""}');
    expect(accepted.observation.info).toMatchObject({ end_reason: 'accepted', deal: true });
    expect(env.record()).toMatchObject({
      armRole: 'buyer',
      opponent: 'utility-boulware',
      metrics: { deal: true },
    });
  });
});
