import type { Duplex } from 'node:stream';
import { encodeFrame, encodeTextFrame, FrameError, FrameReader, OPCODE } from './websocket-frames.js';

// One strict decoder for every message: invalid UTF-8 throws (close 1007) instead of becoming U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** What a `WebSocketConnection` reports: text messages, and its end (with why, for logs). */
export interface WebSocketConnectionHandlers {
  onText: (text: string) => void;
  onClose: (info: { code: number; reason: string }) => void;
}

/**
 * haggle's choice: bytes sent but not yet taken by the peer above which the connection stops reading
 * from it until they drain. A peer that sends without reading the answers then fills its own TCP
 * window, not this process's memory.
 */
export const MAX_UNREAD_BYTES = 256 * 1024;
/** haggle's choice: how long a closed connection waits for its peer to take the close before it is dropped. */
const CLOSE_LINGER_MS = 5_000;

/**
 * One open WebSocket over a socket whose handshake is done: assembles fragmented messages, answers
 * pings and closes, bounds a message's size, and sends text. Binary messages are refused (1003):
 * OpenEnv's protocol is JSON text.
 */
export class WebSocketConnection {
  private readonly reader: FrameReader;
  private fragments: Buffer[] = [];
  private fragmentBytes = 0;
  private closed = false;
  private readingPaused = false;
  private readonly mask: boolean;

  constructor(
    private readonly socket: Duplex,
    private readonly options: { side: 'server' | 'client'; maxMessageBytes: number },
    private readonly handlers: WebSocketConnectionHandlers,
    head?: Buffer,
  ) {
    this.mask = options.side === 'client';
    this.reader = new FrameReader({
      maxPayload: options.maxMessageBytes,
      expectMasked: options.side === 'server',
    });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.finish(1006, 'the connection dropped'));
    // The HTTP server's sockets are half-open: a peer that hangs up sends only an end.
    socket.on('end', () => {
      socket.end();
      this.finish(1006, 'the connection dropped');
    });
    socket.on('error', () => this.finish(1006, 'the connection failed'));
    if (head && head.length > 0) this.receive(head);
  }

  /** Whether the connection can still send. */
  get open(): boolean {
    return !this.closed;
  }

  /** Sends one text message; past `MAX_UNREAD_BYTES` not yet taken by the peer, reading pauses until they drain. */
  sendText(text: string): void {
    if (this.closed) return;
    const flushed = this.socket.write(encodeTextFrame(text, { mask: this.mask }));
    if (flushed || this.readingPaused || this.socket.writableLength <= MAX_UNREAD_BYTES) return;
    this.readingPaused = true;
    this.socket.pause();
    this.socket.once('drain', () => {
      this.readingPaused = false;
      this.socket.resume();
    });
  }

  /** Starts the closing handshake and ends the socket. */
  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.socket.write(encodeFrame(OPCODE.close, payload.subarray(0, 125), { mask: this.mask }));
    this.socket.end();
    // A peer that does not read would keep the socket and its unsent bytes forever.
    setTimeout(() => this.socket.destroy(), CLOSE_LINGER_MS).unref();
    this.finish(code, reason);
  }

  /** Drops the connection at once (a peer that stopped answering). */
  destroy(): void {
    this.socket.destroy();
    this.finish(1006, 'destroyed');
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    let frames: ReturnType<FrameReader['push']>;
    try {
      frames = this.reader.push(chunk);
    } catch (error) {
      const frameError = error as FrameError;
      this.close(frameError instanceof FrameError ? frameError.closeCode : 1002, frameError.message);
      return;
    }
    for (const frame of frames) {
      if (this.closed) return;
      switch (frame.opcode) {
        case OPCODE.ping:
          this.socket.write(encodeFrame(OPCODE.pong, frame.payload, { mask: this.mask }));
          break;
        case OPCODE.pong:
          break;
        case OPCODE.close: {
          const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
          this.close(code === 1005 ? 1000 : code, '');
          break;
        }
        case OPCODE.text:
        case OPCODE.continuation: {
          if (frame.opcode === OPCODE.text && this.fragments.length > 0) {
            this.close(1002, 'a new message began before the last one ended');
            return;
          }
          if (frame.opcode === OPCODE.continuation && this.fragments.length === 0) {
            this.close(1002, 'a continuation frame without a message');
            return;
          }
          this.fragmentBytes += frame.payload.length;
          if (this.fragmentBytes > this.options.maxMessageBytes) {
            this.close(1009, `a message over ${this.options.maxMessageBytes} bytes`);
            return;
          }
          this.fragments.push(frame.payload);
          if (frame.fin) {
            // Nearly every message is one frame: its payload is the message, no copy.
            const message = this.fragments.length === 1 ? frame.payload : Buffer.concat(this.fragments);
            this.fragments.length = 0;
            this.fragmentBytes = 0;
            let text: string;
            try {
              text = UTF8.decode(message);
            } catch {
              this.close(1007, 'a text message that is not UTF-8');
              return;
            }
            this.handlers.onText(text);
          }
          break;
        }
        default:
          this.close(1003, 'only text messages are spoken here (OpenEnv sends JSON text)');
          return;
      }
    }
  }

  private finish(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers.onClose({ code, reason });
  }
}
