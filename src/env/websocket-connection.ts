import type { Duplex } from 'node:stream';
import type { ServerOptions, WebSocket } from 'ws';

// The framing (RFC 6455) is `ws`'s, the WebSocket library the Node ecosystem runs on: it assembles
// fragments, bounds a message across them (`maxPayload`), validates close codes and UTF-8, and masks.
// What is haggle's here is the policy above the frames: what one client may make this process hold.

/**
 * haggle's choice: bytes of answers (and pongs) written but not yet taken by the peer above which the
 * connection stops reading from it until they drain. A peer that sends without reading then fills its
 * own TCP window, not this process's memory.
 */
export const MAX_UNREAD_BYTES = 256 * 1024;

/**
 * haggle's choice: fragments one message may come in (empty ones included), past which the connection
 * is closed 1008. OpenEnv's clients (and browsers, and `ws`) send a message as one frame; 1,024 still
 * lets a client cut a 1 MiB message into 1 KiB frames. `ws` keeps nothing for an empty fragment, so
 * this bounds work per message, not memory: memory is bounded by `WIRE_SLACK_BYTES`.
 */
export const MAX_FRAGMENTS_PER_MESSAGE = 1024;

/**
 * haggle's choice: bytes a client may send beyond `maxMessageBytes` between two complete messages
 * (frame headers, and pings or pongs between the fragments of a message), past which it is flooding.
 * Why a bound on the wire and not only on the payload: a fragment's payload is kept as a view of the
 * socket chunk it arrived in, so 30,000 one-byte fragments, each padded to its own 64 KiB chunk with
 * pongs, held 1.9 GB for 30 KB of payload. With this bound what a message in assembly holds is at
 * most what was received for it: `maxMessageBytes` + 128 KiB (one 64 KiB socket chunk of slack
 * either side, where a message begins or ends inside a chunk).
 */
export const WIRE_SLACK_BYTES = 128 * 1024;

/**
 * haggle's choice: socket chunks `ws` may hold for one frame not yet whole. A 1 MiB frame arrives in
 * 16 chunks of 64 KiB, or about 720 TCP segments on the slowest path; a peer that trickles a frame
 * byte by byte would otherwise cost a buffer object per byte.
 */
export const MAX_BUFFERED_CHUNKS = 4096;

/** haggle's choice: how long a closed connection waits for its peer to take the close before it is dropped. */
export const CLOSE_LINGER_MS = 5_000;

/**
 * The options of `ws`'s server that carry these bounds. `closeTimeout` is in `ws` 8.23 (its types lag).
 * permessage-deflate is declined (haggle's choice): a compressed message is bounded only after it is
 * inflated, inflating costs CPU per byte a client chooses, and each deflate context holds about 300 KB
 * of zlib state per connection; OpenEnv's answers are a few KB of JSON on loopback or a LAN, where
 * compression buys nothing. `autoPong` is off: pings are answered here, under `MAX_UNREAD_BYTES`.
 */
export function webSocketServerOptions(maxMessageBytes: number): ServerOptions & { closeTimeout: number } {
  return {
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    autoPong: false,
    maxPayload: maxMessageBytes,
    maxFragments: MAX_FRAGMENTS_PER_MESSAGE,
    maxBufferedChunks: MAX_BUFFERED_CHUNKS,
    closeTimeout: CLOSE_LINGER_MS,
  };
}

/** What a `WebSocketConnection` reports: text messages, a flood it closed, and its end. */
export interface WebSocketConnectionHandlers {
  /** One whole text message, with its size in bytes (count it back with `answered`). */
  onText: (text: string, bytes: number) => void;
  /** The connection was closed for flooding (1008); reported once. */
  onFlood: (reason: string) => void;
  onClose: () => void;
}

/**
 * One client's WebSocket (a `ws` socket over the upgraded TCP socket), with what it may cost bounded:
 * its unread output by `MAX_UNREAD_BYTES` (reading pauses past it), its unanswered input by
 * `maxMessageBytes` (reading pauses past it), a message in assembly by `maxMessageBytes` +
 * `WIRE_SLACK_BYTES`, pings answered only while its output is under the bound (past it the client is
 * flooding: closed 1008). Binary messages are refused (1003): OpenEnv's protocol is JSON text.
 */
export class WebSocketConnection {
  private closed = false;
  private flooded = false;
  /** Bytes received since the last whole message (frame headers and control frames included). */
  private wireBytes = 0;
  /** Bytes of messages handed to `onText` and not yet `answered`. */
  private unansweredBytes = 0;

