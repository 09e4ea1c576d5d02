import { afterEach, describe, expect, it } from 'vitest';
import { createEnvironment } from '../../src/env/create-environment.js';
import { EnvironmentServer } from '../../src/env/env-server.js';
import { MAX_UNREAD_BYTES } from '../../src/env/websocket-connection.js';
import { generateSuite } from '../../src/evaluation/suite.js';
import { utilityConceder } from '../../src/multi-issue/multi-issue-baselines.js';
import { clientFrame, closePayload, OPCODE, rawWebSocket } from './raw-websocket.js';

// Raw bytes against the server's /ws, as a broken or hostile client would send them (the frames are
// built in test/env/raw-websocket.ts; the server's WebSocket is `ws`).

const servers: EnvironmentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(maxMessageBytes = 4096): Promise<{ server: EnvironmentServer; port: number }> {
  const suite = generateSuite({ seed: 1, scenarios: 2, seedsPerPair: 1 });
  const server = new EnvironmentServer({
    createEnvironment: () =>
      createEnvironment({
        env: 'multi-issue-seller',
        suite,
        opponent: utilityConceder(),
        opponentName: 'utility-conceder',
      }),
    name: 'multi-issue-seller',
    description: 'test',
    limits: { maxMessageBytes },
  });
  servers.push(server);
  const url = await server.listen({ port: 0 });
  return { server, port: Number(new URL(url).port) };
}

describe('the WebSocket at /ws', () => {
  it('refuses a frame announcing 2^63 bytes before buffering any (1009), and stays up', async () => {
    const { port } = await start();
    const client = await rawWebSocket(port);
    const header = Buffer.alloc(14);
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(2n ** 63n - 1n, 2);
    client.socket.write(header);
    await client.gone;
    expect(client.closeCode()).toBe(1009);
    const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
      active_sessions: number;
    };
    expect(health.active_sessions).toBe(0);
  });

  it('counts fragments against --max-message-bytes as they arrive (1009)', async () => {
    const { port } = await start();
    const client = await rawWebSocket(port);
    // Three 2,000-byte fragments of one message: the third takes it past 4,096 bytes.
    const part = Buffer.alloc(2000, 0x20);
    client.socket.write(clientFrame(OPCODE.text, part, { fin: false }));
    client.socket.write(clientFrame(OPCODE.continuation, part, { fin: false }));
    client.socket.write(clientFrame(OPCODE.continuation, part, { fin: false }));
    await client.gone;
    expect(client.closeCode()).toBe(1009);
  });

  it('refuses an unmasked client frame (1002), a binary message (1003) and close code 0 (1002)', async () => {
    const { port } = await start();
    const a = await rawWebSocket(port);
    a.socket.write(clientFrame(OPCODE.text, Buffer.from('{"type":"state"}'), { mask: false }));
    await a.gone;
    expect(a.closeCode()).toBe(1002);
    const b = await rawWebSocket(port);
    b.socket.write(clientFrame(OPCODE.binary, Buffer.from([1, 2, 3])));
    await b.gone;
    expect(b.closeCode()).toBe(1003);
    // RFC 6455 7.4: 0 is no close code; echoing it (as the hand-written framing did) is a protocol error.
    const c = await rawWebSocket(port);
    c.socket.write(clientFrame(OPCODE.close, closePayload(0)));
    await c.gone;
    expect(c.closeCode()).toBe(1002);
  });

  it('answers a ping with its pong and a fragmented message as one', async () => {
    const { port } = await start();
    const { socket, frames } = await rawWebSocket(port);
    socket.write(clientFrame(OPCODE.ping, Buffer.from('hi')));
    const message = Buffer.from('{"type":"reset","data":{"seed":1}}');
    socket.write(clientFrame(OPCODE.text, message.subarray(0, 10), { fin: false }));
    socket.write(clientFrame(OPCODE.continuation, Buffer.alloc(0), { fin: false }));
    socket.write(clientFrame(OPCODE.continuation, message.subarray(10)));
    await expect.poll(() => frames().length).toBeGreaterThanOrEqual(2);
    const [pong, answer] = frames();
    expect(pong?.opcode).toBe(OPCODE.pong);
    expect(pong?.payload.toString()).toBe('hi');
    expect(JSON.parse(answer?.payload.toString() ?? '{}')).toMatchObject({
      type: 'observation',
      data: { done: false },
    });
    socket.destroy();
  });

  it('declines permessage-deflate, and answers a plain GET of /ws 426, another path 404', async () => {
    const { port } = await start();
    const { request } = await import('node:http');
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request({
        port,
        host: '127.0.0.1',
        path: '/ws',
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits',
        },
      });
      req.on('upgrade', (response, socket) => {
        socket.destroy();
        resolve(response.headers);
      });
      req.on('error', reject);
      req.end();
    });
    expect(headers['sec-websocket-accept']).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(headers['sec-websocket-extensions']).toBeUndefined();
    expect((await fetch(`http://127.0.0.1:${port}/ws`)).status).toBe(426);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
  });

  it('closes a client that pings while its pongs wait unread (1008), counted as flooding', async () => {
    // A message limit far above what the pings add up to, so what closes the client is the unread
    // output, not the bytes it sent without a whole message.
    const { server, port } = await start(1024 * 1024 * 1024);
    const client = await rawWebSocket(port, '127.0.0.1', { read: false });
    const pings = Buffer.concat(
      Array.from({ length: 256 }, () => clientFrame(OPCODE.ping, Buffer.alloc(125))),
    );
    let sent = 0;
    while (!client.closed() && sent < 128 * 1024 * 1024) {
      if (client.socket.writableLength < 1024 * 1024) {
        client.socket.write(pings);
        sent += pings.length;
      }
      await new Promise((resolve) => setImmediate(resolve));
      if (server.stats.flooded > 0) break;
    }
    expect(server.stats.flooded).toBe(1);
    // More than the kernel's buffers and MAX_UNREAD_BYTES had to be sent before the server gave up.
    expect(sent).toBeGreaterThan(MAX_UNREAD_BYTES);
    client.socket.destroy();
  }, 60_000);
});
