import { PatternSyntaxError, UnsatisfiableSchemaError, UnsupportedSchemaError } from '../errors.js';
import type { KeyExtras } from '../grammar/key-extras.js';
import { type GrammarNode, ListNode } from '../grammar/nodes.js';
import { type NamedKey, ObjectNode } from '../grammar/object-node.js';
import { StringLeaf } from '../grammar/string-leaf.js';
import { finiteMatches, mayOverlap } from '../regex/pattern-overlap.js';
import type { PatternAutomaton } from '../regex/regex.js';
import { assertionsOf, escapePointer, nonNegativeInteger, type Schema } from '../schema/schema-keywords.js';
import type { CompileContext } from './compile-context.js';

/** Keywords that only the key-by-key object grammar (ObjectNode) enforces. */
const KEYED_KEYWORDS = [
  'patternProperties',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
];

/** `type: object`: declared properties, required ones enforced, and the keys beyond them. */
export function compileObject(c: CompileContext, s: Schema, path: string): GrammarNode {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  if (typeof properties !== 'object' || Array.isArray(properties)) {
    throw new UnsupportedSchemaError({ keyword: 'properties', schemaPath: path, detail: 'not an object' });
  }
  const required = s.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
    throw new UnsupportedSchemaError({
      keyword: 'required',
      schemaPath: path,
      detail: 'not a list of names',
    });
  }
  const additional = s.additionalProperties;
  if (additional !== undefined && typeof additional !== 'boolean' && !isSchemaObject(additional)) {
    throw new UnsupportedSchemaError({
      keyword: 'additionalProperties',
      schemaPath: path,
      detail: 'not a schema',
    });
  }
  const names = Object.keys(properties);
  const plain =
    !KEYED_KEYWORDS.some((k) => s[k] !== undefined) &&
    (required as string[]).every((name) => names.includes(name)) &&
    names.every((name) => properties[name] !== false);
  if (plain && typeof additional !== 'object') {
    if (names.length === 0) return freeObject(c, additional === false ? null : true, path);
    // Under the defaults the grammar is the one the fine-tune was trained on: declared keys, in order.
    if (
      c.propertyOrder === 'schema' &&
      (additional === false || c.additionalPropertiesDefault === 'forbid')
    ) {
      return orderedObject(c, properties, required as string[], path);
    }
  }
  if (plain && names.length === 0) return freeObject(c, additional, path);
  return keyedObject(c, s, path);
}

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `true`, `{}`, or a schema of annotations only: any value. */
function isTrivial(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isSchemaObject(schema)) return false;
  return Object.keys(assertionsOf(schema)).every((k) => k === '$defs' || k === 'definitions');
}

/** A schema's assertions as text: two schemas that differ only in titles and descriptions are equal. */
function schemaText(schema: unknown): string {
  return JSON.stringify(isSchemaObject(schema) ? assertionsOf(schema) : schema);
}

/** An object of any keys whose values match `value` (null: `{}` only). Repeated keys are not tracked. */
function freeObject(c: CompileContext, value: unknown, path: string): GrammarNode {
  const opener = c.punctuation('{', false, true);
  const closer = c.punctuation('}', true, false);
  if (value === null) return c.sequence([opener, closer]);
  const pair = c.sequence([
    c.add(
      (id) =>
        new StringLeaf(id, {
          minLength: 0,
          maxLength: Number.POSITIVE_INFINITY,
          pattern: null,
          collect: false,
        }),
    ),
    c.punctuation(':', true, true),
    value === true ? c.any() : c.compile(value, `${path}/additionalProperties`, false),
  ]);
  const separator = c.punctuation(',', true, true);
  return c.add(
    (id) =>
      new ListNode(id, opener, pair, separator, closer, 0, Number.POSITIVE_INFINITY, false, c.dynamicIds),
  );
}

