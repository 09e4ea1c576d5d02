import { describe, expect, it } from 'vitest';
import {
  generateSuite,
  MultiIssueLlmAgent,
  runMultiIssueNegotiation,
  utilityLinear,
} from '../../src/evaluation/index.js';
import { InvalidInputError } from '../../src/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';

const scenario = generateSuite({ seed: 11, scenarios: 1, seedsPerPair: 1 }).scenarios[0];
if (!scenario) throw new Error('no scenario');
const walkAway = JSON.stringify({ action: 'walk_away', offer: null, message: '' });

async function firstCall(options: Partial<ConstructorParameters<typeof MultiIssueLlmAgent>[0]>) {
  const backend = new MockLanguageBackend({ responses: [walkAway] });
  const agent = new MultiIssueLlmAgent({ backend, ...options });
  await runMultiIssueNegotiation({
    scenario: scenario as NonNullable<typeof scenario>,
    seller: agent,
    buyer: utilityLinear(),
    seed: 3,
    maxRounds: 2,
  });
  const call = backend.calls[0];
  if (!call) throw new Error('the backend was not called');
  return { call, agent };
}

describe('MultiIssueLlmAgent sampling and prompt options (what an experiment file sets)', () => {
  it('sends topP and topK, and a seed of its own mixed into the match seed', async () => {
    const plain = await firstCall({});
    const seeded = await firstCall({ seed: 5, topP: 0.9, topK: 40 });
    const other = await firstCall({ seed: 6 });
    expect(plain.call.topP).toBeUndefined();
    expect(seeded.call).toMatchObject({ topP: 0.9, topK: 40 });
    // Same match, three agents: the plain one uses the match's seed, the others their own mixes of it.
    const seeds = [plain.call.seed, seeded.call.seed, other.call.seed];
    expect(seeds.every((seed) => Number.isInteger(seed))).toBe(true);
    expect(new Set(seeds).size).toBe(3);
    expect((await firstCall({ seed: 5 })).call.seed).toBe(seeded.call.seed); // repeatable
    expect(seeded.agent.describe()).toMatchObject({ seed: 5, topP: 0.9, topK: 40 });
  });

  it('replaces the system message and keeps the user message with the issues and preferences', async () => {
    const plain = await firstCall({});
    const custom = await firstCall({ systemPrompt: 'You are a careful seller. Answer in JSON.' });
    expect(custom.call.prompt.messages[0]).toEqual({
      role: 'system',
      content: 'You are a careful seller. Answer in JSON.',
    });
    expect(custom.call.prompt.messages[1]).toEqual(plain.call.prompt.messages[1]);
    expect(custom.call.prompt.text).toContain('You are a careful seller.');
    expect(custom.agent.describe()).toMatchObject({
      systemPrompt: 'You are a careful seller. Answer in JSON.',
    });
  });

  it('refuses bad values with every problem at once', () => {
    const backend = new MockLanguageBackend({ responses: [] });
    expect(
      () => new MultiIssueLlmAgent({ backend, topP: 0, topK: 1.5, seed: -1, systemPrompt: ' ' }),
    ).toThrow(InvalidInputError);
    expect(
      () => new MultiIssueLlmAgent({ backend, topP: 0, topK: 1.5, seed: -1, systemPrompt: ' ' }),
    ).toThrow(
      /topP: must be in \(0, 1\]; topK: must be a positive integer; seed: must be a non-negative integer; systemPrompt: must not be empty/,
    );
  });
});
