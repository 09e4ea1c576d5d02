import { describe, expect, it } from 'vitest';
import { MAX_NATIVE_ABORT_WAIT_MS, waitLonger } from '../../src/onnx/abort-wait.js';

describe("waitLonger: whether an aborted request's worker gets another grace", () => {
  const outside = (runs: number) => ({ inside: false, runs });
  const inside = (runs: number) => ({ inside: true, runs });

  it('waits for a worker inside a native run, or one that finished a run since the last look', () => {
    expect(waitLonger(outside(3), inside(3), 5_000)).toBe(true);
    expect(waitLonger(inside(3), outside(4), 5_000)).toBe(true);
  });

  it('ends a worker that stayed in JavaScript a whole grace without a run (a runaway)', () => {
    expect(waitLonger(outside(3), outside(3), 5_000)).toBe(false);
    expect(waitLonger(inside(3), outside(3), 5_000)).toBe(false);
  });

  it(`stops waiting after ${MAX_NATIVE_ABORT_WAIT_MS} ms, runs or not`, () => {
    expect(waitLonger(outside(3), inside(9), MAX_NATIVE_ABORT_WAIT_MS - 1)).toBe(true);
    expect(waitLonger(outside(3), inside(9), MAX_NATIVE_ABORT_WAIT_MS)).toBe(false);
  });
});
