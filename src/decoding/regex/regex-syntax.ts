import { PatternSyntaxError } from '../errors.js';

/**
 * The syntax of JSON Schema `pattern`s: ECMAScript regular expressions, read so that the language we
 * build is never larger than what either ECMAScript or Python's `re` accepts (validators in both are
 * common, and MaskBench's were Python's). Where the two read a pattern differently and no common subset
 * is safe (`[]`, `{,n}`, `\0` then a digit), the pattern is refused with a `PatternSyntaxError`.
 */

export type Ranges = ReadonlyArray<readonly [number, number]>;

export type Ast =
  | { type: 'set'; ranges: Ranges }
  | { type: 'seq'; items: Ast[] }
  | { type: 'alt'; options: Ast[] }
  | { type: 'repeat'; item: Ast; min: number; max: number }
  /** `^` (the string's start) or `$` (its end): zero-width. */
  | { type: 'assert'; at: 'start' | 'end' };

export const MAX_CODE_POINT = 0x10ffff;
export const ANY: Ranges = [[0, MAX_CODE_POINT]];

export function normalize(ranges: Array<readonly [number, number]>): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function negate(ranges: Ranges): Ranges {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of normalize([...ranges])) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Code points matching a Unicode property regex, scanned once when first needed. */
function scan(test: RegExp): Ranges {
  const out: Array<[number, number]> = [];
  for (let cp = 0; cp <= MAX_CODE_POINT; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    if (!test.test(String.fromCodePoint(cp))) continue;
    const last = out[out.length - 1];
    if (last && last[1] === cp - 1) last[1] = cp;
    else out.push([cp, cp]);
  }
  return out;
}

/**
 * A class escape as two sets: what both engines match (`narrow`) and what either matches (`wide`).
 * A positive class uses `narrow`; a negated class `[^...]` complements `wide`, so the result is again
 * matched by both.
 */
interface ClassEscape {
  narrow: Ranges;
  wide: Ranges;
}

const ASCII_DIGIT: Ranges = [[0x30, 0x39]];
const ASCII_WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// ECMAScript's \s (what String.prototype.trim removes) without U+FEFF, which Python's \s lacks.
const SPACE_BOTH: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
// Python's str.isspace adds the information separators U+001C..U+001F and U+0085.
const SPACE_EITHER = normalize([...SPACE_BOTH, [0x1c, 0x1f], [0x85, 0x85], [0xfeff, 0xfeff]]);
const LINE_TERMINATORS: Ranges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

// Module-level on purpose: constant Unicode tables, built lazily once (a scan of the code points), for every compiler.
let unicodeDigits: Ranges | null = null;
let unicodeWord: Ranges | null = null;
/** Python's \d on str patterns: any decimal digit (category Nd). */
function pythonDigits(): Ranges {
  unicodeDigits ??= scan(/^\p{Nd}$/u);
  return unicodeDigits;
}
/** Python's \w on str patterns: str.isalnum() or "_" (letters and numbers of any script). */
function pythonWord(): Ranges {
  unicodeWord ??= normalize([...scan(/^[\p{L}\p{N}]$/u), [0x5f, 0x5f]]);
  return unicodeWord;
}

function classEscape(letter: string): ClassEscape | null {
  switch (letter) {
    case 'd':
      return {
        narrow: ASCII_DIGIT,
        get wide() {
          return pythonDigits();
        },
      };
    case 'D':
      return {
        get narrow() {
          return negate(pythonDigits());
        },
        wide: negate(ASCII_DIGIT),
      };
    case 'w':
      return {
        narrow: ASCII_WORD,
        get wide() {
          return pythonWord();
        },
      };
    case 'W':
      return {
        get narrow() {
          return negate(pythonWord());
        },
        wide: negate(ASCII_WORD),
      };
    case 's':
      return { narrow: SPACE_BOTH, wide: SPACE_EITHER };
    case 'S':
      return { narrow: negate(SPACE_EITHER), wide: negate(SPACE_BOTH) };
    default:
      return null;
  }
}

const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };

export class Parser {
  private pos = 0;
  constructor(private readonly source: string) {}

  parse(): Ast {
    const ast = this.alternation();
    if (this.pos !== this.source.length) this.fail(`unexpected "${this.peek()}"`);
    return ast;
  }

  private fail(message: string): never {
    throw new PatternSyntaxError(`${message} at offset ${this.pos} of /${this.source}/`);
  }

  private peek(): string | undefined {
    return this.source[this.pos];
  }

