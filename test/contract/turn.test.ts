import { describe, expect, it } from 'vitest';
import { TurnSchema } from '../../src/index.js';

const valid = {
  offer: { action: 'offer', price: 45, message_labels: [], message: '', response_time: 3 },
  offer_with_message: {
    action: 'offer_with_message',
    price: 45,
    message_labels: ['build_rapport', 'invoke_compromise'],
    message: "Hi, I've been looking for this exact item.",
    response_time: 3,
  },
  accept: { action: 'accept', price: null, message_labels: [], message: '', response_time: 0.5 },
  decline: { action: 'decline', price: null, message_labels: [], message: '', response_time: 2 },
  message_only: {
    action: 'message_only',
    price: null,
    message_labels: ['request_information'],
    message: 'Does it come with the charger?',
    response_time: 1,
  },
  no_response: { action: 'no_response', price: null, message_labels: [], message: '', response_time: 48 },
} as const;

function issuesOf(value: unknown): string[] {
  const result = TurnSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('TurnSchema', () => {
  it.each(Object.entries(valid))('accepts a valid %s turn', (_action, turn) => {
    expect(issuesOf(turn)).toEqual([]);
  });

  it.each(['offer', 'offer_with_message'] as const)('%s needs a price above 0', (action) => {
    expect(issuesOf({ ...valid[action], price: null })).toContainEqual(
      expect.stringMatching(/^price: .*above 0/),
    );
    expect(issuesOf({ ...valid[action], price: 0 })).toContainEqual(expect.stringMatching(/^price: /));
    expect(issuesOf({ ...valid[action], price: -5 })).toContainEqual(expect.stringMatching(/^price: /));
  });

  it.each(['accept', 'decline', 'message_only', 'no_response'] as const)(
    '%s carries no price of its own',
    (action) => {
      expect(issuesOf({ ...valid[action], price: 40 })).toContainEqual(
        expect.stringMatching(/^price: .*must be null/),
      );
    },
  );

  it.each(['offer_with_message', 'message_only'] as const)('%s needs a non-empty message', (action) => {
    expect(issuesOf({ ...valid[action], message: '' })).toContainEqual(
      expect.stringMatching(/^message: .*non-empty/),
    );
    expect(issuesOf({ ...valid[action], message: '   ' })).toContainEqual(
      expect.stringMatching(/^message: /),
    );
  });

  it.each(['offer', 'accept', 'decline', 'no_response'] as const)('%s carries no message', (action) => {
    expect(issuesOf({ ...valid[action], message: 'hello' })).toContainEqual(
      expect.stringMatching(/^message: .*""/),
    );
  });

  it.each(['offer', 'accept', 'decline', 'no_response'] as const)(
    '%s carries no labels without a message',
    (action) => {
      expect(issuesOf({ ...valid[action], message_labels: ['build_rapport'] })).toContainEqual(
        expect.stringMatching(/^message_labels: .*without a message/),
      );
    },
  );

  it('labels are snake_case and unique', () => {
    expect(issuesOf({ ...valid.message_only, message_labels: ['Build Rapport'] })).toContainEqual(
      expect.stringMatching(/snake_case/),
    );
    expect(
      issuesOf({ ...valid.message_only, message_labels: ['build_rapport', 'build_rapport'] }),
    ).toContainEqual(expect.stringMatching(/must not repeat/));
  });

  it('response_time is a non-negative finite number', () => {
    expect(issuesOf({ ...valid.offer, response_time: -1 })).not.toEqual([]);
    expect(issuesOf({ ...valid.offer, response_time: Number.NaN })).not.toEqual([]);
    expect(issuesOf({ ...valid.offer, response_time: 0 })).toEqual([]);
  });

  it('rejects unknown actions, extra keys and missing fields', () => {
    expect(issuesOf({ ...valid.offer, action: 'counter' })).not.toEqual([]);
    expect(issuesOf({ ...valid.offer, extra: 1 })).not.toEqual([]);
    const { message: _m, ...withoutMessage } = valid.offer;
    expect(issuesOf(withoutMessage)).toContainEqual(expect.stringMatching(/^message: /));
  });
});
