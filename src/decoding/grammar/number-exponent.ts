/**
 * The exponent part of a JSON number (`1.256e-05`, `2E+3`), for NumberLeaf under
 * `numberSyntax: 'json'`. The values a leaf accepts stay the same with or without exponents: the
 * multiples of 10^-F (F fraction digits) below 10^D in magnitude (D digits), within the bounds and a
 * multiple of `multipleOf`; in scaled units, the integers k with |k| < 10^(D+F). An exponent only adds
 * spellings of them. Everything here is exact, in BigInt.
 */

/** What NumberLeaf knows of its values, in scaled units (value * 10^F). */
export interface Lattice {
  /** F: digits after the point. */
  fractionDigits: number;
  /** D: most digits of a mantissa as written, and of the integer part of a value. */
  maxDigits: number;
  /** Whether a multiple of `step` in magnitudes [from, to] (negated when negative) is a value. */
  reaches(negative: boolean, from: bigint, to: bigint, step: bigint): boolean;
  /** Whether the scaled value is in range and a multiple of multipleOf. */
  accepts(scaled: bigint): boolean;
}

/** A number's text cut into its parts (any of them may still be partial). */
export interface ExponentParts {
  negative: boolean;
  int: string;
  frac: string | null;
  /** null: no `e` yet; else what follows it: a sign ('' when none yet) and digits. */
  exponent: { sign: '' | '+' | '-'; digits: string } | null;
}

/** Powers of ten a number leaf reads (digits and fraction digits stay under 40), made once. */
const POWERS_OF_TEN: bigint[] = [1n];
for (let k = 1; k <= 40; k++) POWERS_OF_TEN.push((POWERS_OF_TEN[k - 1] as bigint) * 10n);

/**
 * 10^n as a BigInt: from the table where it holds it. A number leaf asks for these at every digit of
 * every bound check (`feasiblePlain` for each count of digits still to come), and `10n ** BigInt(n)`
 * made each afresh: a fifth of an offer schema's compile (issue 45).
 */
export function pow10(n: number): bigint {
  return POWERS_OF_TEN[n] ?? 10n ** BigInt(n);
}

/** The scaled value of mantissa digits `digits` with `frac` of them after the point, times 10^e; null off the lattice. */
function scaledValue(lattice: Lattice, digits: bigint, frac: number, e: number): bigint | null {
  const j = e - frac + lattice.fractionDigits;
  if (j >= 0) return digits * pow10(j);
  const divisor = pow10(-j);
  return digits % divisor === 0n ? digits / divisor : null;
}

const below = (lattice: Lattice): bigint => pow10(lattice.maxDigits + lattice.fractionDigits);

/** Exponents worth trying for a nonzero mantissa: outside them the value is off the lattice. */
function exponentWindow(lattice: Lattice, digits: string, frac: number): [number, number] {
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  const significant = digits.replace(/^0+/, '').length;
  return [frac - lattice.fractionDigits - trailing, lattice.maxDigits + frac - significant];
}

/** Whether exponent `e` can still be written after the sign and digits typed so far. */
function consistent(e: number, sign: '' | '+' | '-', typed: string): boolean {
  if (sign === '-' && e > 0) return false;
  if ((sign === '+' || (sign === '' && typed !== '')) && e < 0) return false;
  const head = typed.replace(/^0+/, '');
  return head === '' || String(Math.abs(e)).startsWith(head);
}

/** After the `e`: the exponents that complete the text to a value (in order of size), none if it cannot end. */
function exponentsAfterE(lattice: Lattice, parts: ExponentParts): number[] {
  const { sign, digits: typed } = parts.exponent as NonNullable<ExponentParts['exponent']>;
  const mantissa = parts.int + (parts.frac ?? '');
  const frac = parts.frac?.length ?? 0;
  const m = BigInt(mantissa);
  const fits = (e: number): boolean => {
    if (!consistent(e, sign, typed)) return false;
    const k = scaledValue(lattice, m, frac, e);
    if (k === null || k >= below(lattice)) return false;
    if (parts.negative && k === 0n) return false; // no -0
    return lattice.accepts(parts.negative ? -k : k);
  };
  if (m === 0n) {
    // Zero whatever the exponent: the shortest one that can still be written.
    const candidates = [0, 1, -1];
    return candidates.filter(fits).slice(0, 1);
  }
  const [low, high] = exponentWindow(lattice, mantissa, frac);
  const out: number[] = [];
  for (let e = low; e <= high; e++) if (fits(e)) out.push(e);
  return out.sort((a, b) => Math.abs(a) - Math.abs(b));
}

/** Whether some completion of a text with an `e` is a value. */
export function feasibleAfterE(lattice: Lattice, parts: ExponentParts): boolean {
  return exponentsAfterE(lattice, parts).length > 0;
}

