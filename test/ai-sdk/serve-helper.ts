import type { captureIo } from '../helpers/capture-io.js';

/** The URL and model name `haggle serve` prints once it listens. */
export async function waitForServe(
  io: ReturnType<typeof captureIo>,
): Promise<{ url: string; model: string }> {
  for (let i = 0; i < 1200; i++) {
    const match = /model "([^"]+)" at (http:\/\/\S+)/.exec(io.out());
    if (match?.[1] && match[2]) return { model: match[1], url: match[2] };
    if (io.err()) throw new Error(`haggle serve failed: ${io.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('haggle serve did not start');
}
