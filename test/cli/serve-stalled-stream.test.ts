import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { health, postJson, type ServeChild, spawnServe } from '../../scripts/abuse/serve-child.js';
import { fixtureModel } from '../onnx/fixture-model.js';

// A client that opens a stream and never reads it: once the socket's buffers are full (about 4 MB on
// loopback, some 14 s of the fixture model's 16 samples), every write waits for a drain that never
// comes. The request's deadline must still free its admission slot, or a handful of such clients
// (each holding a connection open, costing them nothing) lock everyone else out with 429s for ever.
// The server is a real child process (CLI, fixture model) under `prlimit --data` and a kill timer.

/** haggle's choice: twice the time the fixture model takes to fill the loopback buffers on this machine. */
const DEADLINE_MS = 30_000;
const DATA_CEILING = 2 * 1024 ** 3;

let server: ServeChild;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await spawnServe({
    model: fixtureModel(1),
    args: ['--max-tokens', '4000', '--request-timeout', String(DEADLINE_MS), '--max-queue', '1'],
    dataLimitBytes: DATA_CEILING,
    killAfterMs: 110_000,
  });
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await server?.stop();
});

/** Sends a streaming request of 16 long samples on a raw socket and reads nothing of its answer. */
function stalledStream(): Socket {
  const { port } = new URL(server.url);
  const body = JSON.stringify({
    model: server.model,
    stream: true,
    n: 16,
    max_tokens: 4000,
    messages: [{ role: 'user', content: 'Your next turn?' }],
  });
  const socket = connect(Number(port), '127.0.0.1');
  socket.pause();
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  sockets.push(socket);
  return socket;
}

describe('haggle serve and a streaming client that stops reading (a child process under prlimit)', () => {
  it('frees the slot at the deadline and cuts the stalled stream off', async () => {
    const stalled = stalledStream();
    const small = { model: server.model, max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] };
    // While the stalled stream is within its deadline it holds the only slot.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await postJson(`${server.url}/chat/completions`, small, 10_000)).status).toBe(429);

    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS));
    const statuses: number[] = [];
    for (let i = 0; i < 15 && statuses.at(-1) !== 200; i++) {
      statuses.push((await postJson(`${server.url}/chat/completions`, small, 10_000)).status);
      if (statuses.at(-1) !== 200) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(statuses.at(-1), `statuses after the deadline: ${statuses.join(', ')}`).toBe(200);
    expect(await health(server.url, 10_000)).toBe(200);

    // Reading at last, the client finds the megabytes the server had sent, then the end: no hang.
    let text = '';
    const ended = new Promise<void>((resolve) => {
      stalled.on('data', (chunk: Buffer) => {
        text = (text + chunk.toString('latin1')).slice(-4096);
      });
      stalled.once('close', () => resolve());
    });
    stalled.resume();
    await ended;
    expect(text).not.toContain('[DONE]');
    expect(server.stderr()).toMatch(/504 POST \/v1\/chat\/completions: .*request timeout of 30000 ms/);
    expect(server.alive()).toBe(true);
  }, 100_000);
});
