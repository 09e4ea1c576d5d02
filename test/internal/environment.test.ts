import { describe, expect, it } from 'vitest';
import { maxInputBytes, processEnvironment } from '../../src/internal/environment.js';

describe('environment: the one module that reads process.env', () => {
  it('reads the process environment by default', () => {
    const before = process.env.HAGGLE_MAX_INPUT_MIB;
    process.env.HAGGLE_MAX_INPUT_MIB = '3';
    try {
      expect(processEnvironment().HAGGLE_MAX_INPUT_MIB).toBe('3');
      expect(maxInputBytes()).toBe(3 * 1024 * 1024);
    } finally {
      if (before === undefined) delete process.env.HAGGLE_MAX_INPUT_MIB;
      else process.env.HAGGLE_MAX_INPUT_MIB = before;
    }
  });
});
