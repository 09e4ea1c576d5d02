import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * The attacker's side of a WebSocket, written for the tests only: a handshake and frames built byte by
 * byte on a plain TCP socket (node:net), so a test can send what no well-behaved library would (millions
 * of empty fragments, pings to a client that never reads, close code 0). The server under test is `ws`.
 */

export const OPCODE = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const;

/** One frame as a client sends it: masked (RFC 6455 5.3) unless `mask: false`, FIN set unless `fin: false`. */
export function clientFrame(
  opcode: number,
  payload: Buffer = Buffer.alloc(0),
  options: { fin?: boolean; mask?: boolean } = {},
): Buffer {
  const mask = options.mask ?? true;
  const lengthBytes = payload.length < 126 ? 0 : payload.length < 0x10000 ? 2 : 8;
  const header = Buffer.alloc(2 + lengthBytes + (mask ? 4 : 0));
  header[0] = ((options.fin ?? true) ? 0x80 : 0) | opcode;
  const maskBit = mask ? 0x80 : 0;
  if (lengthBytes === 0) header[1] = maskBit | payload.length;
  else if (lengthBytes === 2) {
    header[1] = maskBit | 126;
    header.writeUInt16BE(payload.length, 2);
  } else {
    header[1] = maskBit | 127;
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  if (!mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  key.copy(header, 2 + lengthBytes);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i] = (masked[i] as number) ^ (key[i % 4] as number);
  return Buffer.concat([header, masked]);
}

/** A close frame's payload: the code, then the reason. */
export function closePayload(code: number, reason = ''): Buffer {
  const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
  payload.writeUInt16BE(code, 0);
  payload.write(reason, 2);
  return payload;
}

/** A server's frames (unmasked) read from a byte stream, as far as they are whole. */
export function readServerFrames(bytes: Buffer): { opcode: number; fin: boolean; payload: Buffer }[] {
  const frames: { opcode: number; fin: boolean; payload: Buffer }[] = [];
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    let length = (bytes[offset + 1] as number) & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      if (start + 2 > bytes.length) break;
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > bytes.length) break;
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > bytes.length) break;
    const first = bytes[offset] as number;
    frames.push({
      opcode: first & 0x0f,
      fin: (first & 0x80) !== 0,
      payload: bytes.subarray(start, start + length),
    });
    offset = start + length;
  }
  return frames;
}

export interface RawWebSocket {
  socket: Socket;
  /** Whether the server has closed or dropped the connection. */
  closed: () => boolean;
  /** Resolves when the connection is gone. */
  gone: Promise<void>;
  /** The server's frames received so far (empty for a client that does not read). */
  frames: () => { opcode: number; fin: boolean; payload: Buffer }[];
  /** The code of the server's close frame, if one was read. */
  closeCode: () => number | undefined;
}

/**
 * Opens `/ws` on `host:port` by hand. With `read: false` the socket is paused before it connects and
 * never reads a byte (not even the handshake's answer): a client that never reads.
 */
export async function rawWebSocket(
  port: number,
  host = '127.0.0.1',
  options: { read?: boolean } = {},
): Promise<RawWebSocket> {
  const read = options.read ?? true;
  const socket = connect(port, host);
  if (!read) socket.pause();
  let closed = false;
  let received = Buffer.alloc(0);
  let upgraded = false;
  const gone = new Promise<void>((resolve) => {
    socket.on('close', () => {
      closed = true;
      resolve();
    });
  });
  // A write to a connection the server has dropped fails with EPIPE or ECONNRESET: that is its end.
  socket.on('error', () => {
    closed = true;
  });
  socket.on('end', () => socket.end());
  let answeredClose = false;
  if (read)
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!upgraded) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        upgraded = true;
        received = received.subarray(end + 4);
      }
      // A reading client finishes the closing handshake, as RFC 6455 5.5.1 asks.
      if (!answeredClose && readServerFrames(received).some((frame) => frame.opcode === OPCODE.close)) {
        answeredClose = true;
        if (!socket.destroyed) socket.write(clientFrame(OPCODE.close, closePayload(1000)));
      }
    });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  if (read) {
    for (let i = 0; i < 500 && !upgraded && !closed; i++) await new Promise((r) => setTimeout(r, 10));
    if (!upgraded) throw new Error('no handshake answer from the server in 5 s');
  }
  const frames = () => (upgraded ? readServerFrames(received) : []);
  return {
    socket,
    closed: () => closed,
    gone,
    frames,
    closeCode: () => {
      const close = frames().find((frame) => frame.opcode === OPCODE.close);
      return close && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : undefined;
    },
  };
}
