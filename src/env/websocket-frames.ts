import { createHash, randomBytes, randomFillSync } from 'node:crypto';

// RFC 6455. Written here because Node 20 has no WebSocket server (nor a global client) and haggle adds
// no dependency for the few frame types OpenEnv's clients send: text, close, ping and pong.

/** Frame opcodes haggle speaks. */
export const OPCODE = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const;

const HANDSHAKE_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The `Sec-WebSocket-Accept` answer to a client's `Sec-WebSocket-Key`. */
export function acceptKey(key: string): string {
  return createHash('sha1')
    .update(key + HANDSHAKE_GUID)
    .digest('base64');
}

/** A fresh `Sec-WebSocket-Key` for a client's handshake. */
export function newClientKey(): string {
  return randomBytes(16).toString('base64');
}

/** One frame off the wire. */
export interface Frame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** Why the peer's bytes are no acceptable WebSocket stream: the close code to answer with, and why. */
export class FrameError extends Error {
  constructor(
    readonly closeCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'FrameError';
  }
}

// Masking keys come from the OS's random source, 1,024 at a time: one call per frame cost 2% of a step.
const maskPool = Buffer.alloc(4096);
let maskOffset = maskPool.length;
function nextMaskKey(): Buffer {
  if (maskOffset >= maskPool.length) {
    randomFillSync(maskPool);
    maskOffset = 0;
  }
  const key = maskPool.subarray(maskOffset, maskOffset + 4);
  maskOffset += 4;
  return key;
}

/** Encodes one frame; clients mask their frames (RFC 6455 5.3), servers never do. */
export function encodeFrame(
  opcode: number,
  payload: Buffer,
  options: { mask: boolean; fin?: boolean },
): Buffer {
  const length = payload.length;
  const lengthBytes = length < 126 ? 0 : length < 0x10000 ? 2 : 8;
  const maskBytes = options.mask ? 4 : 0;
  const frame = Buffer.allocUnsafe(2 + lengthBytes + maskBytes + length);
  frame[0] = ((options.fin ?? true) ? 0x80 : 0) | opcode;
  const maskBit = options.mask ? 0x80 : 0;
  if (lengthBytes === 0) frame[1] = maskBit | length;
  else if (lengthBytes === 2) {
    frame[1] = maskBit | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = maskBit | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  const start = 2 + lengthBytes + maskBytes;
  if (options.mask) {
    const key = nextMaskKey();
    key.copy(frame, 2 + lengthBytes);
    for (let i = 0; i < length; i++) frame[start + i] = (payload[i] as number) ^ (key[i & 3] as number);
  } else {
    payload.copy(frame, start);
  }
  return frame;
}

/**
 * Reads frames from a byte stream as it arrives. `maxPayload` bounds one frame before its bytes are
 * buffered (a header announcing 2^63 bytes is refused at once, close code 1009).
 */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly options: { maxPayload: number; expectMasked: boolean }) {}

  /** Adds bytes; returns the frames now complete. Throws `FrameError` on a protocol violation. */
  push(chunk: Buffer): Frame[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: Frame[] = [];
    for (;;) {
      const frame = this.readOne();
      if (!frame) return frames;
      frames.push(frame);
    }
  }

  private readOne(): Frame | undefined {
    const data = this.buffered;
    if (data.length < 2) return undefined;
    const first = data[0] as number;
    const second = data[1] as number;
    if ((first & 0x70) !== 0) throw new FrameError(1002, 'reserved bits set (no extension was negotiated)');
    const masked = (second & 0x80) !== 0;
    if (masked !== this.options.expectMasked)
      throw new FrameError(
        1002,
        masked ? 'a server must not mask its frames' : 'a client must mask its frames',
      );
    let length = second & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (data.length < 4) return undefined;
      length = data.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (data.length < 10) return undefined;
      const big = data.readBigUInt64BE(2);
      if (big > BigInt(this.options.maxPayload))
        throw new FrameError(1009, `a frame of ${big} bytes is over the limit of ${this.options.maxPayload}`);
      length = Number(big);
      offset = 10;
    }
    if (length > this.options.maxPayload)
      throw new FrameError(
        1009,
        `a frame of ${length} bytes is over the limit of ${this.options.maxPayload}`,
      );
    const opcode = first & 0x0f;
    if (opcode >= 0x8 && (length > 125 || (first & 0x80) === 0))
      throw new FrameError(1002, 'a control frame must be whole and at most 125 bytes');
    const maskOffset = offset;
    if (masked) offset += 4;
    if (data.length < offset + length) return undefined;
    const payload = Buffer.from(data.subarray(offset, offset + length));
    if (masked) {
      for (let i = 0; i < length; i++)
        payload[i] = (payload[i] as number) ^ (data[maskOffset + (i & 3)] as number);
    }
    this.buffered = data.subarray(offset + length);
    return { fin: (first & 0x80) !== 0, opcode, payload };
  }
}