/** Whether a text with an `e` and exponent digits is a value as it stands. */
export function endsAfterE(lattice: Lattice, parts: ExponentParts): boolean {
  const exponent = parts.exponent;
  if (exponent === null || exponent.digits === '') return false;
  const e = Number(exponent.digits) * (exponent.sign === '-' ? -1 : 1);
  if (!Number.isSafeInteger(e)) return false;
  const k = scaledValue(lattice, BigInt(parts.int + (parts.frac ?? '')), parts.frac?.length ?? 0, e);
  if (k === null || k >= below(lattice) || (parts.negative && k === 0n)) return false;
  return lattice.accepts(parts.negative ? -k : k);
}

/**
 * Before the `e`: a value some continuation of the mantissa followed by an exponent spells, or null.
 * The mantissa keeps the plain limits (at most D digits in all); what it spells, times 10^e, is the
 * digit string w (its significant digits so far, S, then more) shifted by any power of ten.
 */
export function mantissaWitness(lattice: Lattice, parts: ExponentParts): bigint | null {
  const D = lattice.maxDigits;
  const total = D + lattice.fractionDigits;
  const written = parts.int + (parts.frac ?? '');
  if (parts.int === '' && parts.frac !== null) return null;
  const room = D - written.length;
  if (room < 0 || (parts.frac === '' && room < 1)) return null;
  const S = written.replace(/^0+/, '');
  const negative = parts.negative;
  const find = (from: bigint, to: bigint, step: bigint): bigint | null => {
    if (!lattice.reaches(negative, from, to, step)) return null;
    // The smallest such magnitude: bisect on `reaches` (a few dozen steps of BigInt arithmetic).
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if (lattice.reaches(negative, lo, mid, step)) hi = mid;
      else lo = mid + 1n;
    }
    return lo;
  };
  if (S === '') {
    // Nothing significant yet: zero (written plainly, not here), or any value with at most `room` digits.
    for (let n = 1; n <= total; n++) {
      const step = pow10(Math.max(0, n - room));
      const k = find(pow10(n - 1), pow10(n) - 1n, step);
      if (k !== null) return k;
    }
    return null;
  }
  const s = BigInt(S);
  const stripped = S.replace(/0+$/, '');
  const zeros = S.length - stripped.length;
  // w = S' (the digits so far without trailing zeros), shifted less than S is.
  for (let p = 0; p < zeros; p++) {
    const k = BigInt(stripped) * pow10(p);
    if (k < pow10(total) && find(k, k, 1n) !== null) return k;
  }
  // w = S followed by q more digits (the last of them free only within the room left).
  for (let q = 0; S.length + q <= total; q++) {
    const step = pow10(Math.max(0, q - room));
    const k = find(s * pow10(q), (s + 1n) * pow10(q) - 1n, step);
    if (k !== null) return k;
  }
  return null;
}

/**
 * Bytes that finish a text which only an exponent can complete: the mantissa digits a witness value
 * needs, then `e` and the exponent. `witness` (a nonzero magnitude) comes from mantissaWitness.
 */
export function completeWithExponent(lattice: Lattice, parts: ExponentParts, witness: bigint): string {
  const written = parts.int + (parts.frac ?? '');
  const S = written.replace(/^0+/, '');
  const target = witness.toString().replace(/0+$/, '');
  const more = target.length > S.length ? target.slice(S.length) : '';
  let text: string;
  let mantissa: string;
  let frac: number;
  if (parts.int === '') {
    [text, mantissa, frac] = [target, target, 0];
  } else if (parts.frac === null) {
    if (parts.int === '0') [text, mantissa, frac] = [`.${target}`, `0${target}`, target.length];
    else [text, mantissa, frac] = [more, parts.int + more, 0];
  } else {
    const digits = more === '' && parts.frac === '' ? '0' : more;
    [text, mantissa, frac] = [digits, written + digits, parts.frac.length + digits.length];
  }
  const m = BigInt(mantissa);
  // witness = m * 10^j, a power of ten apart by construction; then e = j + frac - F.
  let j = 0;
  if (m <= witness) while (j < 64 && m * pow10(j) < witness) j++;
  else while (j > -64 && m > witness * pow10(-j)) j--;
  return `${text}e${j + frac - lattice.fractionDigits}`;
}

/** The rest of an exponent after what is typed: the digits of the chosen e (and its sign if none yet). */
export function finishExponent(lattice: Lattice, parts: ExponentParts): string {
  const exponent = parts.exponent as NonNullable<ExponentParts['exponent']>;
  const e = exponentsAfterE(lattice, parts)[0] as number;
  const abs = String(Math.abs(e));
  const sign = exponent.sign === '' && exponent.digits === '' && e < 0 ? '-' : '';
  const head = exponent.digits.replace(/^0+/, '');
  if (exponent.digits !== '' && head === '') return e === 0 ? '' : abs;
  return sign + abs.slice(head.length);
}