  private alternation(): Ast {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Ast) : { type: 'alt', options };
  }

  private sequence(): Ast {
    const items: Ast[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') break;
      if (c === '^' || c === '$') {
        this.pos++;
        if (/^[*+?]/.test(this.source.slice(this.pos))) this.fail('nothing to repeat');
        items.push({ type: 'assert', at: c === '^' ? 'start' : 'end' });
        continue;
      }
      items.push(this.quantified(this.atom()));
    }
    return { type: 'seq', items };
  }

  private quantified(item: Ast): Ast {
    let result = item;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (c === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const rest = this.source.slice(this.pos);
        // Python reads "{,n}" as {0,n}; ECMAScript as the literal text.
        if (/^\{,\d*\}/.test(rest)) this.fail('"{,n}" means different things in ECMAScript and Python');
        const match = /^\{(\d+)(,(\d*))?\}/.exec(rest);
        if (!match) return result; // a literal "{" in both engines
        min = Number(match[1]);
        max = match[2] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
        if (max < min) this.fail('numbers out of order in {} quantifier');
        if (min > 1000 || (max !== Number.POSITIVE_INFINITY && max > 1000))
          this.fail('repeat count above 1000');
        this.pos += match[0].length - 1;
      } else return result;
      this.pos++;
      if (this.peek() === '?') this.pos++; // lazy: same language
      result = { type: 'repeat', item: result, min, max };
    }
  }

  private atom(): Ast {
    const c = this.peek() as string;
    if (c === '(') {
      this.pos++;
      if (this.source.startsWith('?:', this.pos)) this.pos += 2;
      else if (this.source.startsWith('?<', this.pos) && !/^\?<[=!]/.test(this.source.slice(this.pos))) {
        const close = this.source.indexOf('>', this.pos);
        if (close < 0) this.fail('unterminated group name');
        this.pos = close + 1;
      } else if (this.peek() === '?') this.fail('look-around is not supported');
      const inner = this.alternation();
      if (this.peek() !== ')') this.fail('missing ")"');
      this.pos++;
      return inner;
    }
    if (c === '[') return { type: 'set', ranges: this.characterClass() };
    if (c === '.') {
      this.pos++;
      // ECMAScript's "." also refuses \r, U+2028 and U+2029; Python's refuses only \n.
      return { type: 'set', ranges: negate(LINE_TERMINATORS) };
    }
    if (c === '\\') return { type: 'set', ranges: this.escape(false, false) };
    if (c === '*' || c === '+' || c === '?') this.fail('nothing to repeat');
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return { type: 'set', ranges: [[cp, cp]] };
  }

  private characterClass(): Ranges {
    this.pos++; // [
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    // "[]" and "[^]" are an empty class and any character in ECMAScript, but open a class holding
    // "]" in Python.
    if (this.peek() === ']') this.fail('"[]" means different things in ECMAScript and Python');
    const ranges: Array<readonly [number, number]> = [];
    while (this.peek() !== ']') {
      if (this.peek() === undefined) this.fail('unterminated character class');
      const lo = this.classAtom(negated);
      if (
        this.peek() === '-' &&
        this.source[this.pos + 1] !== ']' &&
        this.source[this.pos + 1] !== undefined
      ) {
        this.pos++;
        const hi = this.classAtom(negated);
        if (lo.length !== 1 || hi.length !== 1 || lo[0]?.[0] !== lo[0]?.[1] || hi[0]?.[0] !== hi[0]?.[1])
          this.fail('a class escape cannot bound a range');
        const from = (lo[0] as readonly [number, number])[0];
        const to = (hi[0] as readonly [number, number])[0];
        if (to < from) this.fail('range out of order in character class');
        ranges.push([from, to]);
      } else ranges.push(...lo);
    }
    this.pos++; // ]
    const set = normalize(ranges);
    return negated ? negate(set) : set;
  }

  private classAtom(negated: boolean): Ranges {
    if (this.peek() === '\\') return this.escape(true, negated);
    if (this.source.startsWith('[:', this.pos) || this.source.startsWith('[=', this.pos))
      this.fail('POSIX classes are read differently by ECMAScript and Python');
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return [[cp, cp]];
  }

  /** `negated`: inside `[^...]`, where a class escape must give what either engine matches. */
  private escape(inClass: boolean, negated: boolean): Ranges {
    this.pos++; // backslash
    const c = this.peek();
    if (c === undefined) this.fail('trailing backslash');
    this.pos++;
    const set = classEscape(c);
    if (set) return negated ? set.wide : set.narrow;
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return [[control, control]];
    switch (c) {
      case '0':
        if (/^[0-9]/.test(this.source.slice(this.pos))) this.fail('octal escapes are not supported');
        return [[0, 0]];
      case 'b':
        if (inClass) return [[0x08, 0x08]];
        return this.fail('"\\b" (word boundary) is not supported');
      case 'x':
        return this.hex(2);
      case 'u':
        return this.hex(4);
      default:
        if (/[1-9]/.test(c)) this.fail('back-references are not supported');
        if (/[a-zA-Z]/.test(c)) this.fail(`unknown escape "\\${c}"`);
        return [[c.codePointAt(0) as number, c.codePointAt(0) as number]];
    }
  }

  private hex(digits: number): Ranges {
    const hex = this.source.slice(this.pos, this.pos + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex))
      this.fail(`bad \\${digits === 2 ? 'x' : 'u'} escape`);
    this.pos += digits;
    const cp = Number.parseInt(hex, 16);
    return [[cp, cp]];
  }
}
