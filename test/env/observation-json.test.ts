import { expect, it } from 'vitest';
import { createEnvironment } from '../../src/env/create-environment.js';
import type { EnvironmentStepResult } from '../../src/env/environment.js';
import { deepFreeze, observationMessageJson } from '../../src/env/observation-json.js';
import { generateSuite } from '../../src/evaluation/suite.js';
import { MULTI_ISSUE_BASELINES } from '../../src/multi-issue/multi-issue-baseline-registry.js';

const plain = (result: EnvironmentStepResult) =>
  JSON.parse(JSON.stringify({ type: 'observation', data: result }));

it('writes the JSON that JSON.stringify writes, whether the schema is cached, fresh or absent', async () => {
  const env = createEnvironment({
    env: 'multi-issue-seller',
    suite: generateSuite({ seed: 1, scenarios: 2, seedsPerPair: 1 }),
    opponent: MULTI_ISSUE_BASELINES['utility-conceder'](),
    opponentName: 'utility-conceder',
  });
  const first = await env.reset({ seed: 0 });
  expect(Object.isFrozen(first.observation.schema)).toBe(true);
  // Twice: the second answer comes from the cached schema text.
  expect(JSON.parse(observationMessageJson(first))).toEqual(plain(first));
  expect(JSON.parse(observationMessageJson(first))).toEqual(plain(first));
  const fresh = { ...first, observation: { ...first.observation, schema: { type: 'object' } } };
  expect(JSON.parse(observationMessageJson(fresh))).toEqual(plain(fresh));
  // A schema that is not frozen may change: its JSON is written anew each time.
  (fresh.observation.schema as Record<string, unknown>).type = 'string';
  expect(JSON.parse(observationMessageJson(fresh)).data.observation.schema).toEqual({ type: 'string' });
  const last = await env.step('{"action":"walk_away","offer":null,"message":"No."}');
  expect(last.done).toBe(true);
  expect(JSON.parse(observationMessageJson(last))).toEqual(plain(last));
  const voided = { ...last, reward: null };
  expect(JSON.parse(observationMessageJson(voided)).data.reward).toBeNull();
});

it('deepFreeze freezes nested objects and arrays', () => {
  const value = deepFreeze({ a: { b: [1, { c: 2 }] } });
  expect(Object.isFrozen(value.a.b[1])).toBe(true);
  expect(() => {
    (value.a.b as unknown[]).push(3);
  }).toThrow(TypeError);
});
