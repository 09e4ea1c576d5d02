import { describe, expect, it } from 'vitest';
import { fromHours, toHours } from '../../src/contract/time-unit.js';
import { InvalidInputError, MODEL_PROFILES, resolveModelProfile } from '../../src/index.js';

describe('ModelProfile', () => {
  it('ships both models of the card, saying what is known and what is assumed', () => {
    for (const profile of Object.values(MODEL_PROFILES)) {
      expect(profile.template).toBe('qwen3_nothink');
      expect(profile.sampling.temperature).toBe(1);
      // The full label list is not public: never force a made-up list onto a real model.
      expect(profile.labels.kind).toBe('open');
      expect(profile.facts.some((f) => f.provenance === 'known')).toBe(true);
      expect(profile.facts.find((f) => f.subject === 'responseTimeUnit')?.provenance).toBe('assumed');
    }
  });

  it('resolves built-in ids and validates custom profiles', () => {
    expect(resolveModelProfile('qwen3-4b-negotiation-msg-sessions-ep4').id).toBe(
      'qwen3-4b-negotiation-msg-sessions-ep4',
    );
    expect(() =>
      resolveModelProfile({
        id: 'x',
        labels: { kind: 'known', values: ['Not Snake'] },
        responseTimeUnit: 'hours',
        template: 't',
        sampling: { temperature: 1 },
      }),
    ).toThrow(InvalidInputError);
  });

  it('converts response times to hours and back', () => {
    expect(toHours(90, 'minutes')).toBe(1.5);
    expect(toHours(2, 'days')).toBe(48);
    expect(fromHours(1.5, 'minutes')).toBe(90);
  });
});
