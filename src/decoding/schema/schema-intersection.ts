import { UnsupportedSchemaError } from '../errors.js';
import { ANNOTATIONS, assertionsOf, type Schema } from './schema-keywords.js';
import { isMultiple, patternMatches, sameValue } from './value-check.js';

/**
 * The intersection of two schemas as one schema: what `allOf`, a `$ref` with siblings and the keywords
 * beside `oneOf` mean. Both inputs are flat (no `allOf`, `$ref`, `not`, `if` or `oneOf` at their top;
 * see schema-algebra.ts). Subschemas are not opened: two schemas for the same property become
 * `{allOf: [a, b]}`, flattened only if the compiler reaches them, which keeps recursive definitions
 * finite. A keyword whose two values cannot be combined exactly is refused. `false`: nothing matches.
 */
export function intersect(a: Schema, b: Schema, path: string): Schema | false {
  const out: Schema = {};
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (OBJECT_MEMBERS.has(key) || BOUNDS.has(key) || key === 'const' || key === 'enum') continue;
    const x = a[key];
    const y = b[key];
    if (x === undefined || y === undefined || sameValue(x, y)) {
      out[key] = x ?? y;
      continue;
    }
    const combine = COMBINE[key];
    if (!combine)
      throw new UnsupportedSchemaError({
        keyword: key,
        schemaPath: path,
        detail: 'two different values under allOf',
      });
    const merged = combine(x, y, path);
    if (merged === NOTHING) return false;
    out[key] = merged;
  }
  if (!mergeValues(a, b, out) || !mergeBounds(a, b, out, path)) return false;
  mergeObjectMembers(a, b, out, path);
  return out;
}

/** `a` and `b` together, without opening them (see intersect). */
export function both(a: unknown, b: unknown): unknown {
  if (isTrue(a)) return b;
  if (isTrue(b) || sameValue(a, b)) return a;
  if (a === false || b === false) return false;
  return { allOf: [a, b] };
}

export function isTrue(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  return Object.keys(assertionsOf(schema as Schema)).every((k) => ANNOTATIONS.has(k));
}

const NOTHING = Symbol('nothing');
type Combine = (x: unknown, y: unknown, path: string) => unknown;

const larger: Combine = (x, y) => Math.max(x as number, y as number);
const smaller: Combine = (x, y) => Math.min(x as number, y as number);

const COMBINE: Record<string, Combine> = {
  type: (x, y) => {
    const list = (t: unknown) => (Array.isArray(t) ? t : [t]) as string[];
    const left = list(x);
    const right = list(y);
    // integer is a subset of number: integer ∩ number = integer.
    const has = (types: string[], t: string) =>
      types.includes(t) || (t === 'integer' && types.includes('number'));
    const common = [...new Set([...left.filter((t) => has(right, t)), ...right.filter((t) => has(left, t))])];
    const types = common.includes('number') ? common.filter((t) => t !== 'integer') : common;
    return types.length === 0 ? NOTHING : types.length === 1 ? types[0] : types;
  },
  minLength: larger,
  minItems: larger,
  minProperties: larger,
  minContains: larger,
  maxLength: smaller,
  maxItems: smaller,
  maxProperties: smaller,
  maxContains: smaller,
  uniqueItems: (x, y) => x === true || y === true,
  required: (x, y) => [...new Set([...(x as string[]), ...(y as string[])])],
  items: (x, y, path) => {
    if (Array.isArray(x) || Array.isArray(y))
      throw new UnsupportedSchemaError({ keyword: 'items', schemaPath: path, detail: 'a tuple under allOf' });
    return both(x, y);
  },
  multipleOf: (x, y, path) => {
    const m = x as number;
    const n = y as number;
    if (isMultiple(m, n)) return m;
    if (isMultiple(n, m)) return n;
    if (Number.isInteger(m) && Number.isInteger(n)) return (m / gcd(m, n)) * n;
    throw new UnsupportedSchemaError({
      keyword: 'multipleOf',
      schemaPath: path,
      detail: 'two unrelated divisors',
    });
  },
  anyOf: (x, y, path) => {
    const left = x as unknown[];
    const right = y as unknown[];
    if (left.length * right.length > 64) {
      throw new UnsupportedSchemaError({
        keyword: 'anyOf',
        schemaPath: path,
        detail: 'two anyOf lists too long to distribute',
      });
    }
    return left.flatMap((l) => right.map((r) => both(l, r)));
  },
  // Definitions are found through the document, never through the merged schema.
  $defs: () => undefined,
  definitions: () => undefined,
};

function gcd(a: number, b: number): number {
  return b === 0 ? Math.abs(a) : gcd(b, a % b);
}

/** enum and const: the common values. */
function mergeValues(a: Schema, b: Schema, out: Schema): boolean {
  const valuesOf = (s: Schema): unknown[] | null => {
    const listed = Array.isArray(s.enum) ? s.enum : null;
    if (s.const === undefined) return listed;
    return listed === null || listed.some((v) => sameValue(v, s.const)) ? [s.const] : [];
  };
  const x = valuesOf(a);
  const y = valuesOf(b);
  if (x === null && y === null) return true;
  const values = x === null ? y : y === null ? x : x.filter((v) => y.some((w) => sameValue(v, w)));
  if (!values || values.length === 0) return false;
  delete out.const;
  out.enum = values;
  if (a.const !== undefined && b.const !== undefined) {
    // keep const's spelling when both sides agreed on one value
    delete out.enum;
    out.const = values[0];
  }
  return true;
}

