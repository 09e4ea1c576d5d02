import { UnsupportedSchemaError } from '../errors.js';
import type { CompileBudget } from './compile-budget.js';
import { ALL_TYPES, type Flat, type Schema } from './schema-keywords.js';
import { patternMatches, satisfies } from './value-check.js';

/**
 * What the exclusivity check asks of the schema algebra (SchemaAlgebra implements it): flattening,
 * intersecting, resolving references, and its budget. An interface here so that the algebra, which
 * calls the check, and the check do not import each other.
 */
export interface SchemaMeet {
  readonly budget: CompileBudget;
  flatten(schema: unknown, path: string): Flat;
  meet(a: Flat, b: Flat, path: string): Flat;
  resolve(ref: string): unknown;
}

/**
 * oneOf means exactly one branch matches. The grammar reads branches as alternatives, which is right
 * only when no value can match two of them; so every pair of (flattened) branches must be provably
 * disjoint. A pair that cannot be proven disjoint is refused, never guessed.
 */
export function checkExclusive(
  branches: ReadonlyArray<{ branch: Flat; index: number }>,
  path: string,
  algebra: SchemaMeet,
): void {
  const proof = new Disjointness(algebra, path);
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      algebra.budget.tick(path);
      const a = branches[i] as { branch: Flat; index: number };
      const b = branches[j] as { branch: Flat; index: number };
      if (!proof.disjoint(a.branch, b.branch, 0)) {
        throw new UnsupportedSchemaError({
          keyword: 'oneOf',
          schemaPath: path,
          detail: `branches ${a.index} and ${b.index} may both match; exclusivity cannot be enforced (anyOf would be)`,
        });
      }
    }
  }
}

/** How deep the proof follows properties and items before giving up. */
const MAX_DEPTH = 4;

class Disjointness {
  constructor(
    private readonly algebra: SchemaMeet,
    private readonly path: string,
  ) {}

  /** True only when no value matches both: by types, values, ranges, or a property or item. */
  disjoint(a: Flat, b: Flat, depth: number): boolean {
    if (a === false || b === false) return true;
    if (depth > MAX_DEPTH) return false;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      // A value of one side is in the other only if the other's siblings and some branch take it.
      if (Array.isArray(x.anyOf)) {
        const { anyOf, ...siblings } = x;
        return anyOf.every((branch) => this.disjoint(this.safeMeet(siblings, branch), y, depth));
      }
    }
    const ta = typesOf(a);
    const tb = typesOf(b);
    const common = ALL_TYPES.filter((t) => ta.has(t) && tb.has(t));
    if (common.length === 0) return true;
    if (this.valuesRefused(a, b) || this.valuesRefused(b, a)) return true;
    // Beyond this point, each argument holds for one type: both sides must admit that type alone.
    if (common.length > 1 || ta.size > 1 || tb.size > 1) return false;
    switch (common[0]) {
      case 'number':
        return numbersDisjoint(a, b);
      case 'string':
        return rangesDisjoint(a, b, 'minLength', 'maxLength');
      case 'array':
        return rangesDisjoint(a, b, 'minItems', 'maxItems') || this.itemsDisjoint(a, b, depth);
      case 'object':
        return this.objectsDisjoint(a, b, depth);
      default:
        return false;
    }
  }

  private safeMeet(a: Schema, branch: unknown): Flat {
    return this.algebra.meet(a, this.algebra.flatten(branch, this.path), this.path);
  }

  /** Every listed value of `a` is refused by `b`. */
  private valuesRefused(a: Schema, b: Schema): boolean {
    const values = a.const !== undefined ? [a.const] : Array.isArray(a.enum) ? a.enum : null;
    if (values === null) return false;
    try {
      return values.every(
        (v) => !satisfies(v, a, this.algebra.resolve) || !satisfies(v, b, this.algebra.resolve),
      );
    } catch (error) {
      if (error instanceof UnsupportedSchemaError) return false;
      throw error;
    }
  }

  private itemsDisjoint(a: Schema, b: Schema, depth: number): boolean {
    const nonEmpty = (s: Schema) => typeof s.minItems === 'number' && s.minItems >= 1;
    if (!nonEmpty(a) || !nonEmpty(b) || Array.isArray(a.items) || Array.isArray(b.items)) return false;
    if (a.prefixItems !== undefined || b.prefixItems !== undefined) return false;
    return this.disjoint(this.sub(a.items ?? true), this.sub(b.items ?? true), depth + 1);
  }

  /** A key one side requires and the other forbids, or requires with a disjoint schema. */
  private objectsDisjoint(a: Schema, b: Schema, depth: number): boolean {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const name of requiredOf(x)) {
        if (this.forbids(y, name)) return true;
        const px = propertiesOf(x);
        const py = propertiesOf(y);
        if (requiredOf(y).includes(name) && name in px && name in py) {
          if (this.disjoint(this.sub(px[name]), this.sub(py[name]), depth + 1)) return true;
        }
      }
    }
    return false;
  }

  /** Whether `s` refuses every object that has the key `name` (explicitly: never by a default). */
  private forbids(s: Schema, name: string): boolean {
    const properties = propertiesOf(s);
    if (name in properties) return properties[name] === false;
    if (s.additionalProperties !== false) return false;
    const patterns = Object.keys((s.patternProperties ?? {}) as object);
    try {
      return !patterns.some((p) => patternMatches(p, name, this.path));
    } catch {
      return false;
    }
  }

  private sub(schema: unknown): Flat {
    try {
      return this.algebra.flatten(schema, this.path);
    } catch (error) {
      if (error instanceof UnsupportedSchemaError) return {};
      throw error;
    }
  }
}