/** Declared properties only, in schema order; undeclared ones are never generated. */
function orderedObject(
  c: CompileContext,
  properties: Record<string, unknown>,
  required: readonly string[],
  path: string,
): GrammarNode {
  const names = Object.keys(properties);
  const opener = c.punctuation('{', false, true);
  const closer = c.punctuation('}', true, false);
  const values = names.map((name) =>
    c.compile(properties[name], `${path}/properties/${escapePointer(name)}`, false),
  );
  const isRequired = names.map((name) => required.includes(name));
  const memo = new Map<string, GrammarNode>();
  const rest = (from: number, first: boolean): GrammarNode => {
    const key = `${from},${first}`;
    const known = memo.get(key);
    if (known) return known;
    const options: GrammarNode[] = [];
    if (isRequired.slice(from).every((r) => !r)) options.push(closer);
    for (let j = from; j < names.length; j++) {
      const keyText = JSON.stringify(names[j]);
      const member = first ? [c.literal(keyText)] : [c.punctuation(',', true, true), c.literal(keyText)];
      options.push(
        c.sequence([...member, c.punctuation(':', true, true), values[j] as GrammarNode, rest(j + 1, false)]),
      );
      if (isRequired[j]) break;
    }
    const node = c.choice(options);
    memo.set(key, node);
    return node;
  };
  return c.sequence([opener, rest(0, true)]);
}

interface PatternProperty {
  source: string;
  automaton: PatternAutomaton;
  schema: unknown;
  /** The pattern matches every key (`.*`, `""`): no automaton needs to run. */
  everything: boolean;
  /** No value satisfies its schema: keys it matches may not appear. */
  forbidden: boolean;
}

/** Whether some value satisfies `schema` as far as compiling tells (`false` and contradictions do not). */
function satisfiable(c: CompileContext, schema: unknown, path: string): boolean {
  if (schema === false) return false;
  try {
    c.compile(schema, path, false);
    return true;
  } catch (error) {
    if (error instanceof UnsatisfiableSchemaError) return false;
    throw error;
  }
}

function compilePattern(c: CompileContext, source: string, keyword: string, path: string): PatternAutomaton {
  try {
    return c.patterns.automaton([source]);
  } catch (error) {
    if (error instanceof PatternSyntaxError)
      throw new UnsupportedSchemaError({ keyword, schemaPath: path, detail: error.message });
    throw error;
  }
}

/** What `propertyNames` allows, as far as it is enforced. */
interface KeyRule {
  automaton: PatternAutomaton | null;
  minLength: number;
  maxLength: number;
  /** A finite list of allowed keys (`enum`/`const`), or null. */
  only: string[] | null;
  /** `propertyNames: false`: no key at all. */
  none: boolean;
}

function keyRule(c: CompileContext, value: unknown, path: string): KeyRule {
  const rule: KeyRule = {
    automaton: null,
    minLength: 0,
    maxLength: Number.POSITIVE_INFINITY,
    only: null,
    none: value === false,
  };
  if (value === undefined || typeof value === 'boolean') return rule;
  const where = `${path}/propertyNames`;
  if (!isSchemaObject(value))
    throw new UnsupportedSchemaError({ keyword: 'propertyNames', schemaPath: path, detail: 'not a schema' });
  const s = assertionsOf(value);
  for (const keyword of Object.keys(s)) {
    if (!['pattern', 'minLength', 'maxLength', 'enum', 'const', 'type'].includes(keyword)) {
      throw new UnsupportedSchemaError({
        keyword,
        schemaPath: where,
        detail: 'not supported in propertyNames',
      });
    }
  }
  if (s.type !== undefined && s.type !== 'string') {
    throw new UnsupportedSchemaError({
      keyword: 'type',
      schemaPath: where,
      detail: 'keys are strings: only "string" is supported',
    });
  }
  rule.minLength = nonNegativeInteger(s.minLength, 'minLength', where) ?? 0;
  rule.maxLength = nonNegativeInteger(s.maxLength, 'maxLength', where) ?? Number.POSITIVE_INFINITY;
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== 'string')
      throw new UnsupportedSchemaError({ keyword: 'pattern', schemaPath: where, detail: 'not a string' });
    if (s.minLength !== undefined || s.maxLength !== undefined) {
      throw new UnsupportedSchemaError({
        keyword: 'pattern',
        schemaPath: where,
        detail: 'pattern together with minLength/maxLength',
      });
    }
    rule.automaton = compilePattern(c, s.pattern, 'pattern', where);
  }
  if (s.enum !== undefined || s.const !== undefined) {
    const values = s.const !== undefined ? [s.const] : s.enum;
    if (!Array.isArray(values))
      throw new UnsupportedSchemaError({ keyword: 'enum', schemaPath: where, detail: 'not a list' });
    rule.only = values.filter((v): v is string => typeof v === 'string');
  }
  return rule;
}

