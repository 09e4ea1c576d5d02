import { afterAll, beforeAll, expect } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';
import { fixtureModel } from '../onnx/fixture-model.js';

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

/**
 * A real `haggle serve` of the fixture ONNX model on loopback for the enclosing `describe`: started in
 * `beforeAll`, stopped in `afterAll` (which also checks that it exited 0). Read the returned getter
 * inside tests, once the server listens.
 */
export function serveFixtureModel(
  extraArguments: readonly string[] = [],
): () => { url: string; model: string } {
  const controller = new AbortController();
  let serving: Promise<number> | undefined;
  let server: { url: string; model: string } | undefined;
  beforeAll(async () => {
    const io = captureIo();
    serving = runCli(
      ['serve', '--backend', 'onnx', '--model', fixtureModel(1), '--port', '0', ...extraArguments],
      io,
      controller.signal,
    );
    server = await waitForServe(io);
  }, 120_000);
  afterAll(async () => {
    controller.abort();
    if (serving) expect(await serving).toBe(0);
  });
  return () => {
    if (!server) throw new Error('haggle serve is not listening yet: read it inside a test');
    return server;
  };
}
