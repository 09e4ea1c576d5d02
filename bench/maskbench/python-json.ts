/**
 * JSON as Python's `json` module reads and writes it, for serialising MaskBench instances exactly as
 * the benchmark does (`json.dumps(data, indent=None, ensure_ascii=False)`).
 *
 * JavaScript's `JSON.parse` loses what Python keeps: whether a number was written as an integer or a
 * float (`1.0` stays `1.0` in Python, becomes `1` in JavaScript), integers beyond 2^53, and the order of
 * keys that look like array indices. So test files are read with the small parser below, which keeps
 * numbers as Python would hold them and objects as ordered maps.
 */

/** A Python `int` read from JSON: kept as its digits (Python's ints have no size limit). */
export class PyInt {
  constructor(readonly digits: string) {}
}

/** A Python `float` read from JSON (any number literal with a fraction or an exponent). */
export class PyFloat {
  constructor(readonly value: number) {}
}

export type PyValue = null | boolean | string | PyInt | PyFloat | PyValue[] | PyObject;
/** Keys in first-seen order; a repeated key keeps its first place and its last value, as a dict does. */
export type PyObject = Map<string, PyValue>;

/** Parses JSON text the way `json.loads` does (including its `NaN` and `Infinity` extensions). */
export function parsePythonJson(text: string): PyValue {
  const reader = new Reader(text);
  reader.skipWhitespace();
  const value = reader.value();
  reader.skipWhitespace();
  if (reader.at < text.length) reader.fail('extra data');
  return value;
}

/** `json.dumps(value, indent=None, ensure_ascii=False)`: `", "` and `": "` separators. */
export function pythonDumps(value: PyValue): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  // Python escapes the same characters as JSON.stringify once non-ASCII is written as is: `"`, `\`,
  // and control characters (`\n` and the like, else `\u00XX` in lower-case hex).
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof PyInt) return value.digits === '-0' ? '0' : value.digits;
  if (value instanceof PyFloat) return pythonFloatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  const members: string[] = [];
  for (const [key, member] of value) members.push(`${JSON.stringify(key)}: ${pythonDumps(member)}`);
  return `{${members.join(', ')}}`;
}

/**
 * `float.__repr__` as `json.dumps` writes it: the shortest digits that read back to the same double,
 * in positional notation with at least one fractional digit (`1.0`, `0.0001`) while the decimal point
 * falls within 16 digits, else in scientific notation with a signed exponent of at least two digits
 * (`1e-05`, `1.5e+16`).
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return `${sign}0.0`;
  // toExponential() without an argument gives the shortest round-trip digits, as repr() does.
  const [mantissa = '', exponent = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  // The decimal point sits after `point` digits (Python's `decpt`).
  const point = Number(exponent) + 1;
  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const e = point - 1;
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${head}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** A plain JavaScript value (what `JSON.parse` would give), for handing a schema to an engine. */
export function toPlain(value: PyValue): unknown {
  if (value instanceof PyInt) return Number(value.digits);
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Map) {
    // fromEntries defines own properties, so a key such as `__proto__` stays an ordinary key.
    return Object.fromEntries([...value].map(([key, member]) => [key, toPlain(member)]));
  }
  return value;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON refuses raw control characters in strings.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]*/y;

class Reader {
  at = 0;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new SyntaxError(`${message} at offset ${this.at}`);
  }

  skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private word(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }

  private match(pattern: RegExp): RegExpExecArray {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (!found) this.fail('invalid JSON');
    this.at = pattern.lastIndex;
    return found;
  }

  value(): PyValue {
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return JSON.parse(this.match(STRING)[0]) as string;
    if (this.word('null')) return null;
    if (this.word('true')) return true;
    if (this.word('false')) return false;
    if (this.word('NaN')) return new PyFloat(Number.NaN);
    if (this.word('Infinity')) return new PyFloat(Number.POSITIVE_INFINITY);
    if (this.word('-Infinity')) return new PyFloat(Number.NEGATIVE_INFINITY);
    const number = this.match(NUMBER);
    const literal = number[0];
    return number[1] === undefined && number[2] === undefined
      ? new PyInt(literal)
      : new PyFloat(Number(literal));
  }

  private array(): PyValue[] {
    this.at++;
    const items: PyValue[] = [];
    this.skipWhitespace();
    if (this.word(']')) return items;
    for (;;) {
      this.skipWhitespace();
      items.push(this.value());
      this.skipWhitespace();
      if (this.word(']')) return items;
      if (!this.word(',')) this.fail("expected ',' or ']'");
    }
  }

  private object(): PyObject {
    this.at++;
    const members: PyObject = new Map();
    this.skipWhitespace();
    if (this.word('}')) return members;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') this.fail('expected a key');
      const key = JSON.parse(this.match(STRING)[0]) as string;
      this.skipWhitespace();
      if (!this.word(':')) this.fail("expected ':'");
      this.skipWhitespace();
      members.set(key, this.value());
      this.skipWhitespace();
      if (this.word('}')) return members;
      if (!this.word(',')) this.fail("expected ',' or '}'");
    }
  }
}