function allowsName(rule: KeyRule, name: string): boolean {
  if (rule.none) return false;
  const length = [...name].length;
  if (length < rule.minLength || length > rule.maxLength) return false;
  if (rule.automaton && !rule.automaton.matches(name)) return false;
  return rule.only === null || rule.only.includes(name);
}

/** `dependencies` / `dependentRequired` as name lists; schema dependencies are refused unless trivial. */
function dependencyLists(s: Schema, path: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const keyword of ['dependencies', 'dependentRequired', 'dependentSchemas']) {
    const value = s[keyword];
    if (value === undefined) continue;
    if (!isSchemaObject(value))
      throw new UnsupportedSchemaError({ keyword, schemaPath: path, detail: 'not an object' });
    for (const [name, dependency] of Object.entries(value)) {
      if (Array.isArray(dependency) && keyword !== 'dependentSchemas') {
        if (dependency.some((d) => typeof d !== 'string')) {
          throw new UnsupportedSchemaError({
            keyword,
            schemaPath: path,
            detail: `"${name}" does not list names`,
          });
        }
        out.set(name, [...(out.get(name) ?? []), ...(dependency as string[])]);
      } else if (!isTrivial(dependency)) {
        throw new UnsupportedSchemaError({
          keyword,
          schemaPath: `${path}/${keyword}/${escapePointer(name)}`,
          detail: 'a schema that applies when a key is present is not supported',
        });
      }
    }
  }
  return out;
}

