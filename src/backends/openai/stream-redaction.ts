import type { Redactor } from '../../internal/redact.js';

/**
 * Redaction of a text handed out in pieces. A secret may arrive split over two deltas, so what goes
 * out is the redacted whole text minus a held-back tail, wide enough to hold any secret still being
 * written; the tail goes out at the end. With no secret to remove, deltas pass through at once.
 * The final text of a stream is redacted whole as well, and that is the one to trust.
 */
export class StreamRedaction {
  readonly #redactor: Redactor;
  readonly #holdBack: number;
  #raw = '';
  #sent = '';

  /** @param longestSecret length of the longest secret the redactor removes; 0 when there is none. */
  constructor(redactor: Redactor, longestSecret: number) {
    this.#redactor = redactor;
    // haggle's choice: 8x the secret leaves room for its spaced and escaped forms.
    this.#holdBack = longestSecret === 0 ? 0 : Math.max(256, 8 * longestSecret);
  }

  /** What of the text may go out now that `delta` has arrived. */
  push(delta: string): string {
    if (this.#holdBack === 0) return delta;
    this.#raw += delta;
    return this.#release(this.#redactor.text(this.#raw).length - this.#holdBack);
  }

  /** The held-back tail, at the end of the text. */
  end(): string {
    if (this.#holdBack === 0) return '';
    return this.#release(Number.POSITIVE_INFINITY);
  }

  #release(upTo: number): string {
    const redacted = this.#redactor.text(this.#raw);
    const end = Math.min(upTo, redacted.length);
    // A secret seen only now reaches into what already went out: nothing more goes out early (the
    // final text, redacted whole, still reaches the caller).
    if (end <= this.#sent.length || !redacted.startsWith(this.#sent)) return '';
    const piece = redacted.slice(this.#sent.length, end);
    this.#sent += piece;
    return piece;
  }
}
