/**
 * Reads a turn's JSON text as it arrives, a delta at a time, and says what each top-level field holds
 * as soon as it is whole: the value of `action`, `price`, `message_labels` and `response_time` once
 * the value has ended (a number only once the character after it arrived: never "4" on the way to
 * "45"), and the characters of `message` as they come, JSON escapes decoded. It never decides whether
 * the turn is valid: the agent checks the whole text when it is complete.
 *
 * What is skipped before the object: whitespace, a leading `<think>…</think>` block, and a Markdown
 * code fence's opening line (as `parseModelOutput` tolerates them). Anything else that is not JSON
 * stops the scanner for good (it reports nothing more; the final check decides).
 */

/** A top-level field whose value has ended, or a piece of the message. */
export type ScannedField =
  | { kind: 'value'; key: string; value: unknown }
  | { kind: 'message-delta'; text: string };

type State =
  | 'preamble'
  | 'think'
  | 'fence'
  | 'before-key'
  | 'key'
  | 'colon'
  | 'before-value'
  | 'string-value'
  | 'scalar-value'
  | 'nested-value'
  | 'after-value'
  | 'done'
  | 'stopped';

/** The key whose string value streams out as `message-delta`s. */
const STREAMED_STRING_KEY = 'message';
/** haggle's choice: a key longer than this is not one of a turn's; stop rather than buffer it. */
const MAX_KEY_LENGTH = 64;
/** haggle's choice: a turn's non-message value (labels, a number) fits in this; longer stops the scan. */
const MAX_VALUE_LENGTH = 4096;

export class TurnTextScanner {
  private state: State = 'preamble';
  private preamble = '';
  private key = '';
  private raw = '';
  private escape = '';
  private inString = false;
  private depth = 0;
  private nestedEscaped = false;

  /** Whether the top-level object has closed. */
  get complete(): boolean {
    return this.state === 'done';
  }

  /** Feeds the next piece of text; returns the fields it completed, in text order. */
  push(delta: string): ScannedField[] {
    const out: ScannedField[] = [];
    let message = '';
    const flushMessage = () => {
      if (message !== '') out.push({ kind: 'message-delta', text: message });
      message = '';
    };
    for (let i = 0; i < delta.length; i++) {
      const char = delta[i] as string;
      switch (this.state) {
        case 'preamble':
          this.preamble += char;
          this.readPreamble();
          break;
        case 'think':
          this.preamble += char;
          if (this.preamble.endsWith('</think>')) {
            this.preamble = '';
            this.state = 'preamble';
          }
          break;
        case 'fence':
          // The fence's info string (`json`) ends with its line.
          if (char === '\n') {
            this.preamble = '';
            this.state = 'preamble';
          }
          break;
        case 'before-key':
          if (isSpace(char)) break;
          if (char === '"') {
            this.key = '';
            this.escape = '';
            this.state = 'key';
          } else if (char === '}') {
            this.state = 'done';
          } else this.state = 'stopped';
          break;
        case 'key':
          if (this.escape !== '' || char === '\\') {
            const decoded = this.readEscape(char);
            if (decoded === undefined) break;
            this.key += decoded;
          } else if (char === '"') {
            this.state = 'colon';
          } else {
            this.key += char;
          }
          if (this.key.length > MAX_KEY_LENGTH) this.state = 'stopped';
          break;
        case 'colon':
          if (isSpace(char)) break;
          this.state = char === ':' ? 'before-value' : 'stopped';
          break;
        case 'before-value':
          if (isSpace(char)) break;
          this.raw = '';
          if (char === '"') {
            this.escape = '';
            this.state = 'string-value';
          } else if (char === '[' || char === '{') {
            this.raw = char;
            this.depth = 1;
            this.inString = false;
            this.nestedEscaped = false;
            this.state = 'nested-value';
          } else {
            this.raw = char;
            this.state = 'scalar-value';
          }
          break;
        case 'string-value': {
          let piece: string | undefined;
          if (this.escape !== '' || char === '\\') {
            piece = this.readEscape(char);
            if (piece === undefined) break;
          } else if (char === '"') {
            flushMessage();
            out.push({ kind: 'value', key: this.key, value: this.raw });
            this.state = 'after-value';
            break;
          } else {
            piece = char;
          }
          this.raw += piece;
          if (this.key === STREAMED_STRING_KEY) message += piece;
          else if (this.raw.length > MAX_VALUE_LENGTH) this.state = 'stopped';
          break;
        }
        case 'scalar-value':
          if (char === ',' || char === '}' || isSpace(char)) {
            const value = parseScalar(this.raw);
            if (value === undefined) {
              this.state = 'stopped';
              break;
            }
            out.push({ kind: 'value', key: this.key, value: value.value });
            this.state = char === ',' ? 'before-key' : char === '}' ? 'done' : 'after-value';
          } else {
            this.raw += char;
            if (this.raw.length > MAX_VALUE_LENGTH) this.state = 'stopped';
          }
          break;
        case 'nested-value':
          this.raw += char;
          if (this.raw.length > MAX_VALUE_LENGTH) {
            this.state = 'stopped';
            break;
          }
          if (this.inString) {
            if (this.nestedEscaped) this.nestedEscaped = false;
            else if (char === '\\') this.nestedEscaped = true;
            else if (char === '"') this.inString = false;
          } else if (char === '"') this.inString = true;
          else if (char === '[' || char === '{') this.depth++;
          else if (char === ']' || char === '}') {
            this.depth--;
            if (this.depth === 0) {
              try {
                out.push({ kind: 'value', key: this.key, value: JSON.parse(this.raw) });
                this.state = 'after-value';
              } catch {
                this.state = 'stopped';
              }
            }
          }
          break;
        case 'after-value':
          if (isSpace(char)) break;
          this.state = char === ',' ? 'before-key' : char === '}' ? 'done' : 'stopped';
          break;
        case 'done':
        case 'stopped':
          i = delta.length;
          break;
      }
    }
    flushMessage();
    return out;
  }