const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

interface Bound {
  value: number;
  exclusive: boolean;
}

/** minimum, maximum and their exclusive forms (draft 4's booleans too): the tightest of each side. */
function mergeBounds(a: Schema, b: Schema, out: Schema, path: string): boolean {
  const lower = tightest(
    [
      ...boundsOf(a, 'minimum', 'exclusiveMinimum', path),
      ...boundsOf(b, 'minimum', 'exclusiveMinimum', path),
    ],
    true,
  );
  const upper = tightest(
    [
      ...boundsOf(a, 'maximum', 'exclusiveMaximum', path),
      ...boundsOf(b, 'maximum', 'exclusiveMaximum', path),
    ],
    false,
  );
  if (lower) out[lower.exclusive ? 'exclusiveMinimum' : 'minimum'] = lower.value;
  if (upper) out[upper.exclusive ? 'exclusiveMaximum' : 'maximum'] = upper.value;
  // Bounds that cross leave numbers empty, not the schema: strings still match. compile-number refuses.
  return true;
}

function boundsOf(s: Schema, inclusive: string, exclusive: string, path: string): Bound[] {
  const out: Bound[] = [];
  const plain = s[inclusive];
  const strict = s[exclusive];
  if (plain !== undefined) {
    if (typeof plain !== 'number')
      throw new UnsupportedSchemaError({ keyword: inclusive, schemaPath: path, detail: 'not a number' });
    out.push({ value: plain, exclusive: strict === true });
  }
  if (typeof strict === 'number') out.push({ value: strict, exclusive: true });
  else if (strict !== undefined && typeof strict !== 'boolean') {
    throw new UnsupportedSchemaError({ keyword: exclusive, schemaPath: path, detail: 'not a number' });
  }
  return out;
}

function tightest(bounds: Bound[], lower: boolean): Bound | undefined {
  return bounds.reduce<Bound | undefined>((best, b) => {
    if (!best) return b;
    if (b.value === best.value) return b.exclusive ? b : best;
    return lower === b.value > best.value ? b : best;
  }, undefined);
}

const OBJECT_MEMBERS = new Set(['properties', 'patternProperties', 'additionalProperties']);

/**
 * properties, patternProperties and additionalProperties. A key declared on one side only must still
 * satisfy what the other side says of undeclared keys; patterns of both sides apply to every key, as
 * they do within one schema. What cannot be expressed: a key that matches a pattern of one side only
 * while the other side constrains undeclared keys (the merged additionalProperties would skip it).
 */
function mergeObjectMembers(a: Schema, b: Schema, out: Schema, path: string): void {
  const pa = membersOf(a, 'properties', path);
  const pb = membersOf(b, 'properties', path);
  const qa = membersOf(a, 'patternProperties', path);
  const qb = membersOf(b, 'patternProperties', path);
  for (const [mine, theirs, other] of [
    [qa, qb, b],
    [qb, qa, a],
  ] as const) {
    const onlyMine = Object.keys(mine).filter((p) => !(p in theirs));
    if (
      onlyMine.length > 0 &&
      other.additionalProperties !== undefined &&
      !isTrue(other.additionalProperties)
    ) {
      throw new UnsupportedSchemaError({
        keyword: 'patternProperties',
        schemaPath: path,
        detail: 'a pattern on one side of allOf and additionalProperties on the other',
      });
    }
  }
  // What a side requires of a key it does not declare, patterns aside (those stay in force).
  const undeclared = (s: Schema, patterns: Record<string, unknown>, key: string): unknown =>
    Object.keys(patterns).some((p) => patternMatches(p, key, path)) ? true : (s.additionalProperties ?? true);
  const names = [...new Set([...Object.keys(pa), ...Object.keys(pb)])];
  if (names.length > 0) {
    out.properties = Object.fromEntries(
      names.map((k) => [
        k,
        both(k in pa ? pa[k] : undeclared(a, qa, k), k in pb ? pb[k] : undeclared(b, qb, k)),
      ]),
    );
  }
  const patternNames = [...new Set([...Object.keys(qa), ...Object.keys(qb)])];
  if (patternNames.length > 0) {
    out.patternProperties = Object.fromEntries(
      patternNames.map((p) => [p, p in qa && p in qb ? both(qa[p], qb[p]) : (qa[p] ?? qb[p])]),
    );
  }
  if (a.additionalProperties !== undefined || b.additionalProperties !== undefined) {
    out.additionalProperties =
      a.additionalProperties === undefined
        ? b.additionalProperties
        : b.additionalProperties === undefined
          ? a.additionalProperties
          : both(a.additionalProperties, b.additionalProperties);
  }
}

function membersOf(s: Schema, keyword: string, path: string): Record<string, unknown> {
  const value = s[keyword] ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UnsupportedSchemaError({ keyword, schemaPath: path, detail: 'not an object' });
  }
  return value as Record<string, unknown>;
}
