import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEnvironment } from '../../src/env/create-environment.js';
import { EnvironmentServer } from '../../src/env/env-server.js';
import {
  acceptKey,
  encodeFrame,
  encodeTextFrame,
  FrameError,
  FrameReader,
  OPCODE,
} from '../../src/env/websocket-frames.js';
import { utilityConceder } from '../../src/evaluation/multi-issue-baselines.js';
import { generateSuite } from '../../src/evaluation/suite.js';

// Raw bytes against the server's /ws, as a broken or hostile client would send them.

const servers: EnvironmentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(): Promise<{ server: EnvironmentServer; port: number }> {
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
    limits: { maxMessageBytes: 4096 },
  });
  servers.push(server);
  const url = await server.listen({ port: 0 });
  return { server, port: Number(new URL(url).port) };
}

/** Opens a raw WebSocket: the handshake by hand, then the frames the test writes; collects what comes back. */
async function rawSocket(
  port: number,
): Promise<{ socket: Socket; frames: () => { opcode: number; payload: Buffer }[]; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  const key = 'dGhlIHNhbXBsZSBub25jZQ==';
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const reader = new FrameReader({ maxPayload: 1 << 24, expectMasked: false });
  const received: { opcode: number; payload: Buffer }[] = [];
  let handshake = '';
  let upgraded = false;
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      if (!upgraded) {
        handshake += chunk.toString('latin1');
        const end = handshake.indexOf('\r\n\r\n');
        if (end < 0) return;
        expect(handshake).toContain(`Sec-WebSocket-Accept: ${acceptKey(key)}`);
        upgraded = true;
        const rest = Buffer.from(handshake.slice(end + 4), 'latin1');
        if (rest.length > 0) received.push(...reader.push(rest));
        resolve();
        return;
      }
      received.push(...reader.push(chunk));
    });
    socket.on('error', reject);
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, frames: () => received, closed };
}

const closeCode = (frame: { payload: Buffer } | undefined) => frame?.payload.readUInt16BE(0);

describe('the WebSocket at /ws', () => {
  it('refuses a frame announcing 2^63 bytes before buffering any (1009), and stays up', async () => {
    const { port } = await start();
    const { socket, frames, closed } = await rawSocket(port);
    const header = Buffer.alloc(14);
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(2n ** 63n - 1n, 2);
    socket.write(header);
    await closed;
    const close = frames().find((f) => f.opcode === OPCODE.close);
    expect(closeCode(close)).toBe(1009);
    const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
      active_sessions: number;
    };
    expect(health.active_sessions).toBe(0);
  });

  it('refuses an unmasked client frame (1002) and a binary message (1003)', async () => {
    const { port } = await start();
    const a = await rawSocket(port);
    a.socket.write(encodeFrame(OPCODE.text, Buffer.from('{"type":"state"}'), { mask: false }));
    await a.closed;
    expect(closeCode(a.frames().find((f) => f.opcode === OPCODE.close))).toBe(1002);
    const b = await rawSocket(port);
    b.socket.write(encodeFrame(OPCODE.binary, Buffer.from([1, 2, 3]), { mask: true }));
    await b.closed;
    expect(closeCode(b.frames().find((f) => f.opcode === OPCODE.close))).toBe(1003);
  });

  it('answers a ping with its pong and a fragmented message as one', async () => {
    const { port } = await start();
    const { socket, frames } = await rawSocket(port);
    socket.write(encodeFrame(OPCODE.ping, Buffer.from('hi'), { mask: true }));
    const message = Buffer.from('{"type":"reset","data":{"seed":1}}');
    socket.write(encodeFrame(OPCODE.text, message.subarray(0, 10), { mask: true, fin: false }));
    socket.write(encodeFrame(OPCODE.continuation, message.subarray(10), { mask: true }));
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

  it('a plain GET of /ws is answered 426, another path 404', async () => {
    const { port } = await start();
    expect((await fetch(`http://127.0.0.1:${port}/ws`)).status).toBe(426);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
  });
});

describe('FrameReader', () => {
  it('reads frames split at any byte, and refuses reserved bits', () => {
    const frame = encodeFrame(OPCODE.text, Buffer.from('x'.repeat(300)), { mask: true });
    const reader = new FrameReader({ maxPayload: 1024, expectMasked: true });
    const got = [];
    for (const byte of frame) got.push(...reader.push(Buffer.from([byte])));
    expect(got).toHaveLength(1);
    expect(got[0]?.payload.toString()).toBe('x'.repeat(300));
    const bad = Buffer.from(frame);
    bad[0] = (bad[0] as number) | 0x40;
    expect(() => new FrameReader({ maxPayload: 1024, expectMasked: true }).push(bad)).toThrow(FrameError);
  });

  it('reads back text frames written straight from a string, masked or not, at every length form', () => {
    // 125 bytes fits the 7-bit length, 3,557 the 16-bit one (a server's answer), 70,000 the 64-bit one;
    // multi-byte characters make the byte length differ from the string's.
    for (const text of ['é'.repeat(62), `{"a":"${'€'.repeat(1185)}"}`, 'z'.repeat(70_000)]) {
      for (const mask of [false, true]) {
        const frame = encodeTextFrame(text, { mask });
        expect(frame.equals(encodeFrame(OPCODE.text, Buffer.from(text), { mask: false }))).toBe(!mask);
        const frames = new FrameReader({ maxPayload: 1 << 20, expectMasked: mask }).push(frame);
        expect(frames).toHaveLength(1);
        expect(frames[0]?.opcode).toBe(OPCODE.text);
        expect(frames[0]?.payload.toString('utf8')).toBe(text);
      }
    }
  });
});
