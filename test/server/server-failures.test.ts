import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../src/index.js';
import { OpenAIServer, type ServerFailure } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';

// What the operator of a server learns when a request fails: the client of a 500 is told "internal
// server error" and no more, so `onFailure` (stderr in `haggle serve`) is the one place the cause is said.

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SERVER_KEY = 'serve-key-0123456789';

async function start(thrown: () => unknown) {
  const failures: ServerFailure[] = [];
  const backend = new MockLanguageBackend({
    modelId: 'm',
    responses: [
      () => {
        throw thrown();
      },
    ],
  });
  const server = new OpenAIServer({
    backend,
    apiKey: SERVER_KEY,
    onFailure: (failure) => {
      failures.push(failure);
    },
  });
  servers.push(server);
  const url = await server.listen();
  const response = await fetch(`${url}/chat/completions?trace=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_KEY}` },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error: { message: string } },
    failures,
  };
}

describe('OpenAIServer onFailure', () => {
  it('an unexpected error: the client gets a bare 500, the log gets the cause chain, redacted', async () => {
    const { status, body, failures } = await start(
      () =>
        new TypeError(`cannot write the cache for client ${SERVER_KEY}`, {
          cause: new Error('upstream said: Authorization: Bearer sk-live-abcdefghijkl'),
        }),
    );
    expect(status).toBe(500);
    expect(body.error.message).toBe('internal server error');
    expect(failures).toHaveLength(1);
    const failure = failures[0] as ServerFailure;
    expect(failure).toMatchObject({ status: 500, method: 'POST', path: '/v1/chat/completions' });
    expect(failure.message).toBe(
      'TypeError: cannot write the cache for client [redacted]; cause: Error: upstream said: Authorization: [redacted]',
    );
    expect(failure.error).toBeInstanceOf(TypeError);
  });

  it('a cause holding terminal escapes reaches the log as visible escapes, never raw', async () => {
    // A backend (or a library under it) may quote text it was given: `haggle serve` prints this line on
    // its operator's terminal, which would obey a raw ESC ] title, ESC [ 2 J or C1 CSI.
    const { status, failures } = await start(
      () => new Error('no grammar for key "\u001b]0;pwned\u0007\u001b[2J\u009b31m" (\u202e)'),
    );
    expect(status).toBe(500);
    const message = failures[0]?.message ?? '';
    expect(message).toBe('Error: no grammar for key "\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m" (\\u202e)');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is matched
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });

  it('a backend failure (502) is logged too; a client mistake (401) is not', async () => {
    const { status, failures } = await start(
      () => new BackendError({ message: 'the model server refused: token=abcd1234efgh', backend: 'mock' }),
    );
    expect(status).toBe(502);
    expect(failures.map((failure) => failure.status)).toEqual([502]);
    expect(failures[0]?.message).toMatch(/^BackendError: .*token=\[redacted\]/);
    expect(failures[0]?.message).not.toContain('abcd1234efgh');

    const url = servers[0]?.url as string;
    const refused = await fetch(`${url}/models`, { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(failures).toHaveLength(1);
  });

  it('a listener that throws does not change the answer', async () => {
    const backend = new MockLanguageBackend({ modelId: 'm', responses: [] });
    const server = new OpenAIServer({
      backend,
      onFailure: () => {
        throw new Error('the log is full');
      },
    });
    servers.push(server);
    const url = await server.listen();
    const response = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    // The mock's empty queue is a BackendError: answered 502 whatever the listener did.
    expect(response.status).toBe(502);
  });
});
