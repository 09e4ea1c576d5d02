import { DEAD, Leaf } from './nodes.js';
import {
  completeWithExponent,
  endsAfterE,
  feasibleAfterE,
  finishExponent,
  type Lattice,
  mantissaWitness,
  pow10,
} from './number-exponent.js';

/** A bound of a number schema, as given: `minimum: 40` or `exclusiveMaximum: 100`. */
export interface NumberBound {
  value: number;
  exclusive: boolean;
}

export interface NumberLeafOptions {
  integer: boolean;
  lower: NumberBound | undefined;
  upper: NumberBound | undefined;
  /** Most digits after the point (numbers only). */
  maxFractionDigits: number;
  /** Most significant digits in all; 15 keeps every decimal exactly representable as a double. */
  maxDigits: number;
  /** `multipleOf`, when it has at most as many fraction digits as the leaf writes. */
  multipleOf?: number;
  /**
   * Whether an exponent part may follow (`1.256e-05`; `numberSyntax: 'json'`). It adds spellings, never
   * values: see number-exponent.ts. Numbers only: an integer leaf never writes one.
   */
  exponent?: boolean;
}

/** `0-9 - . + e E`: every byte of any JSON number. */
const NUMBER_BYTES = [...'0123456789-.+eE'].map((c) => c.charCodeAt(0));
const BYTE_MINUS = 0x2d;
const BYTE_DOT = 0x2e;
const BYTE_0 = 0x30;
const BYTE_9 = 0x39;
const BYTE_PLUS = 0x2b;
const BYTE_E = 0x65;
const BYTE_UPPER_E = 0x45;

/**
 * A JSON number whose bounds are enforced while it is written. The state is the text so far; a byte is
 * accepted only if some completion of the new text is a number in range (so `-` is refused when the
 * minimum is 0, and `9` is refused after `1` when the maximum is 150). Values are compared as exact
 * decimals scaled by 10^maxFractionDigits, in BigInt; since decimal-to-double rounding is monotonic, a
 * decimal within inclusive bounds parses to a double within them. No exponents are written.
 */
export class NumberLeaf extends Leaf {
  private readonly fractionDigits: number;
  private readonly scale: bigint;
  /** Smallest and largest allowed scaled value (null: unbounded). */
  private readonly low: bigint | null;
  private readonly high: bigint | null;
  /** multipleOf, scaled (1n when there is none): every value written is a multiple of it. */
  private readonly divisor: bigint;
  /** Whether an exponent may be written (numbers under `numberSyntax: 'json'`). */
  private readonly exponent: boolean;
  /** The leaf's values as number-exponent.ts reads them. */
  private readonly lattice: Lattice;
  /** See `unit`. */
  private readonly units: bigint[] = [];
  /**
   * What `step`, `canEnd` and `key` gave per state text. A mask's walk and the precompute's search
   * ask them of the same few hundred texts again and again (each digit position's successors, then
   * the walk from each), and each answer parses the text and checks the bounds in BigInt: most of an
   * offer schema's compile (issue 45). Leaves are pure functions of their state, so the memo changes
   * nothing but the work; emptied at `MEMO_LIMIT` texts, so a long decode cannot grow it without end.
   */
  private readonly memo = new Map<string, StateMemo>();

  private memoOf(text: string): StateMemo {
    let memo = this.memo.get(text);
    if (memo === undefined) {
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      memo = { steps: undefined, canEnd: undefined, key: undefined };
      this.memo.set(text, memo);
    }
    return memo;
  }

  constructor(
    id: number,
    readonly options: NumberLeafOptions,
  ) {
    super(id);
    this.fractionDigits = options.integer ? 0 : options.maxFractionDigits;
    this.scale = pow10(this.fractionDigits);
    const { lower, upper } = options;
    if (lower) {
      const { floor, exact } = scaled(lower.value, this.fractionDigits);
      this.low = lower.exclusive || !exact ? floor + 1n : floor;
    } else this.low = null;
    if (upper) {
      const { floor, exact } = scaled(upper.value, this.fractionDigits);
      this.high = upper.exclusive && exact ? floor - 1n : floor;
    } else this.high = null;
    this.divisor = 1n;
    if (options.multipleOf !== undefined) {
      const { floor, exact } = scaled(options.multipleOf, this.fractionDigits);
      if (!exact || floor <= 0n)
        throw new RangeError(`multipleOf ${options.multipleOf} is finer than the digits written`);
      this.divisor = floor;
    }
    this.exponent = options.exponent === true && !options.integer;
    this.lattice = {
      fractionDigits: this.fractionDigits,
      maxDigits: options.maxDigits,
      reaches: (negative, from, to, step) => this.reaches(negative, from, to, step),
      accepts: (value) => value % this.divisor === 0n && this.inRange(value),
    };
  }

