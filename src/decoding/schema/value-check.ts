import { BoundedCache } from '../../internal/bounded-cache.js';
import { UnsupportedSchemaError } from '../errors.js';
import { scaled } from '../grammar/number-leaf.js';
import { assertionsOf, type JsonType, matchesType, type Schema } from './schema-keywords.js';

/**
 * Whether one concrete JSON value satisfies a schema: JSON Schema's own semantics, for the places where
 * the compiler meets values instead of grammars (an `enum` beside other keywords, a `not` of a `const`,
 * the oneOf exclusivity proof). A keyword it cannot judge exactly (`format`) throws
 * UnsupportedSchemaError: a guess here could put a refused value into the grammar.
 */
export function satisfies(
  value: unknown,
  schema: unknown,
  resolve: (ref: string) => unknown,
  path = '#',
  /** How many checks this one is nested in (the depth of the recursion, passed down). */
  depth = 0,
): boolean {
  // A value nests only so deep, but references can chain without end (`{"$ref": "#"}` at the root).
  if (depth >= MAX_NESTED_CHECKS) {
    throw new UnsupportedSchemaError({
      keyword: '$ref',
      schemaPath: path,
      detail: 'references nest too deeply to check a value against',
    });
  }
  return satisfiesHere(value, schema, resolve, path, depth);
}

/** Most nested checks of one value (haggle's choice: far beyond any real schema, far within the stack). */
const MAX_NESTED_CHECKS = 1000;

function satisfiesHere(
  value: unknown,
  schema: unknown,
  resolve: (ref: string) => unknown,
  path: string,
  depth: number,
): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UnsupportedSchemaError({
      keyword: '(schema)',
      schemaPath: path,
      detail: 'a schema must be an object or a boolean',
    });
  }
  const s = assertionsOf(schema as Schema);
  const check = (v: unknown, sub: unknown, at: string) => satisfies(v, sub, resolve, at, depth + 1);
  for (const [keyword, arg] of Object.entries(s)) {
    if (!KEYWORDS[keyword])
      throw new UnsupportedSchemaError({
        keyword,
        schemaPath: path,
        detail: 'cannot check a value against it',
      });
    if (!KEYWORDS[keyword](value, arg, s, check, resolve, `${path}/${keyword}`)) return false;
  }
  return true;
}

type Check = (value: unknown, schema: unknown, path: string) => boolean;
type Rule = (
  value: unknown,
  arg: unknown,
  s: Schema,
  check: Check,
  resolve: (ref: string) => unknown,
  path: string,
) => boolean;

/** JSON equality: 1 and 1.0 are equal, key order does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const codePoints = (text: string): number => [...text].length;
/**
 * Regular expressions by source, bounded (haggle's choice, 1,024: `haggle serve` compiles schemas sent
 * by clients, and a cache without a bound grew with every new pattern). Module-level: JavaScript's own
 * regular expressions, the same for every vocabulary, reached from `satisfies`, which has no compiler.
 */
const patterns = new BoundedCache<string, RegExp>(1024);

/** ECMA-262 regular expressions are what JSON Schema's `pattern` means; matched unanchored. */
export function patternMatches(source: string, text: string, path: string): boolean {
  let regex = patterns.get(source);
  if (!regex) {
    try {
      regex = new RegExp(source, 'u');
    } catch {
      // Without the `u` flag ECMA-262 reads more legacy syntax (`\-` outside a class, `{` alone).
      try {
        regex = new RegExp(source);
      } catch {
        throw new UnsupportedSchemaError({
          keyword: 'pattern',
          schemaPath: path,
          detail: `not a valid regular expression: /${source}/`,
        });
      }
    }
    patterns.set(source, regex);
  }
  return regex.test(text);
}

/** Whether `value` is a multiple of `divisor`, exactly, in decimal (0.3 is a multiple of 0.1). */
export function isMultiple(value: number, divisor: number): boolean {
  const digits = Math.max(fractionDigits(value), fractionDigits(divisor));
  const v = scaled(value, digits);
  const d = scaled(divisor, digits);
  return v.exact && d.exact && d.floor !== 0n && v.floor % d.floor === 0n;
}

function fractionDigits(n: number): number {
  const match = /(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(n));
  return Math.max(0, (match?.[1]?.length ?? 0) - Number(match?.[2] ?? 0));
}

const ofType =
  (type: string, rule: (v: never, arg: unknown, s: Schema, path: string) => boolean): Rule =>
  (v, arg, s, _c, _r, path) =>
    !matchesType(v, type as JsonType) || rule(v as never, arg, s, path);

const number = (arg: unknown, keyword: string, path: string): number => {
  if (typeof arg !== 'number')
    throw new UnsupportedSchemaError({ keyword, schemaPath: path, detail: 'not a number' });
  return arg;
};

