/**
 * Settles with `work`, or rejects as soon as the signal fires, even if whatever produces `work` ignores
 * the signal. `abortError` turns the signal's reason into the error callers see.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  abortError: (reason: unknown) => unknown = (reason) => reason,
): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {}); // its late failure has no one left to tell
    return Promise.reject(abortError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