  /** Whether `multipleOf` can be enforced exactly (see NumberLeafOptions.multipleOf). */
  static supportsMultipleOf(
    multipleOf: number,
    options: { integer: boolean; maxFractionDigits: number },
  ): boolean {
    const { floor, exact } = scaled(multipleOf, options.integer ? 0 : options.maxFractionDigits);
    return exact && floor > 0n;
  }

  /** Whether the leaf takes `text` whole (byte by byte, then may end there). */
  accepts(text: string): boolean {
    let state: unknown = this.initial();
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      if (state === DEAD) return false;
    }
    return this.canEnd(state);
  }

  /** Whether any number at all satisfies the bounds under the digit limits. */
  satisfiable(): boolean {
    return this.feasible('');
  }

  initial(): unknown {
    return '';
  }

  step(state: unknown, byte: number): unknown {
    const memo = this.memoOf(state as string);
    let steps = memo.steps;
    if (steps === undefined) {
      steps = new Map();
      memo.steps = steps;
    }
    let next = steps.get(byte);
    if (next === undefined) {
      next = this.stepText(state as string, byte);
      steps.set(byte, next);
    }
    return next;
  }

  /** `step`, computed (parses the text and checks the bounds: the memo's reason). */
  private stepText(text: string, byte: number): unknown {
    let next: string;
    if (byte >= BYTE_0 && byte <= BYTE_9) next = text + String.fromCharCode(byte);
    else if (byte === BYTE_MINUS && text === '') next = '-';
    else if (byte === BYTE_DOT && !this.options.integer) next = `${text}.`;
    else if (
      this.exponent &&
      (byte === BYTE_E || byte === BYTE_UPPER_E || byte === BYTE_PLUS || byte === BYTE_MINUS)
    ) {
      // The grammar of the exponent (`e`, then an optional sign, then digits) is parse()'s.
      next = text + String.fromCharCode(byte);
    } else return DEAD;
    return this.feasible(next) ? next : DEAD;
  }

  canEnd(state: unknown): boolean {
    const memo = this.memoOf(state as string);
    memo.canEnd ??= this.canEndText(state as string);
    return memo.canEnd;
  }

  private canEndText(text: string): boolean {
    const parts = parse(text);
    if (parts?.exponent) return endsAfterE(this.lattice, parts);
    if (!parts || parts.int === '' || parts.frac === '') return false;
    const magnitude = this.magnitude(parts.int, parts.frac ?? '');
    if (magnitude === null) return false;
    if (parts.negative && magnitude === 0n) return false; // no "-0"
    return magnitude % this.divisor === 0n && this.inRange(parts.negative ? -magnitude : magnitude);
  }

  mustEnd(): boolean {
    return false;
  }

  key(state: unknown): string {
    const memo = this.memoOf(state as string);
    memo.key ??= this.keyText(state as string);
    return memo.key;
  }

  private keyText(text: string): string {
    const parts = parse(text);
    if (!parts) return text;
    if (this.exponent) return this.exponentKey(text, parts);
    // When every completion of the text is within the bounds (always, without bounds), only its shape
    // matters (sign, digits so far, point): "899." and "640." allow the same tokens under [200, 2000].
    if ((this.low !== null || this.high !== null) && !this.boundsInactive(parts)) {
      return this.residualKey(parts, text);
    }
    const shape = parts.int === '' ? 'e' : parts.int === '0' ? 'z' : `d${parts.int.length}`;
    // Under multipleOf, what follows depends on the remainder so far (digits append affinely).
    const remainder =
      this.divisor === 1n || parts.int === '' ? '' : `%${this.magnitudeSoFar(parts) % this.divisor}`;
    // A negative number that is zero so far cannot end ("-0.0" is refused, "-0.5" is not).
    const zero = parts.negative && parts.int === '0' && /^0*$/.test(parts.frac ?? '') ? '0' : '';
    return `${parts.negative ? '-' : '+'}${shape}${parts.frac === null ? '' : `.${parts.frac.length}`}${remainder}${zero}`;
  }

  /** Greedy: end as soon as possible, else take the first byte that keeps a completion in reach. */
  completion(state: unknown): number[] {
    let text = state as string;
    const out: number[] = [];
    if (this.exponent) {
      // Only what an exponent can finish is finished with one; the rest greedily without (below).
      const parts = parse(text) as NumberParts;
      let tail: string | null = null;
      if (parts.exponent) tail = this.canEnd(text) ? '' : finishExponent(this.lattice, parts);
      else if (!this.feasiblePlain(parts)) {
        const witness = mantissaWitness(this.lattice, parts);
        if (witness !== null) tail = completeWithExponent(this.lattice, parts, witness);
      }
      if (tail !== null) return [...tail].map((c) => c.charCodeAt(0));
    }
    const order = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, BYTE_DOT, BYTE_MINUS];
    while (!this.canEnd(text)) {
      let chosen = -1;
      for (const byte of order) {
        const next = this.stepPlain(text, byte);
        if (next !== DEAD && this.canEnd(next)) {
          chosen = byte;
          break;
        }
        if (next !== DEAD && chosen < 0) chosen = byte;
      }
      if (chosen < 0) return out; // unreachable: every state the leaf produces has a completion
      out.push(chosen);
      text = this.stepPlain(text, chosen) as string;
    }
    return out;
  }

  override valueKey(state: unknown): string | undefined {
    return String(Number(state as string));
  }

  /** Every byte a JSON number can hold, exponents included (a superset is safe; see Leaf.alphabet). */
  override alphabet(): readonly number[] {
    return NUMBER_BYTES;
  }

  /**
   * A key equal for two texts exactly when the same byte strings complete them (their residual
   * languages agree), so that a mask cached or precomputed for one serves the other, and a bounded
   * number has a few dozen keys instead of one per text: under [1000, 80000], "23" and "41" both need
   * three or four more digits and share a key, where "1" (a prefix of the minimum) and "8" (of the
   * maximum) keep their own.
   *
   * The completions of a text of a given shape (sign, digits before the point, point, digits after it)
   * fall into families by how many digits they add before the point: the family of `e` more digits is
   * the magnitudes [head * 10^e, (head + 1) * 10^e) on a lattice the shape fixes. Each family is wholly
   * within the bounds (F), wholly outside (E), or cut by one (then only one head per bound is in that
   * case, and its text is its key). The remainder under multipleOf and a negative zero so far complete
   * the key. Falls back to the text itself wherever that reasoning does not hold. Exponent-writing
   * leaves never come here: `key()` gives them `exponentKey`, since exponents break the families.
   */
  private residualKey(parts: NumberParts, text: string): string {
    const { negative, int, frac } = parts;
    if (int === '') return text;
    // The bounds on the magnitude: a negative number's magnitude is bounded by the negated bounds.
    const low = negative ? (this.high === null ? null : -this.high) : this.low;
    const high = negative ? (this.low === null ? null : -this.low) : this.high;
    let classes = '';
    let base: bigint;
    if (frac !== null) {
      const magnitude = this.magnitude(int, frac);
      if (magnitude === null) return text;
      base = magnitude;
      const free = pow10(this.fractionDigits - frac.length);
      classes = windowClass(base, base + free - 1n, low, high);
      if (classes === 'P') return text;
    } else {
      const head = BigInt(int);
      base = head * this.scale;
      const families = int === '0' ? 0 : this.options.maxDigits - int.length;
      for (let e = 0; e <= families; e++) {
        const unit = this.unit(e);
        const from = head * unit;
        const c = windowClass(from, from + unit - 1n, low, high);
        if (c === 'P') return text;
        classes += c;
        // Families only grow with e: past the upper bound every later one is outside too, and within
        // the bounds with no upper bound, every later one is inside too.
        if ((high !== null && from > high) || (high === null && c === 'F')) break;
      }
    }
    const shape = int === '0' ? 'z' : `d${int.length}`;
    const point = frac === null ? '' : `.${frac.length}`;
    const remainder = this.divisor === 1n ? '' : `%${base % this.divisor}`;
    const zero = negative && base === 0n ? '0' : '';
    return `${negative ? '-' : '+'}${shape}${point}:${classes}${remainder}${zero}`;
  }

  /** 10^e * scale, the width of the family of `e` more digits before the point. */
  private unit(e: number): bigint {
    let unit = this.units[e];
    if (unit === undefined) {
      unit = pow10(e) * this.scale;
      this.units[e] = unit;
    }
    return unit;
  }

  /** Whether every value reachable from `parts` lies within the bounds. */
  private boundsInactive(parts: NumberParts): boolean {
    const { negative, int, frac } = parts;
    let from: bigint;
    let to: bigint;
    if (frac !== null) {
      from = this.magnitude(int, frac) ?? 0n;
      to = from + pow10(this.fractionDigits - Math.min(frac.length, this.fractionDigits)) - 1n;
    } else if (int === '') return false;
    else {
      from = BigInt(int) * this.scale;
      const extra = int === '0' ? 0 : this.options.maxDigits - int.length;
      to = (BigInt(int) + 1n) * pow10(Math.max(0, extra)) * this.scale - 1n;
    }
    const lo = negative ? -to : from;
    const hi = negative ? -from : to;
    return (this.low === null || lo >= this.low) && (this.high === null || hi <= this.high);
  }

  /** The scaled magnitude of the digits written so far, as if the number ended here. */
  private magnitudeSoFar(parts: NumberParts): bigint {
    const frac = parts.frac ?? '';
    return BigInt(parts.int) * this.scale + BigInt(frac || '0') * pow10(this.fractionDigits - frac.length);
  }

  private maxFraction(intDigits: number): number {
    return Math.max(0, Math.min(this.fractionDigits, this.options.maxDigits - intDigits));
  }

  private magnitude(int: string, frac: string): bigint | null {
    if (frac.length > this.maxFraction(int.length)) return null;
    return BigInt(int) * this.scale + BigInt(frac || '0') * pow10(this.fractionDigits - frac.length);
  }

  private inRange(value: bigint): boolean {
    return (this.low === null || value >= this.low) && (this.high === null || value <= this.high);
  }

  /** `step` without exponents: the greedy completion's, which must not wander into one. */
  private stepPlain(text: string, byte: number): string | typeof DEAD {
    let next: string;
    if (byte >= BYTE_0 && byte <= BYTE_9) next = text + String.fromCharCode(byte);
    else if (byte === BYTE_MINUS && text === '') next = '-';
    else if (byte === BYTE_DOT && !this.options.integer) next = `${text}.`;
    else return DEAD;
    const parts = parse(next);
    return parts !== null && !parts.exponent && this.feasiblePlain(parts) ? next : DEAD;
  }

  /**
   * The cache key with exponents: the text, except where every exponent tail depends only on the shape,
   * the zeros around the significant digits (which bound the exponents that stay on the lattice) and
   * the sign: no bounds, or only `minimum` 0 (or `exclusiveMinimum` 0) for a text without a sign.
   */
  private exponentKey(text: string, parts: NumberParts): string {
    const signOnly =
      this.divisor === 1n &&
      this.high === null &&
      (this.low === null || (!parts.negative && (this.low === 0n || this.low === 1n)));
    if (parts.exponent || !signOnly) return text;
    const digits = parts.int + (parts.frac ?? '');
    const leading = digits.length - digits.replace(/^0+/, '').length;
    const trailing = digits.length - digits.replace(/0+$/, '').length;
    const shape = parts.int === '' ? 'e' : parts.int === '0' ? 'z' : `d${parts.int.length}`;
    return `${parts.negative ? '-' : '+'}${shape}${parts.frac === null ? '' : `.${parts.frac.length}`}^${leading}$${trailing}`;
  }

  /** Whether some completion of `text` is a number in range. */
  private feasible(text: string): boolean {
    const parts = parse(text);
    if (!parts) return false;
    if (parts.exponent) {
      if (!this.exponent || parts.int === '' || parts.frac === '') return false;
      return feasibleAfterE(this.lattice, parts);
    }
    if (this.feasiblePlain(parts)) return true;
    return this.exponent && mantissaWitness(this.lattice, parts) !== null;
  }

  /** Whether some completion of the parts, without an exponent, is a number in range. */
  private feasiblePlain(parts: NumberParts): boolean {
    const { negative, int, frac } = parts;
    const maxInt = this.options.maxDigits;
    if (int.length > maxInt) return false;
    if (frac !== null) {
      // A point needs at least one digit after it, and room for it.
      if (frac.length > this.maxFraction(int.length) || this.maxFraction(int.length) === 0) return false;
      const base = this.magnitude(int, frac) as bigint;
      const free = pow10(this.fractionDigits - frac.length);
      return this.reaches(negative, base, base + free - 1n, this.step10(int.length));
    }
    if (int === '') {
      for (let length = 1; length <= maxInt; length++) {
        const from = length === 1 ? 0n : pow10(length - 1) * this.scale;
        const to = pow10(length) * this.scale - 1n;
        if (this.reaches(negative, from, to, this.step10(length))) return true;
      }
      return false;
    }
    if (int === '0') return this.reaches(negative, 0n, this.scale - 1n, this.step10(1));
    const head = BigInt(int);
    for (let extra = 0; int.length + extra <= maxInt; extra++) {
      const unit = pow10(extra) * this.scale;
      if (this.reaches(negative, head * unit, (head + 1n) * unit - 1n, this.step10(int.length + extra))) {
        return true;
      }
    }
    return false;
  }

  /** Spacing of reachable scaled values when the integer part has `intDigits` digits. */
  private step10(intDigits: number): bigint {
    return pow10(this.fractionDigits - this.maxFraction(intDigits));
  }

  /** Whether a multiple of `step` in magnitudes [from, to] (negated when negative) is in range. */
  private reaches(negative: boolean, from: bigint, to: bigint, step: bigint): boolean {
    let lo = negative ? -to : from;
    let hi = negative ? -(from > 0n ? from : 1n) : to;
    if (this.low !== null && this.low > lo) lo = this.low;
    if (this.high !== null && this.high < hi) hi = this.high;
    if (lo > hi) return false;
    // Reachable values are the multiples of `step`; with multipleOf, of both.
    const spacing = this.divisor === 1n ? step : lcm(step, this.divisor);
    return ceilDiv(lo, spacing) * spacing <= hi;
  }
}

