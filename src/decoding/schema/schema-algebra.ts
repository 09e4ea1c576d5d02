import { UnsupportedSchemaError } from '../errors.js';
import { type CompileBudget, UNBOUNDED } from './compile-budget.js';
import { checkExclusive, type SchemaMeet } from './oneof-exclusivity.js';
import { intersect, isTrue } from './schema-intersection.js';
import { ALL_TYPES, assertionsOf, type Flat, type Schema } from './schema-keywords.js';
import { sameValue, satisfies } from './value-check.js';

/**
 * Rewrites the keywords that combine schemas into the ones the compiler reads directly: `allOf` and a
 * `$ref` with siblings become one intersected schema, a provably exclusive `oneOf` becomes `anyOf`,
 * `if/then/else` becomes `anyOf[if ∧ then, ¬if ∧ else]`, and `not` is folded where its complement is
 * expressible. Only the top level is rewritten; subschemas wait until the compiler reaches them.
 */
export class SchemaAlgebra implements SchemaMeet {
  /**
   * `refOverridesSiblings`: drafts 4 to 7 say the other keywords of a schema with `$ref` are ignored;
   * from 2019-09 on they apply as well.
   */
  constructor(
    private readonly resolveRef: (ref: string, path: string) => unknown,
    private readonly refOverridesSiblings = false,
    readonly budget: CompileBudget = UNBOUNDED,
  ) {}

  resolve = (ref: string): unknown => this.resolveRef(ref, '#');

