/**
 * The errors of the lowest layer, and `HaggleError`, the base class of every error haggle throws on
 * purpose (users import it from `haggle`, through contract/).
 */

// Markers rather than `instanceof` alone: a user's app can hold two copies of `haggle` (an ESM and a
// CJS build, or two versions), and `instanceof` fails across copies. Each class names its own marker
// (a string, so minifiers cannot rename it), and every instance carries the markers of its class and
// of each class above it, so `RateLimitError.isInstance(e)` is true for rate limits only and
// `BackendError.isInstance(e)` for every backend failure, as the AI SDK's per-class markers are.
const HAGGLE_ERROR_MARKER = 'haggle.error';

type ErrorClass = abstract new (...args: never[]) => HaggleError;

/** Base class of every error `haggle` throws on purpose. */
export class HaggleError extends Error {
  /**
   * The name of this class's `Symbol.for` marker. Every subclass declares its own (a test checks it),
   * since an inherited one would make its `isInstance` answer for the parent class.
   */
  static readonly marker: string = HAGGLE_ERROR_MARKER;
  /** A stable machine-readable code, e.g. `invalid-input`. */
  readonly code: string;

  constructor({ code, message, cause }: { code: string; message: string; cause?: unknown }) {
    // An absent cause (a subclass passing on `cause: undefined`) leaves no `cause` property behind.
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'HaggleError';
    this.code = code;
    // new.target is the class constructed; its chain up to HaggleError gives every marker.
    for (let type: unknown = new.target; typeof type === 'function'; type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type, 'marker')) {
        Object.defineProperty(this, Symbol.for((type as unknown as { marker: string }).marker), {
          value: true,
        });
      }
      if (type === HaggleError) break;
    }
  }

  /**
   * True when `error` is an instance of the class this is called on (or of a subclass), whichever copy
   * of the package created it: `RateLimitError.isInstance(e)` narrows `e` to `RateLimitError`.
   */
  static isInstance<T extends ErrorClass>(this: T, error: unknown): error is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: the class it is called on decides the marker
    const marker = (this as unknown as { marker: string }).marker;
    return typeof error === 'object' && error !== null && Symbol.for(marker) in error;
  }
}

/** A file (or stream) holds more than the ceiling allows. */
export class InputTooLargeError extends HaggleError {
  static override readonly marker: string = 'haggle.error.InputTooLargeError';
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super({
      code: 'input-too-large',
      message: `it is larger than the ${formatBytes(limitBytes)} limit for inputs; pass a smaller file, or raise the limit with HAGGLE_MAX_INPUT_MIB`,
    });
    this.name = 'InputTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/** A line of a line file is longer than the ceiling allows. */
export class LineTooLongError extends HaggleError {
  static override readonly marker: string = 'haggle.error.LineTooLongError';
  readonly lineNumber: number;
  readonly limitBytes: number;

  constructor({ lineNumber, limitBytes }: { lineNumber: number; limitBytes: number }) {
    super({
      code: 'line-too-long',
      message: `line ${lineNumber} is longer than the ${formatBytes(limitBytes)} limit for a line; is it a haggle JSONL file? (raise the limit with HAGGLE_MAX_LINE_MIB)`,
    });
    this.name = 'LineTooLongError';
    this.lineNumber = lineNumber;
    this.limitBytes = limitBytes;
  }
}

/**
 * Thrown by a transport when a successful response is longer than `maxResponseBytes` (said so by its
 * `content-length`, or found while reading); the reading stopped there and the connection was closed.
 * The attempt turns it into a `ResponseTooLargeError`.
 */
export class ResponseOverLimitError extends HaggleError {
  static override readonly marker: string = 'haggle.error.ResponseOverLimitError';
  readonly limitBytes: number;
  /** What the server declared in `content-length`, when it did. */
  readonly declaredBytes: number | undefined;

  constructor({ limitBytes, declaredBytes }: { limitBytes: number; declaredBytes?: number }) {
    super({
      code: 'response-over-limit',
      message:
        declaredBytes !== undefined
          ? `the response declares ${declaredBytes} bytes, over the limit of ${limitBytes}`
          : `the response grew past the limit of ${limitBytes} bytes`,
    });
    this.name = 'ResponseOverLimitError';
    this.limitBytes = limitBytes;
    this.declaredBytes = declaredBytes;
  }
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