/** A number leaf's memo of one state text (see `NumberLeaf.memo`). */
interface StateMemo {
  steps: Map<number, unknown> | undefined;
  canEnd: boolean | undefined;
  key: string | undefined;
}

/** Most state texts a number leaf remembers (haggle's choice: a price's few hundred, with room). */
const MEMO_LIMIT = 4096;

interface NumberParts {
  negative: boolean;
  int: string;
  /** null: no point written yet. */
  frac: string | null;
  /** null: no exponent (`e`) written yet. */
  exponent: { sign: '' | '+' | '-'; digits: string } | null;
}

const PARTIAL = /^(-?)(0|[1-9][0-9]*)?(?:(\.)([0-9]*))?(?:[eE]([+-]?)([0-9]*))?$/;

function parse(text: string): NumberParts | null {
  const match = PARTIAL.exec(text);
  if (!match) return null;
  const int = match[2] ?? '';
  if (match[3] !== undefined && int === '') return null;
  const exponent =
    match[5] === undefined ? null : { sign: match[5] as '' | '+' | '-', digits: match[6] ?? '' };
  // An `e` needs a whole mantissa before it.
  if (exponent !== null && (int === '' || match[4] === '')) return null;
  return {
    negative: match[1] === '-',
    int,
    frac: match[3] === undefined ? null : (match[4] ?? ''),
    exponent,
  };
}

