import { UnsatisfiableSchemaError, UnsupportedSchemaError } from '../errors.js';
import type { GrammarNode } from '../grammar/nodes.js';
import { type NumberBound, NumberLeaf } from '../grammar/number-leaf.js';
import type { Schema } from '../schema/schema-keywords.js';
import type { CompileContext } from './compile-context.js';

/** Most digits of an unbounded integer under `numberSyntax: 'json'` (haggle's choice: far beyond ids). */
const LONG_INTEGER_DIGITS = 100;

/** `type: number` or `integer` with its bounds and multipleOf, enforced digit by digit. */
export function compileNumber(c: CompileContext, s: Schema, path: string, integer: boolean): GrammarNode {
  const lower = bound(s, 'minimum', 'exclusiveMinimum', path);
  const upper = bound(s, 'maximum', 'exclusiveMaximum', path);
  const multipleOf = s.multipleOf;
  if (multipleOf !== undefined) {
    if (typeof multipleOf !== 'number' || !(multipleOf > 0) || !Number.isFinite(multipleOf)) {
      throw new UnsupportedSchemaError({
        keyword: 'multipleOf',
        schemaPath: path,
        detail: 'not a positive number',
      });
    }
    const digits = { integer, maxFractionDigits: c.maxFractionDigits };
    if (!NumberLeaf.supportsMultipleOf(multipleOf, digits)) {
      throw new UnsupportedSchemaError({
        keyword: 'multipleOf',
        schemaPath: path,
        detail: 'more fraction digits than numbers are written with',
      });
    }
  }
  // An integer with no bound and no multipleOf has no value JSON.parse could misread into breaking a
  // rule, so under `numberSyntax: 'json'` it may be as long as JSON allows (an id written as a number),
  // up to LONG_INTEGER_DIGITS; maxDigits keeps bounded values exact as doubles.
  const longIntegers = integer && c.numberSyntax === 'json' && !lower && !upper && multipleOf === undefined;
  const leaf = c.add(
    (id) =>
      new NumberLeaf(id, {
        integer,
        lower,
        upper,
        maxFractionDigits: c.maxFractionDigits,
        maxDigits: longIntegers ? LONG_INTEGER_DIGITS : c.maxDigits,
        exponent: c.numberSyntax === 'json',
        ...(multipleOf === undefined ? {} : { multipleOf: multipleOf as number }),
      }),
  );
  if (!leaf.satisfiable()) {
    throw new UnsatisfiableSchemaError({
      schemaPath: path,
      detail: `no ${integer ? 'integer' : 'number'} is within the bounds`,
    });
  }
  return leaf;
}

function bound(s: Schema, inclusive: string, exclusive: string, path: string): NumberBound | undefined {
  const candidates: NumberBound[] = [];
  const plain = s[inclusive];
  const strict = s[exclusive];
  if (plain !== undefined) {
    if (typeof plain !== 'number' || !Number.isFinite(plain))
      throw new UnsupportedSchemaError({ keyword: inclusive, schemaPath: path, detail: 'not a number' });
    // Draft 4 spelled exclusive bounds as `exclusiveMinimum: true` beside `minimum`.
    candidates.push({ value: plain, exclusive: strict === true });
  }
  if (typeof strict === 'number') {
    if (!Number.isFinite(strict))
      throw new UnsupportedSchemaError({
        keyword: exclusive,
        schemaPath: path,
        detail: 'not a finite number',
      });
    candidates.push({ value: strict, exclusive: true });
  } else if (strict !== undefined && typeof strict !== 'boolean') {
    throw new UnsupportedSchemaError({ keyword: exclusive, schemaPath: path, detail: 'not a number' });
  }
  const lower = inclusive === 'minimum';
  // The tighter of the two applies.
  return candidates.reduce<NumberBound | undefined>((tightest, b) => {
    if (!tightest) return b;
    if (b.value === tightest.value) return b.exclusive ? b : tightest;
    return lower === b.value > tightest.value ? b : tightest;
  }, undefined);
}