  /**
   * The schema, intersected with `context` (what is already known of the value: a `not` inside an
   * allOf part is taken against the parts before it). `refs`: the references being inlined, to refuse
   * a cycle that would never end.
   */
  flatten(schema: unknown, path: string, refs: readonly string[] = [], context: Flat = {}): Flat {
    this.budget.tick(path);
    // Each reference inlined is a level deeper (a chain of `allOf: [{$ref}]` would exhaust the stack).
    this.budget.depth(refs.length, path);
    if (context === false || schema === false) return false;
    if (schema === true) return context;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new UnsupportedSchemaError({
        keyword: '(schema)',
        schemaPath: path,
        detail: 'a schema must be an object or a boolean',
      });
    }
    const {
      allOf,
      $ref,
      not,
      if: condition,
      then,
      else: otherwise,
      oneOf,
      $defs: _defs,
      definitions: _definitions,
      ...rest
    } = assertionsOf(schema as Schema);
    if ($ref !== undefined && this.refOverridesSiblings) {
      if (typeof $ref !== 'string')
        throw new UnsupportedSchemaError({ keyword: '$ref', schemaPath: path, detail: 'not a string' });
      if (refs.includes($ref))
        throw new UnsupportedSchemaError({
          keyword: '$ref',
          schemaPath: path,
          detail: `${$ref} refers to itself`,
        });
      return this.flatten(this.resolveRef($ref, path), $ref, [...refs, $ref], context);
    }
    let flat: Flat = this.meet(context, rest, path);
    if ($ref !== undefined) {
      if (typeof $ref !== 'string')
        throw new UnsupportedSchemaError({ keyword: '$ref', schemaPath: path, detail: 'not a string' });
      if (refs.includes($ref)) {
        throw new UnsupportedSchemaError({
          keyword: '$ref',
          schemaPath: path,
          detail: `${$ref} contains itself through allOf or siblings`,
        });
      }
      flat = this.flatten(this.resolveRef($ref, path), $ref, [...refs, $ref], flat);
    }
    if (allOf !== undefined) {
      if (!Array.isArray(allOf) || allOf.length === 0) {
        throw new UnsupportedSchemaError({
          keyword: 'allOf',
          schemaPath: path,
          detail: 'not a non-empty list of schemas',
        });
      }
      allOf.forEach((part, i) => {
        flat = this.flatten(part, `${path}/allOf/${i}`, refs, flat);
      });
    }
    if (condition !== undefined) {
      const yes = this.flatten(
        then ?? true,
        `${path}/then`,
        refs,
        this.flatten(condition, `${path}/if`, refs, flat),
      );
      const no = this.flatten(
        otherwise ?? true,
        `${path}/else`,
        refs,
        this.negate(flat, condition, `${path}/if`, refs),
      );
      flat = yes === false ? no : no === false ? yes : { anyOf: [yes, no] };
    }
    if (not !== undefined) flat = this.negate(flat, not, `${path}/not`, refs);
    if (oneOf !== undefined) flat = this.exclusive(flat, oneOf, path, refs);
    return flat;
  }

  meet(a: Flat, b: Flat, path: string): Flat {
    if (a === false || b === false) return false;
    return intersect(a, b, path);
  }

  /** `flat` and not `negated`. */
  private negate(flat: Flat, negated: unknown, path: string, refs: readonly string[]): Flat {
    if (flat === false) return false;
    const values = valuesOf(flat);
    // Finitely many values: keep those the negated schema refuses.
    if (values !== null) {
      const { const: _const, ...others } = flat;
      return { ...others, enum: values.filter((v) => !satisfies(v, negated, this.resolve, path)) };
    }
    const n = this.flatten(negated, path, refs);
    if (n === false) return flat;
    if (isTrue(n)) return false;
    const keys = Object.keys(n);
    if (keys.length === 1 && Array.isArray(n.anyOf)) {
      // not (A or B) = not A and not B
      let out: Flat = flat;
      for (const [i, branch] of n.anyOf.entries()) out = this.negate(out, branch, `${path}/anyOf/${i}`, refs);
      return out;
    }
    if (keys.length === 1 && keys[0] === 'type') return withoutTypes(flat, n.type, path);
    if (keys.length === 1 && Array.isArray(n.required) && n.required.length > 0 && n.required.length <= 8) {
      // An object without one of the keys (what is not an object never has them).
      const names = n.required as string[];
      const absent = names.map((name) => this.without(flat, name, path));
      const live = absent.filter((a): a is Schema => a !== false);
      return live.length === 0 ? false : live.length === 1 ? (live[0] as Schema) : { anyOf: live };
    }
    const discriminator = this.negateProperty(flat, n, path);
    if (discriminator !== undefined) return discriminator;
    throw new UnsupportedSchemaError({
      keyword: 'not',
      schemaPath: path,
      detail: 'only the negation of types, of values, of required keys or of one property',
    });
  }

  /**
   * not {properties: {k: S}} (optionally with required: [k]), the shape of an `if` on a discriminator:
   * an object whose k is present and outside S, or (without `required`) also a non-object or k absent
   * when `required` names it. Undefined when `n` has another shape.
   */
  private negateProperty(flat: Schema, n: Schema, path: string): Flat | undefined {
    const properties = n.properties;
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined;
    const names = Object.keys(properties);
    const required = n.required === undefined ? [] : n.required;
    const keys = Object.keys(n).filter((k) => k !== 'properties' && k !== 'required');
    if (names.length !== 1 || keys.length > 0 || !Array.isArray(required)) return undefined;
    const name = names[0] as string;
    if (required.some((r) => r !== name)) return undefined;
    const outside: Flat = this.meet(
      flat,
      { type: 'object', required: [name], properties: { [name]: { not: (properties as Schema)[name] } } },
      path,
    );
    if (required.length === 0) return outside;
    // With `required`: also whatever lacks the key (and every non-object).
    const options = [outside, this.without(flat, name, path)].filter((o): o is Schema => o !== false);
    return options.length === 0 ? false : options.length === 1 ? (options[0] as Schema) : { anyOf: options };
  }

  /** `flat` for objects without the key `name` (a `false` property schema), and for non-objects. */
  private without(flat: Schema, name: string, path: string): Flat {
    if (Array.isArray(flat.required) && flat.required.includes(name))
      return withoutTypes(flat, 'object', path);
    return { ...flat, properties: { ...((flat.properties ?? {}) as Schema), [name]: false } };
  }

  /** oneOf: exactly one branch. Read as anyOf once no two branches can match the same value. */
  private exclusive(flat: Flat, oneOf: unknown, path: string, refs: readonly string[]): Flat {
    if (!Array.isArray(oneOf) || oneOf.length === 0) {
      throw new UnsupportedSchemaError({
        keyword: 'oneOf',
        schemaPath: path,
        detail: 'not a non-empty list of schemas',
      });
    }
    const branches = oneOf.map((b, i) => this.flatten(b, `${path}/oneOf/${i}`, refs, flat));
    const live = branches.flatMap((b, i) => (b === false ? [] : [{ branch: b, index: i }]));
    if (live.length === 0) return false;
    if (live.length === 1) return (live[0] as { branch: Schema }).branch;
    const finite = live.map(({ branch }) => valuesOf(branch));
    if (finite.every((v) => v !== null)) {
      // Finitely many values: keep those exactly one branch takes.
      const candidates = finite.flat().filter((v, i, all) => all.findIndex((w) => sameValue(v, w)) === i);
      const matching = (v: unknown) =>
        live.filter(({ branch }) => satisfies(v, branch, this.resolve, path)).length;
      return { enum: candidates.filter((v) => matching(v) === 1) };
    }
    try {
      checkExclusive(live, path, this);
      return { anyOf: live.map(({ branch }) => branch) };
    } catch (error) {
      if (!(error instanceof UnsupportedSchemaError)) throw error;
      // Not disjoint as written: branch i becomes "i and none of the others" where those are expressible
      // (`oneOf: [{required: [a]}, {required: [b]}]`: a without b, or b without a).
      const exclusiveBranches = this.withoutOthers(live, oneOf, path, refs);
      if (exclusiveBranches === null) throw error;
      return exclusiveBranches;
    }
  }

  private withoutOthers(
    live: Array<{ branch: Schema; index: number }>,
    oneOf: unknown[],
    path: string,
    refs: readonly string[],
  ): Flat | null {
    try {
      const branches = live.flatMap(({ branch, index }) => {
        let out: Flat = branch;
        for (const other of live) {
          if (other.index !== index)
            out = this.negate(out, oneOf[other.index], `${path}/oneOf/${other.index}`, refs);
        }
        return out === false ? [] : [out];
      });
      return branches.length === 0
        ? false
        : branches.length === 1
          ? (branches[0] as Schema)
          : { anyOf: branches };
    } catch (error) {
      if (error instanceof UnsupportedSchemaError) return null;
      throw error;
    }
  }
}

/** The listed values of a flat schema (enum or const), or null when it lists none. */
export function valuesOf(s: Schema): unknown[] | null {
  if (s.const !== undefined) return [s.const];
  return Array.isArray(s.enum) ? s.enum : null;
}

/** `flat` for values of none of the `negated` types. */
function withoutTypes(flat: Schema, negated: unknown, path: string): Flat {
  const removed = (Array.isArray(negated) ? negated : [negated]) as string[];
  const current = (
    flat.type === undefined ? [...ALL_TYPES] : Array.isArray(flat.type) ? flat.type : [flat.type]
  ) as string[];
  if (removed.includes('integer') && !removed.includes('number') && current.includes('number')) {
    throw new UnsupportedSchemaError({
      keyword: 'not',
      schemaPath: path,
      detail: 'numbers that are not integers',
    });
  }
  const kept = current.filter(
    (t) => !removed.includes(t) && !(t === 'integer' && removed.includes('number')),
  );
  if (kept.length === 0) return false;
  return { ...flat, type: kept.length === 1 ? kept[0] : kept };
}
