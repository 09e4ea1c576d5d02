import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { browserOrigin } from '../../../src/backends/openai/cross-origin.js';
import {
  CrossOriginRequestError,
  OpenAICompatibleBackend,
  RemoteConnectionError,
} from '../../../src/index.js';
import { FAST, turnRequest } from './support.js';

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The browser side (a page on another origin, a refused preflight) runs in headless Chromium:
// test/examples/web-suggest-reply.test.ts. Here: outside a browser nothing is taken for CORS.
describe('cross-origin failures outside a browser', () => {
  it('Node has no page origin', () => {
    expect(browserOrigin()).toBeUndefined();
  });

  for (const transport of ['node:http', 'fetch'] as const) {
    it(`a refused connection over ${transport} stays a retried RemoteConnectionError, not a CORS one`, async () => {
      const port = await closedPort();
      const backend = new OpenAICompatibleBackend({
        baseURL: `http://127.0.0.1:${port}/v1`,
        model: 'm',
        ...FAST,
        retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 },
        ...(transport === 'fetch'
          ? { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, init) }
          : {}),
      });
      const errors = await Promise.all([
        backend.doGenerate(turnRequest()).catch((e: unknown) => e),
        (async () => {
          for await (const _part of backend.doStream(turnRequest())) {
            // nothing arrives
          }
        })().catch((e: unknown) => e),
      ]);
      for (const error of errors) {
        expect(error).toBeInstanceOf(RemoteConnectionError);
        expect(error).not.toBeInstanceOf(CrossOriginRequestError);
        expect((error as RemoteConnectionError).attempts).toBe(3);
        expect((error as Error).message).not.toContain('CORS');
      }
    });
  }
});