/** Any object grammar beyond the plain cases: read key by key by an ObjectNode. */
function keyedObject(c: CompileContext, s: Schema, path: string): GrammarNode {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = (s.required ?? []) as string[];
  const declared = Object.keys(properties);
  const patternSchemas = s.patternProperties ?? {};
  if (!isSchemaObject(patternSchemas))
    throw new UnsupportedSchemaError({
      keyword: 'patternProperties',
      schemaPath: path,
      detail: 'not an object',
    });
  const patterns: PatternProperty[] = Object.entries(patternSchemas).map(([source, schema]) => {
    const where = `${path}/patternProperties/${escapePointer(source)}`;
    const automaton = compilePattern(c, source, 'patternProperties', where);
    // Without `$` at the end, a pattern that matches the empty string matches every string.
    const everything = automaton.isAccepting(automaton.start) && !source.endsWith('$');
    return { source, automaton, schema, everything, forbidden: !satisfiable(c, schema, where) };
  });
  // Keys a pattern forbids (`false`, `{"not": {}}`) become names that may not appear, when they are few.
  const forbiddenNames: string[] = [];
  for (const p of patterns.filter((p) => p.forbidden)) {
    const matches = finiteMatches(p.automaton);
    if (matches === null) {
      throw new UnsupportedSchemaError({
        keyword: 'patternProperties',
        schemaPath: `${path}/patternProperties/${escapePointer(p.source)}`,
        detail: 'a pattern that forbids its keys must match only a few of them',
      });
    }
    forbiddenNames.push(...matches);
  }
  const allowedPatterns = patterns.filter((p) => !p.forbidden);
  for (let i = 0; i < allowedPatterns.length; i++) {
    for (let j = i + 1; j < allowedPatterns.length; j++) {
      const a = allowedPatterns[i] as PatternProperty;
      const b = allowedPatterns[j] as PatternProperty;
      const differ =
        !isTrivial(a.schema) && !isTrivial(b.schema) && schemaText(a.schema) !== schemaText(b.schema);
      if (differ && mayOverlap(a.automaton, b.automaton)) {
        throw new UnsupportedSchemaError({
          keyword: 'patternProperties',
          schemaPath: path,
          detail: `a key may match both /${a.source}/ and /${b.source}/, whose schemas differ`,
        });
      }
    }
  }
  const additional = s.additionalProperties;
  // The schema of undeclared keys that match no pattern (null: none may appear). Under the `forbid`
  // default an object that names its keys gets no others unless its schema gives them one.
  let extraSchema: unknown = null;
  if (isSchemaObject(additional)) extraSchema = additional;
  else if (additional !== false) {
    const forbid = c.additionalPropertiesDefault === 'forbid' && (declared.length > 0 || patterns.length > 0);
    extraSchema = forbid ? null : true;
  }
  const rule = keyRule(c, s.propertyNames, path);

  // Named keys: declared, required, in dependencies, or listed by propertyNames' enum.
  const dependencies = dependencyLists(s, path);
  const names: string[] = [];
  const addName = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  declared.forEach(addName);
  required.forEach(addName);
  for (const [name, list] of dependencies) {
    addName(name);
    list.forEach(addName);
  }
  rule.only?.forEach(addName);
  forbiddenNames.forEach(addName);

  const valueFor = (name: string): { schema: unknown; where: string } | null => {
    const candidates: Array<{ schema: unknown; where: string }> = [];
    if (declared.includes(name)) {
      candidates.push({ schema: properties[name], where: `${path}/properties/${escapePointer(name)}` });
    }
    for (const p of patterns) {
      if (p.everything || p.automaton.matches(name)) {
        candidates.push({
          schema: p.forbidden ? false : p.schema,
          where: `${path}/patternProperties/${escapePointer(p.source)}`,
        });
      }
    }
    if (candidates.length === 0) {
      // A key the schema names but does not declare: additionalProperties governs it (any value unless
      // it is false or a schema).
      if (additional === false) return null;
      candidates.push({
        schema: isSchemaObject(additional) ? additional : true,
        where: `${path}/additionalProperties`,
      });
    }
    if (candidates.some((k) => k.schema === false)) return null;
    const strict = candidates.filter((k) => !isTrivial(k.schema));
    if (new Set(strict.map((k) => schemaText(k.schema))).size > 1) {
      throw new UnsupportedSchemaError({
        keyword: 'patternProperties',
        schemaPath: path,
        detail: `"${name}" must match several different schemas (properties and patternProperties)`,
      });
    }
    return strict[0] ?? { schema: true, where: candidates[0]?.where ?? path };
  };
  const allowed = names.map((name) => allowsName(rule, name) && valueFor(name) !== null);
  const index = new Map(names.map((name, i) => [name, i]));
  // Dependencies followed to the end; a key whose dependencies may not appear may not appear either.
  const implies = names.map((name) => {
    const out = new Set<number>();
    const queue = [...(dependencies.get(name) ?? [])];
    while (queue.length > 0) {
      const next = index.get(queue.pop() as string) as number;
      if (next === undefined || out.has(next)) continue;
      out.add(next);
      queue.push(...(dependencies.get(names[next] as string) ?? []));
    }
    out.delete(index.get(name) as number);
    return [...out].sort((a, b) => a - b);
  });
  names.forEach((_, i) => {
    if (implies[i]?.some((j) => !allowed[j])) allowed[i] = false;
  });
  const named: NamedKey[] = names.map((name, i) => {
    const isRequired = required.includes(name);
    if (!allowed[i]) {
      if (isRequired)
        throw new UnsatisfiableSchemaError({
          schemaPath: path,
          detail: `"${name}" is required but may not appear`,
        });
      return { name, value: null, required: false, implies: implies[i] ?? [] };
    }
    const value = valueFor(name) as { schema: unknown; where: string };
    return {
      name,
      value: c.compile(value.schema, value.where, false),
      required: isRequired,
      implies: implies[i] ?? [],
    };
  });

  const { extras, classes } = extraKeys(c, allowedPatterns, extraSchema, rule, path);
  const minProperties = nonNegativeInteger(s.minProperties, 'minProperties', path) ?? 0;
  const maxProperties =
    nonNegativeInteger(s.maxProperties, 'maxProperties', path) ?? Number.POSITIVE_INFINITY;
  c.budget.size(minProperties, 'minProperties', path);
  if (minProperties > maxProperties) {
    throw new UnsatisfiableSchemaError({ schemaPath: path, detail: 'minProperties is above maxProperties' });
  }
  const extrasUnbounded =
    extras !== null && extras.alternatives === null && extras.maxLength === Number.POSITIVE_INFINITY;
  const requiredCount = named.filter((k) => k.required).length;
  if (requiredCount > maxProperties) {
    throw new UnsatisfiableSchemaError({
      schemaPath: path,
      detail: 'more required properties than maxProperties',
    });
  }
  if (!extrasUnbounded && named.filter((k) => k.value !== null).length < minProperties) {
    if (extras === null)
      throw new UnsatisfiableSchemaError({
        schemaPath: path,
        detail: 'fewer possible keys than minProperties',
      });
    throw new UnsupportedSchemaError({
      keyword: 'minProperties',
      schemaPath: path,
      detail: 'reached only through keys matching patterns',
    });
  }
  if (
    dependencies.size > 0 &&
    minProperties > 0 &&
    maxProperties !== Number.POSITIVE_INFINITY &&
    !extrasUnbounded
  ) {
    throw new UnsupportedSchemaError({
      keyword: 'minProperties',
      schemaPath: path,
      detail: 'together with maxProperties and dependencies',
    });
  }
  return c.add(
    (id) =>
      new ObjectNode(id, {
        named,
        ordered: c.propertyOrder === 'schema',
        extras,
        classes,
        extrasUnbounded,
        minProperties,
        maxProperties,
        opener: c.punctuation('{', false, true),
        colon: c.punctuation(':', true, true),
        separator: c.punctuation(',', true, true),
        closer: c.punctuation('}', true, false),
        dynamicIds: c.dynamicIds,
      }),
  );
}