/**
 * How the magnitudes [from, to] sit against the bounds [low, high] (null: unbounded): E wholly outside,
 * F wholly inside, P cut by a bound.
 */
function windowClass(from: bigint, to: bigint, low: bigint | null, high: bigint | null): 'E' | 'F' | 'P' {
  if ((low !== null && to < low) || (high !== null && from > high)) return 'E';
  if ((low === null || from >= low) && (high === null || to <= high)) return 'F';
  return 'P';
}

function lcm(a: bigint, b: bigint): bigint {
  let x = a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return (a / x) * b;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b < a ? q + 1n : q;
}

/** `value * 10^digits`, floored, and whether it is an integer. Exact: works on the decimal text. */
export function scaled(value: number, digits: number): { floor: bigint; exact: boolean } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`not a finite number: ${value}`);
  const fraction = match[3] ?? '';
  const mantissa = BigInt(`${match[2]}${fraction}`) * (match[1] === '-' ? -1n : 1n);
  const exponent = Number(match[4] ?? 0) - fraction.length + digits;
  if (exponent >= 0) return { floor: mantissa * pow10(exponent), exact: true };
  const divisor = pow10(-exponent);
  let q = mantissa / divisor;
  const exact = q * divisor === mantissa;
  if (!exact && mantissa < 0n) q -= 1n;
  return { floor: q, exact };
}