/** The JSON types a flat schema admits (`integer` counted as `number`). */
function typesOf(s: Schema): Set<string> {
  const values = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : null;
  const listed = s.type === undefined ? null : ((Array.isArray(s.type) ? s.type : [s.type]) as string[]);
  const types = new Set<string>(ALL_TYPES);
  if (listed)
    for (const t of ALL_TYPES)
      if (!listed.includes(t) && !(t === 'number' && listed.includes('integer'))) types.delete(t);
  if (values) {
    const ofValues = new Set(values.map(jsonTypeOf));
    for (const t of [...types]) if (!ofValues.has(t)) types.delete(t);
  }
  return types;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function requiredOf(s: Schema): string[] {
  return Array.isArray(s.required) ? (s.required as string[]) : [];
}

function propertiesOf(s: Schema): Record<string, unknown> {
  const p = s.properties;
  return typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
}

/** Two number ranges with no common value. */
function numbersDisjoint(a: Schema, b: Schema): boolean {
  const la = lowerOf(a);
  const ua = upperOf(a);
  const lb = lowerOf(b);
  const ub = upperOf(b);
  const below = (u: [number, boolean] | null, l: [number, boolean] | null) =>
    u !== null && l !== null && (u[0] < l[0] || (u[0] === l[0] && (u[1] || l[1])));
  return below(ua, lb) || below(ub, la);
}

/** [value, exclusive] of the lower bound, from either spelling. */
function lowerOf(s: Schema): [number, boolean] | null {
  if (typeof s.exclusiveMinimum === 'number') return [s.exclusiveMinimum, true];
  return typeof s.minimum === 'number' ? [s.minimum, s.exclusiveMinimum === true] : null;
}

function upperOf(s: Schema): [number, boolean] | null {
  if (typeof s.exclusiveMaximum === 'number') return [s.exclusiveMaximum, true];
  return typeof s.maximum === 'number' ? [s.maximum, s.exclusiveMaximum === true] : null;
}

function rangesDisjoint(a: Schema, b: Schema, min: string, max: string): boolean {
  const lo = (s: Schema) => (typeof s[min] === 'number' ? (s[min] as number) : 0);
  const hi = (s: Schema) => (typeof s[max] === 'number' ? (s[max] as number) : Number.POSITIVE_INFINITY);
  return hi(a) < lo(b) || hi(b) < lo(a);
}
