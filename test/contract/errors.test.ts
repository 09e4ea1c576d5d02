import { describe, expect, it } from 'vitest';
import { readablePath } from '../../src/contract/errors.js';
import {
  BackendError,
  HaggleAbortError,
  HaggleError,
  InvalidInputError,
  InvalidModelOutputError,
  throwIfAborted,
} from '../../src/index.js';

describe('errors', () => {
  it('every subclass is a HaggleError by marker, even across copies of the package', () => {
    const errors = [
      new InvalidInputError({ subject: 'X', issues: [{ path: 'a', message: 'bad' }] }),
      new InvalidModelOutputError({
        rawTexts: ['{'],
        issues: [{ path: '(root)', message: 'not JSON' }],
        attempts: 3,
      }),
      new BackendError({ message: 'down', backend: 'mock', status: 503, retryable: true, attempts: 2 }),
      new HaggleAbortError('stop'),
    ];
    for (const error of errors) {
      expect(HaggleError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(Error);
    }
    // An error from another copy carries the same global symbol.
    const foreign = Object.assign(new Error('x'), { [Symbol.for('haggle.error')]: true });
    expect(HaggleError.isInstance(foreign)).toBe(true);
    expect(HaggleError.isInstance(new Error('plain'))).toBe(false);
    expect(HaggleError.isInstance(null)).toBe(false);
  });

  it('carry what a user needs to act', () => {
    const output = new InvalidModelOutputError({
      rawTexts: ['first', 'second'],
      issues: [{ path: 'price', message: 'needs a price' }],
      attempts: 2,
    });
    expect(output.rawText).toBe('second');
    expect(output.attempts).toBe(2);
    expect(output.message).toContain('price: needs a price');
    const backend = new BackendError({
      message: 'rate limited',
      backend: 'replica-1',
      status: 429,
      retryable: true,
    });
    expect([backend.status, backend.retryable, backend.attempts, backend.code]).toEqual([
      429,
      true,
      1,
      'backend-error',
    ]);
  });

  it('readablePath formats nested paths', () => {
    expect(readablePath(['history', 2, 'turn', 'price'])).toBe('history[2].turn.price');
    expect(readablePath([])).toBe('(root)');
    expect(readablePath([0, 'role'])).toBe('[0].role');
  });

  it('throwIfAborted throws only once the signal fired', () => {
    const controller = new AbortController();
    expect(() => throwIfAborted(controller.signal)).not.toThrow();
    controller.abort(new Error('user left'));
    expect(() => throwIfAborted(controller.signal)).toThrow(/Aborted: user left/);
  });
});