const KEYWORDS: Record<string, Rule> = {
  type: (v, arg) => (Array.isArray(arg) ? arg : [arg]).some((t) => matchesType(v, t as JsonType)),
  enum: (v, arg) => Array.isArray(arg) && arg.some((x) => sameValue(v, x)),
  const: (v, arg) => sameValue(v, arg),
  multipleOf: ofType('number', (v: number, arg, _s, path) => isMultiple(v, number(arg, 'multipleOf', path))),
  minimum: ofType('number', (v: number, arg, s, path) =>
    s.exclusiveMinimum === true ? v > number(arg, 'minimum', path) : v >= number(arg, 'minimum', path),
  ),
  maximum: ofType('number', (v: number, arg, s, path) =>
    s.exclusiveMaximum === true ? v < number(arg, 'maximum', path) : v <= number(arg, 'maximum', path),
  ),
  exclusiveMinimum: ofType('number', (v: number, arg) => typeof arg !== 'number' || v > arg),
  exclusiveMaximum: ofType('number', (v: number, arg) => typeof arg !== 'number' || v < arg),
  minLength: ofType('string', (v: string, arg) => codePoints(v) >= (arg as number)),
  maxLength: ofType('string', (v: string, arg) => codePoints(v) <= (arg as number)),
  pattern: ofType('string', (v: string, arg, _s, path) => patternMatches(String(arg), v, path)),
  minItems: ofType('array', (v: unknown[], arg) => v.length >= (arg as number)),
  maxItems: ofType('array', (v: unknown[], arg) => v.length <= (arg as number)),
  uniqueItems: ofType(
    'array',
    (v: unknown[], arg) => arg !== true || new Set(v.map(canonical)).size === v.length,
  ),
  items: (v, arg, s, check, _r, path) => {
    if (!Array.isArray(v)) return true;
    if (Array.isArray(arg)) {
      const rest = s.additionalItems ?? true;
      return v.every((x, i) => check(x, i < arg.length ? arg[i] : rest, path));
    }
    const from = Array.isArray(s.prefixItems) ? s.prefixItems.length : 0;
    return v.slice(from).every((x) => check(x, arg, path));
  },
  prefixItems: (v, arg, _s, check, _r, path) =>
    !Array.isArray(v) || !Array.isArray(arg) || v.every((x, i) => i >= arg.length || check(x, arg[i], path)),
  additionalItems: () => true, // read by `items`
  contains: (v, arg, s, check, _r, path) => {
    if (!Array.isArray(v)) return true;
    const count = v.filter((x) => check(x, arg, path)).length;
    const min = typeof s.minContains === 'number' ? s.minContains : 1;
    const max = typeof s.maxContains === 'number' ? s.maxContains : Number.POSITIVE_INFINITY;
    return count >= min && count <= max;
  },
  minContains: () => true, // read by `contains`
  maxContains: () => true,
  required: (v, arg) => !isObject(v) || (arg as string[]).every((k) => k in v),
  minProperties: (v, arg) => !isObject(v) || Object.keys(v).length >= (arg as number),
  maxProperties: (v, arg) => !isObject(v) || Object.keys(v).length <= (arg as number),
  properties: (v, arg, _s, check, _r, path) =>
    !isObject(v) ||
    Object.entries(arg as Record<string, unknown>).every(([k, sub]) => !(k in v) || check(v[k], sub, path)),
  patternProperties: (v, arg, _s, check, _r, path) =>
    !isObject(v) ||
    Object.entries(arg as Record<string, unknown>).every(([p, sub]) =>
      Object.keys(v).every((k) => !patternMatches(p, k, path) || check(v[k], sub, path)),
    ),
  additionalProperties: (v, arg, s, check, _r, path) => {
    if (!isObject(v)) return true;
    const declared = Object.keys((s.properties ?? {}) as object);
    const patternList = Object.keys((s.patternProperties ?? {}) as object);
    return Object.keys(v).every(
      (k) =>
        declared.includes(k) || patternList.some((p) => patternMatches(p, k, path)) || check(v[k], arg, path),
    );
  },
  propertyNames: (v, arg, _s, check, _r, path) =>
    !isObject(v) || Object.keys(v).every((k) => check(k, arg, path)),
  dependentRequired: (v, arg) =>
    !isObject(v) ||
    Object.entries(arg as Record<string, string[]>).every(
      ([k, needs]) => !(k in v) || needs.every((n) => n in v),
    ),
  dependentSchemas: (v, arg, _s, check, _r, path) =>
    !isObject(v) ||
    Object.entries(arg as Record<string, unknown>).every(([k, sub]) => !(k in v) || check(v, sub, path)),
  dependencies: (v, arg, _s, check, _r, path) =>
    !isObject(v) ||
    Object.entries(arg as Record<string, unknown>).every(
      ([k, dep]) => !(k in v) || (Array.isArray(dep) ? dep.every((n) => n in v) : check(v, dep, path)),
    ),
  allOf: (v, arg, _s, check, _r, path) => (arg as unknown[]).every((sub, i) => check(v, sub, `${path}/${i}`)),
  anyOf: (v, arg, _s, check, _r, path) => (arg as unknown[]).some((sub, i) => check(v, sub, `${path}/${i}`)),
  oneOf: (v, arg, _s, check, _r, path) =>
    (arg as unknown[]).filter((sub, i) => check(v, sub, `${path}/${i}`)).length === 1,
  not: (v, arg, _s, check, _r, path) => !check(v, arg, path),
  if: (v, arg, s, check, _r, path) =>
    check(v, arg, path) ? check(v, s.then ?? true, path) : check(v, s.else ?? true, path),
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, read by `if`
  then: () => true,
  else: () => true,
  $ref: (v, arg, _s, check, resolve, path) => check(v, resolve(String(arg)), path),
  $defs: () => true,
  definitions: () => true,
};
