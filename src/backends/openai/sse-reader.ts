import { SseLineTooLongError } from '../errors.js';

/**
 * Server-sent events read incrementally, as the WHATWG spec describes them: lines end in `\n`, `\r\n`
 * or `\r`; `data:` lines of one event are joined by `\n`; a blank line ends the event; `:` lines are
 * comments (keep-alives). Bytes arrive split anywhere (inside a line, inside a UTF-8 character); a
 * line longer than `maxLineBytes` throws `SseLineTooLongError` instead of growing without end.
 */
export class SseReader {
  readonly #decoder = new TextDecoder();
  readonly #maxLineChars: number;
  #line = '';
  #data: string[] = [];
  #sawCarriageReturn = false;

  /** @param maxLineBytes the longest line kept (counted in UTF-16 units, never fewer than bytes/3). */
  constructor(readonly maxLineBytes: number) {
    this.#maxLineChars = maxLineBytes;
  }

  /** The `data` of every event the bytes complete, in order. */
  push(bytes: Uint8Array): string[] {
    return this.#read(this.#decoder.decode(bytes, { stream: true }));
  }

  /** The data of an event the stream ended in without its blank line (the spec drops it; callers decide). */
  end(): string[] {
    const events = this.#read(this.#decoder.decode());
    if (this.#line !== '') this.#take(this.#line);
    this.#line = '';
    const pending = this.#data.length > 0 ? [this.#data.join('\n')] : [];
    this.#data = [];
    return [...events, ...pending];
  }

  #read(text: string): string[] {
    const events: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      // `\r\n` split across two pushes: the `\n` ends nothing new.
      if (code === 10 && i === 0 && this.#sawCarriageReturn && this.#line === '') {
        start = 1;
        this.#sawCarriageReturn = false;
        continue;
      }
      const line = this.#line + text.slice(start, i);
      this.#line = '';
      this.#check(line.length);
      if (line === '') {
        if (this.#data.length > 0) events.push(this.#data.join('\n'));
        this.#data = [];
      } else {
        this.#take(line);
      }
      if (code === 13 && text.charCodeAt(i + 1) === 10) i++;
      this.#sawCarriageReturn = code === 13 && i === text.length - 1;
      start = i + 1;
    }
    if (start < text.length) {
      this.#line += text.slice(start);
      this.#sawCarriageReturn = false;
      this.#check(this.#line.length);
    }
    return events;
  }

  #take(line: string): void {
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return; // event, id, retry: OpenAI's streams use none of them
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.#data.push(value);
    let size = 0;
    for (const part of this.#data) size += part.length;
    this.#check(size);
  }

  #check(chars: number): void {
    if (chars > this.#maxLineChars) throw new SseLineTooLongError(this.maxLineBytes);
  }
}
