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
  const { frame, start } = frameWithHeader(opcode, payload.length, options);
  payload.copy(frame, start);
  if (options.mask) maskInPlace(frame, start);
  return frame;
}

/**
 * Encodes one text message as a single frame, its UTF-8 written straight into the frame: a server's
 * answer is ~3.5 KB, and `Buffer.from(text)` then a copy into the frame cost twice what one write does.
 */
export function encodeTextFrame(text: string, options: { mask: boolean }): Buffer {
  const { frame, start } = frameWithHeader(OPCODE.text, Buffer.byteLength(text, 'utf8'), options);
  frame.write(text, start, 'utf8');
  if (options.mask) maskInPlace(frame, start);
  return frame;
}

/** A frame's buffer with its header written (and a masking key when masked); the payload goes at `start`. */
function frameWithHeader(
  opcode: number,
  length: number,
  options: { mask: boolean; fin?: boolean },
): { frame: Buffer; start: number } {
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
  if (options.mask) nextMaskKey().copy(frame, 2 + lengthBytes);
  return { frame, start: 2 + lengthBytes + maskBytes };
}

/** XORs `bytes[start..]` with the 4-byte key just before `start` (masking and unmasking are the same). */
function maskInPlace(bytes: Buffer, start: number, end = bytes.length): void {
  const k0 = bytes[start - 4] as number;
  const k1 = bytes[start - 3] as number;
  const k2 = bytes[start - 2] as number;
  const k3 = bytes[start - 1] as number;
  let i = start;
  for (; i + 3 < end; i += 4) {
    bytes[i] = (bytes[i] as number) ^ k0;
    bytes[i + 1] = (bytes[i + 1] as number) ^ k1;
    bytes[i + 2] = (bytes[i + 2] as number) ^ k2;
    bytes[i + 3] = (bytes[i + 3] as number) ^ k3;
  }
  const key = [k0, k1, k2, k3];
  for (let j = 0; i < end; i++, j++) bytes[i] = (bytes[i] as number) ^ (key[j] as number);
}

/**
 * Reads frames from a byte stream as it arrives. `maxPayload` bounds one frame before its bytes are
 * buffered (a header announcing 2^63 bytes is refused at once, close code 1009).
 */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly options: { maxPayload: number; expectMasked: boolean }) {}

  /**
   * Adds bytes; returns the frames now complete, their payloads views of `chunk` (unmasked in place:
   * the reader takes the chunk over). Throws `FrameError` on a protocol violation.
   */
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
    if (masked) offset += 4;
    if (data.length < offset + length) return undefined;
    // The payload is a view of the received bytes, unmasked where it lies: each chunk a socket reads is
    // a fresh buffer that nothing else holds, and a frame's bytes are read once.
    if (masked) maskInPlace(data, offset, offset + length);
    const payload = data.subarray(offset, offset + length);
    this.buffered = data.subarray(offset + length);
    return { fin: (first & 0x80) !== 0, opcode, payload };
  }
}
