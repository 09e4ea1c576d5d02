import { describe, expect, it } from 'vitest';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';

/** Whether anything accepts connections at `url`'s port. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url.replace(/\/v1$/, '/health'), { signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}

describe('OpenAIServer: close and Symbol.asyncDispose', () => {
  it('`await using` closes the server at the end of the block, and the backend stays usable', async () => {
    const backend = new MockLanguageBackend({ responses: ['{}'] });
    let url = '';
    {
      await using server = new OpenAIServer({ backend });
      url = await server.listen();
      expect(await answers(url)).toBe(true);
    }
    expect(await answers(url)).toBe(false);
    // The server does not own the backend: closing it left the backend as it was.
    const result = await backend.doGenerate({ prompt: { messages: [{ role: 'user', content: 'hi' }] } });
    expect(result.choices[0]?.text).toBe('{}');
  });

  it('is idempotent: close, dispose and close again, concurrently and after, all resolve once closed', async () => {
    const server = new OpenAIServer({ backend: new MockLanguageBackend({ responses: [] }) });
    const url = await server.listen();
    // A keep-alive connection left open would hold a plain server.close() forever.
    const held = await fetch(url.replace(/\/v1$/, '/health'), { keepalive: true });
    expect(held.status).toBe(200);
    const first = server.close();
    const second = server[Symbol.asyncDispose]();
    expect(server.close()).toBe(first);
    await Promise.all([first, second]);
    expect(await answers(url)).toBe(false);
    await server.close();
    await server[Symbol.asyncDispose]();
    expect(await answers(url)).toBe(false);
  });

  it('closing a server that never listened resolves', async () => {
    const server = new OpenAIServer({ backend: new MockLanguageBackend({ responses: [] }) });
    await server.close();
    await server[Symbol.asyncDispose]();
    expect(server.url).toBeUndefined();
  });
});
