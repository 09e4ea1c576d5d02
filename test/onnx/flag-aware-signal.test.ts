import { describe, expect, it } from 'vitest';
import { HaggleAbortError, throwIfAborted } from '../../src/contract/errors.js';
import { flagAware } from '../../src/onnx/decode-sequence.js';

// Issue 40: the model worker's engine aborts a job's controller only between steps; a search inside
// one step (a mask over a large enum, the completion near the token budget) is synchronous, so the
// signal the decoders get reads the main thread's shared-memory flag itself.
describe('flagAware: the decoder signal in the model worker', () => {
  it('is aborted as soon as the shared flag is set, before the controller is', () => {
    const controller = new AbortController();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const signal = flagAware(controller.signal, flag);
    expect(signal.aborted).toBe(false);
    Atomics.store(flag, 0, 1);
    expect(signal.aborted).toBe(true);
    expect(controller.signal.aborted).toBe(false);
    expect(() => throwIfAborted(signal)).toThrow(HaggleAbortError);
  });

  it("keeps the controller's own abort, reason and events", () => {
    const controller = new AbortController();
    const signal = flagAware(controller.signal, new Int32Array(new SharedArrayBuffer(4)));
    let heard = 0;
    signal.addEventListener('abort', () => heard++);
    controller.abort(new Error('the batch failed'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('the batch failed');
    expect(heard).toBe(1);
    // Without a flag (a job with none), the signal itself.
    expect(flagAware(controller.signal, null)).toBe(controller.signal);
  });
});