  constructor(
    private readonly socket: WebSocket,
    raw: Duplex,
    private readonly options: { maxMessageBytes: number },
    private readonly handlers: WebSocketConnectionHandlers,
  ) {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      this.wireBytes = 0;
      if (this.closed) return;
      if (isBinary) {
        this.close(1003, 'only text messages are spoken here (OpenEnv sends JSON text)');
        return;
      }
      // `ws` has checked the UTF-8 (1007 otherwise); a single-frame message is a view of its socket
      // chunk, and the string is a copy, so nothing holds the chunk past this line.
      this.unansweredBytes += data.length;
      this.refreshReading();
      handlers.onText(data.toString('utf8'), data.length);
    });
    socket.on('ping', (data: Buffer) => {
      if (this.closed) return;
      if (socket.bufferedAmount > MAX_UNREAD_BYTES) {
        this.closeForFlooding(
          `pings while ${MAX_UNREAD_BYTES} bytes wait unread: read the answers (and pongs) before pinging again`,
        );
        return;
      }
      socket.pong(data);
    });
    // `ws` reports a peer's protocol error (a bad close code such as 0, a message over maxPayload, too
    // many fragments, invalid UTF-8) here once it has sent the close with the code RFC 6455 names (1002,
    // 1009, 1008, 1007) and stopped parsing; without a listener the error would end the process.
    socket.on('error', (error: Error & { code?: string }) => {
      // Too many fragments in one message, or too many chunks for one frame: a flood, counted as one.
      if (error.code === 'WS_ERR_TOO_MANY_BUFFERED_PARTS' && !this.closed && !this.flooded) {
        this.flooded = true;
        this.finish();
        this.handlers.onFlood(error.message);
        return;
      }
      this.finish();
    });
    socket.on('close', () => this.finish());
    // Counted after `ws` has parsed the chunk (its listener came first), so a message that ends in this
    // chunk has reset the count already: the count is at most one chunk over what the current message took.
    raw.on('data', (chunk: Buffer) => {
      this.wireBytes += chunk.length;
      if (!this.closed && this.wireBytes > options.maxMessageBytes + WIRE_SLACK_BYTES)
        this.closeForFlooding(
          `more than ${options.maxMessageBytes + WIRE_SLACK_BYTES} bytes without a whole message (fragments or control frames)`,
        );
    });
    raw.on('drain', () => this.refreshReading());
  }

  /** Whether the connection can still send. */
  get open(): boolean {
    return !this.closed;
  }

  /** Sends one text message; past `MAX_UNREAD_BYTES` not yet taken by the peer, reading pauses until they drain. */
  sendText(text: string): void {
    if (this.closed) return;
    // As UTF-8 bytes, not the string: `ws` then writes its header and these bytes in one writev of
    // buffers, where a string chunk costs Node a second encoding pass (a step's answer is ~3.5 KB).
    this.socket.send(Buffer.from(text, 'utf8'), { binary: false });
    this.refreshReading();
  }

  /** A message handed to `onText` has been answered: its bytes no longer count against reading. */
  answered(bytes: number): void {
    this.unansweredBytes -= bytes;
    this.refreshReading();
  }

  /** Starts the closing handshake; a peer that does not finish it is dropped after `CLOSE_LINGER_MS`. */
  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    // A close frame carries at most 123 bytes of reason; these reasons are ASCII.
    this.socket.close(code, reason.slice(0, 123));
    this.finish();
  }

  /**
   * Closes 1008 and stops reading: what a flooding client sends next is left in its TCP window, and
   * `ws` drops the socket after `CLOSE_LINGER_MS` (the peer's close can no longer be read).
   */
  closeForFlooding(reason: string): void {
    if (this.closed || this.flooded) return;
    this.flooded = true;
    this.socket.pause();
    this.close(1008, reason);
    this.handlers.onFlood(reason);
  }

  /** Reads while both the unread output and the unanswered input are within their bounds. */
  private refreshReading(): void {
    if (this.closed) return;
    const hold =
      this.socket.bufferedAmount > MAX_UNREAD_BYTES || this.unansweredBytes > this.options.maxMessageBytes;
    if (hold && !this.socket.isPaused) this.socket.pause();
    else if (!hold && this.socket.isPaused) this.socket.resume();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers.onClose();
  }
}