  /** Decides what the text before the object is: whitespace, a think block, a fence, or not a turn. */
  private readPreamble(): void {
    const text = this.preamble.trimStart();
    if (text === '') return;
    if (text === '{') {
      this.preamble = '';
      this.state = 'before-key';
      return;
    }
    for (const [opening, next] of [
      ['<think>', 'think'],
      ['```', 'fence'],
    ] as const) {
      if (text.startsWith(opening)) {
        this.preamble = next === 'think' ? text.slice(opening.length) : '';
        this.state = next;
        return;
      }
      if (opening.startsWith(text)) return; // still could be this opening
    }
    this.state = 'stopped';
  }

  /**
   * One character of a JSON escape: the decoded text once the escape is whole, `undefined` while it
   * is not. A `\u` high surrogate is held until its low half arrives, so a delta never ends inside a
   * character.
   */
  private readEscape(char: string): string | undefined {
    this.escape += char;
    const pending = this.escape;
    if (pending.length < 2) return undefined;
    if (pending[1] !== 'u') {
      this.escape = '';
      const simple = SIMPLE_ESCAPES[pending[1] as string];
      if (simple === undefined) this.state = 'stopped';
      return simple ?? '';
    }
    if (pending.length < 6) return undefined;
    const code = Number.parseInt(pending.slice(2, 6), 16);
    if (!/^[0-9a-fA-F]{4}$/.test(pending.slice(2, 6))) {
      this.state = 'stopped';
      this.escape = '';
      return '';
    }
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    if (isHigh && pending.length === 6) return undefined; // wait for `\uDC00`
    if (isHigh) {
      // Anything but a second `\u` escape after a high surrogate is not what a model's JSON holds.
      if ((pending.length === 7 && pending[6] !== '\\') || (pending.length === 8 && pending[7] !== 'u')) {
        this.escape = '';
        this.state = 'stopped';
        return '';
      }
      if (pending.length < 12) return undefined;
      this.escape = '';
      return pending.slice(6, 8) === '\\u'
        ? String.fromCharCode(code, Number.parseInt(pending.slice(8, 12), 16))
        : String.fromCharCode(code);
    }
    this.escape = '';
    return String.fromCharCode(code);
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

function isSpace(char: string): boolean {
  return char === ' ' || char === '\n' || char === '\r' || char === '\t';
}

/** A JSON number, `true`, `false` or `null`; undefined for anything else. */
function parseScalar(raw: string): { value: unknown } | undefined {
  if (raw === 'null') return { value: null };
  if (raw === 'true') return { value: true };
  if (raw === 'false') return { value: false };
  if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(raw)) return undefined;
  return { value: Number(raw) };
}