/**
 * Undeclared keys: which may appear (`additionalProperties`, `patternProperties`, `propertyNames`) and
 * the class of each, which picks its value's schema: pattern `i`'s, or additionalProperties' (last).
 */
function extraKeys(
  c: CompileContext,
  patterns: readonly PatternProperty[],
  extraSchema: unknown,
  rule: KeyRule,
  path: string,
): { extras: KeyExtras | null; classes: GrammarNode[] } {
  if (rule.none || rule.only !== null || (extraSchema === null && patterns.length === 0)) {
    return { extras: null, classes: [] };
  }
  const classes = patterns.map((p) =>
    c.compile(p.schema, `${path}/patternProperties/${escapePointer(p.source)}`, false),
  );
  const additionalClass = classes.length;
  if (extraSchema !== null) classes.push(c.compile(extraSchema, `${path}/additionalProperties`, false));
  // Automata run only for patterns that can tell keys apart; propertyNames' pattern comes last.
  const running = patterns.map((p, i) => ({ p, i })).filter(({ p }) => !p.everything);
  const automata = running.map(({ p }) => p.automaton);
  const nameAutomaton = rule.automaton === null ? -1 : automata.push(rule.automaton) - 1;
  let alternatives: number[] | null = null;
  if (extraSchema === null && !patterns.some((p) => p.everything)) {
    if (nameAutomaton >= 0) {
      throw new UnsupportedSchemaError({
        keyword: 'propertyNames',
        schemaPath: path,
        detail: 'a pattern for keys together with patternProperties and no additionalProperties',
      });
    }
    alternatives = running.map((_, k) => k);
  } else if (nameAutomaton >= 0) alternatives = [nameAutomaton];
  if (alternatives !== null && (rule.minLength > 0 || rule.maxLength !== Number.POSITIVE_INFINITY)) {
    throw new UnsupportedSchemaError({
      keyword: 'propertyNames',
      schemaPath: path,
      detail: 'key lengths together with patterns for keys',
    });
  }
  const everything = patterns.map((p) => p.everything);
  const classify = (accepted: readonly boolean[]): number | null => {
    const matched = patterns
      .map((_, i) => i)
      .filter((i) => everything[i] || accepted[running.findIndex((r) => r.i === i)] === true);
    if (matched.length === 0) return extraSchema === null ? null : additionalClass;
    return matched.find((i) => !isTrivial(patterns[i]?.schema)) ?? (matched[0] as number);
  };
  return {
    extras: {
      automata,
      alternatives,
      minLength: rule.minLength,
      maxLength: rule.maxLength,
      classify,
    },
    classes,
  };
}
