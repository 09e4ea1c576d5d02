/**
 * How much of a response the transports read. A server decides how much it sends; without a limit a
 * 600 MB answer became one string (`ERR_STRING_TOO_LONG`, uncaught) and took the process with it.
 */

/**
 * Default `maxResponseBytes`: 16 MiB. haggle's choice, with room to spare: a turn is under 1 KiB of
 * JSON, and even 16 choices of a full 40,960-token context (the 4B model's context length) at about
 * 4 bytes a token, JSON-escaped, stay under 4 MiB. It also bounds memory: 64 requests in flight hold
 * at most 1 GiB, and no answer comes near V8's largest string.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * An error status's body is read up to this many bytes, then the connection is dropped: only its
 * start is ever shown (300 characters), and a huge error page must not cost the memory of a good
 * answer. haggle's choice.
 */
export const ERROR_BODY_BYTES = 64 * 1024;

/** The most bytes worth reading of a response with this status. */
export function bodyLimit(status: number, maxResponseBytes: number): number {
  return status >= 200 && status < 300 ? maxResponseBytes : Math.min(maxResponseBytes, ERROR_BODY_BYTES);
}

/** `content-length` as a number, or undefined when absent or unreadable. */
export function declaredLength(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const length = Number(value);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}
