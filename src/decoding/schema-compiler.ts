import { UnsatisfiableSchemaError, UnsupportedSchemaError } from './errors.js';
import { LiteralLeaf, WhitespaceLeaf } from './literal-leaf.js';
import {
  ChoiceNode,
  type GrammarNode,
  ListNode,
  ReferenceNode,
  SequenceNode,
  type Shortest,
} from './nodes.js';
import { type NumberBound, NumberLeaf } from './number-leaf.js';
import { PatternAutomaton, PatternSyntaxError } from './regex.js';
import { StringLeaf } from './string-leaf.js';

export interface SchemaCompileOptions {
  /**
   * `compact` (default): no whitespace between tokens, as the fine-tune writes JSON. `flexible`: any
   * JSON whitespace between tokens.
   */
  whitespace?: 'compact' | 'flexible';
  /** Most digits after the decimal point of a `number` (default 6). Integers never have a point. */
  maxFractionDigits?: number;
  /** Most significant digits of a number (default 15: every such decimal is exact as a double). */
  maxDigits?: number;
}

/** Keywords the compiler enforces. Any other keyword (except annotations) is refused at compile time. */
export const SUPPORTED_KEYWORDS: readonly string[] = [
  'type',
  'enum',
  'const',
  'oneOf',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
];

/** Keywords that describe and never constrain. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

const SUPPORTED = new Set(SUPPORTED_KEYWORDS);
const ALL_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string'] as const;
type JsonType = (typeof ALL_TYPES)[number] | 'integer';

type Schema = { [keyword: string]: unknown };

export interface CompiledNodes {
  root: GrammarNode;
  nodes: GrammarNode[];
  shortest: Shortest;
}

/** JSON Schema (the subset in SUPPORTED_KEYWORDS) to a grammar graph. */
export class SchemaCompiler {
  private readonly nodes: GrammarNode[] = [];
  private readonly references = new Map<string, ReferenceNode>();
  private anyValue: ReferenceNode | null = null;
  private readonly flexible: boolean;
  private readonly maxFractionDigits: number;
  private readonly maxDigits: number;

  constructor(
    private readonly document: unknown,
    options: SchemaCompileOptions = {},
  ) {
    this.flexible = options.whitespace === 'flexible';
    this.maxFractionDigits = options.maxFractionDigits ?? 6;
    this.maxDigits = options.maxDigits ?? 15;
  }

  compileDocument(): CompiledNodes {
    const root = this.compile(this.document, '#', false);
    for (const ref of this.references.values()) {
      if (ref.target === null) throw new UnsupportedSchemaError('$ref', '#', 'unresolved reference');
    }
    this.checkLeftRecursion();
    const shortest = this.shortestSentences();
    if (shortest(root) === null) throw new UnsatisfiableSchemaError('#', 'no finite JSON value matches');
    return { root, nodes: this.nodes, shortest };
  }

  private add<T extends GrammarNode>(make: (id: number) => T): T {
    const node = make(this.nodes.length);
    this.nodes.push(node);
    return node;
  }

  private literal(text: string): LiteralLeaf {
    return this.add((id) => new LiteralLeaf(id, text));
  }

  /** A sequence; adjacent literals merge into one (fewer frames per byte). */
  private sequence(parts: GrammarNode[]): GrammarNode {
    const merged: GrammarNode[] = [];
    for (const part of parts) {
      const last = merged[merged.length - 1];
      if (part instanceof LiteralLeaf && last instanceof LiteralLeaf) {
        merged[merged.length - 1] = this.literal(last.text + part.text);
      } else merged.push(part);
    }
    if (merged.length === 1) return merged[0] as GrammarNode;
    return this.add((id) => new SequenceNode(id, merged));
  }

  private choice(options: GrammarNode[]): GrammarNode {
    if (options.length === 1) return options[0] as GrammarNode;
    return this.add((id) => new ChoiceNode(id, options));
  }

  /** Punctuation, with optional whitespace around it in the flexible mode. */
  private punctuation(text: string, before: boolean, after: boolean): GrammarNode {
    if (!this.flexible) return this.literal(text);
    const parts: GrammarNode[] = [];
    if (before) parts.push(this.add((id) => new WhitespaceLeaf(id)));
    parts.push(this.literal(text));
    if (after) parts.push(this.add((id) => new WhitespaceLeaf(id)));
    return this.sequence(parts);
  }

  private compile(schema: unknown, path: string, collect: boolean): GrammarNode {
    if (schema === true) return this.any();
    if (schema === false) throw new UnsatisfiableSchemaError(path, 'the schema is `false`');
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new UnsupportedSchemaError('(schema)', path, 'a schema must be an object or a boolean');
    }
    const s = schema as Schema;
    for (const keyword of Object.keys(s)) {
      if (!SUPPORTED.has(keyword) && !ANNOTATIONS.has(keyword))
        throw new UnsupportedSchemaError(keyword, path);
    }
    const constraints = Object.keys(s).filter(
      (k) => !ANNOTATIONS.has(k) && k !== '$defs' && k !== 'definitions',
    );
    if (s.$ref !== undefined) {
      if (constraints.length > 1) {
        throw new UnsupportedSchemaError('$ref', path, 'sibling keywords next to $ref are not supported yet');
      }
      return this.reference(s.$ref, path);
    }
    if (s.oneOf !== undefined || s.anyOf !== undefined) return this.alternatives(s, path, collect);
    if (s.const !== undefined || s.enum !== undefined) return this.enumeration(s, path);
    const types = this.typesOf(s, path);
    const options = types.map((type) => this.compileType(type, s, path, collect));
    return this.choice(options);
  }

  private typesOf(s: Schema, path: string): JsonType[] {
    if (s.type === undefined) return [...ALL_TYPES];
    const list = Array.isArray(s.type) ? s.type : [s.type];
    const out: JsonType[] = [];
    for (const type of list) {
      if (typeof type !== 'string' || !['integer', ...ALL_TYPES].includes(type)) {
        throw new UnsupportedSchemaError('type', path, `unknown type ${JSON.stringify(type)}`);
      }
      out.push(type as JsonType);
    }
    // "integer" is a subset of "number": listing both means "number".
    const types = out.includes('number') ? out.filter((t) => t !== 'integer') : out;
    if (types.length === 0) throw new UnsatisfiableSchemaError(path, 'an empty list of types');
    return [...new Set(types)];
  }

  private compileType(type: JsonType, s: Schema, path: string, collect: boolean): GrammarNode {
    switch (type) {
      case 'null':
        return this.literal('null');
      case 'boolean':
        return this.choice([this.literal('true'), this.literal('false')]);
      case 'string':
        return this.string(s, path, collect);
      case 'number':
      case 'integer':
        return this.number(s, path, type === 'integer');
      case 'array':
        return this.array(s, path);
      case 'object':
        return this.object(s, path);
    }
  }

  private string(s: Schema, path: string, collect: boolean): GrammarNode {
    const minLength = nonNegativeInteger(s.minLength, 'minLength', path) ?? 0;
    const maxLength = nonNegativeInteger(s.maxLength, 'maxLength', path) ?? Number.POSITIVE_INFINITY;
    if (minLength > maxLength) throw new UnsatisfiableSchemaError(path, 'minLength is above maxLength');
    let pattern: PatternAutomaton | null = null;
    if (s.pattern !== undefined) {
      if (typeof s.pattern !== 'string') throw new UnsupportedSchemaError('pattern', path, 'not a string');
      if (s.minLength !== undefined || s.maxLength !== undefined) {
        throw new UnsupportedSchemaError('pattern', path, 'pattern together with minLength/maxLength');
      }
      try {
        pattern = new PatternAutomaton(s.pattern);
      } catch (error) {
        if (error instanceof PatternSyntaxError)
          throw new UnsupportedSchemaError('pattern', path, error.message);
        throw error;
      }
      if (pattern.shortestAccepted(pattern.start) === null) {
        throw new UnsatisfiableSchemaError(path, `no string matches /${s.pattern}/`);
      }
    }
    return this.add((id) => new StringLeaf(id, { minLength, maxLength, pattern, collect }));
  }

  private number(s: Schema, path: string, integer: boolean): GrammarNode {
    const lower = bound(s, 'minimum', 'exclusiveMinimum', path);
    const upper = bound(s, 'maximum', 'exclusiveMaximum', path);
    const leaf = this.add(
      (id) =>
        new NumberLeaf(id, {
          integer,
          lower,
          upper,
          maxFractionDigits: this.maxFractionDigits,
          maxDigits: this.maxDigits,
        }),
    );
    if (!leaf.satisfiable()) {
      throw new UnsatisfiableSchemaError(path, `no ${integer ? 'integer' : 'number'} is within the bounds`);
    }
    return leaf;
  }

  private array(s: Schema, path: string): GrammarNode {
    const minItems = nonNegativeInteger(s.minItems, 'minItems', path) ?? 0;
    const maxItems = nonNegativeInteger(s.maxItems, 'maxItems', path) ?? Number.POSITIVE_INFINITY;
    if (minItems > maxItems) throw new UnsatisfiableSchemaError(path, 'minItems is above maxItems');
    if (Array.isArray(s.items)) {
      throw new UnsupportedSchemaError('items', path, 'the array (tuple) form of items is not supported yet');
    }
    const unique = s.uniqueItems === true && maxItems > 1;
    if (s.uniqueItems !== undefined && typeof s.uniqueItems !== 'boolean') {
      throw new UnsupportedSchemaError('uniqueItems', path, 'not a boolean');
    }
    const itemSchema = s.items ?? true;
    if (unique) this.checkUniqueItems(itemSchema, minItems, `${path}/items`);
    const item =
      maxItems === 0 && s.items === undefined
        ? this.literal('null')
        : this.compile(itemSchema, `${path}/items`, unique);
    const opener = this.punctuation('[', false, true);
    const separator = this.punctuation(',', true, true);
    const closer = this.punctuation(']', true, false);
    const list = this.add(
      (id) => new ListNode(id, opener, item, separator, closer, minItems, maxItems, unique),
    );
    if (unique) {
      const leaves = item instanceof ChoiceNode ? item.options : [item];
      if (leaves.every((leaf) => leaf instanceof LiteralLeaf)) list.uniqueOptions = leaves as LiteralLeaf[];
    }
    return list;
  }

  /** uniqueItems is enforced for items that are strings or enums/consts of scalars. */
  private checkUniqueItems(items: unknown, minItems: number, path: string): void {
    const s = (typeof items === 'object' && items !== null ? items : {}) as Schema;
    const values = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : null;
    if (values !== null) {
      if (values.some((v) => typeof v === 'object' && v !== null)) {
        throw new UnsupportedSchemaError('uniqueItems', path, 'items that are objects or arrays');
      }
      if (new Set(values.map((v) => JSON.stringify(v))).size < minItems) {
        throw new UnsatisfiableSchemaError(path, 'fewer distinct values than minItems');
      }
      return;
    }
    if (s.type === 'string' && s.$ref === undefined && s.oneOf === undefined && s.anyOf === undefined) return;
    throw new UnsupportedSchemaError('uniqueItems', path, 'only for string items or enum/const items');
  }

  private object(s: Schema, path: string): GrammarNode {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    if (typeof properties !== 'object' || Array.isArray(properties)) {
      throw new UnsupportedSchemaError('properties', path, 'not an object');
    }
    const required = s.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
      throw new UnsupportedSchemaError('required', path, 'not a list of names');
    }
    const additional = s.additionalProperties;
    if (additional !== undefined && typeof additional !== 'boolean') {
      throw new UnsupportedSchemaError('additionalProperties', path, 'a schema here is not supported yet');
    }
    const names = Object.keys(properties);
    for (const name of required as string[]) {
      if (!names.includes(name)) {
        throw new UnsupportedSchemaError(
          'required',
          path,
          `"${name}" is required but has no entry in properties`,
        );
      }
    }
    const opener = this.punctuation('{', false, true);
    const closer = this.punctuation('}', true, false);
    if (names.length === 0) {
      if (additional === false) return this.sequence([opener, closer]);
      // A free-form object: any keys, any values.
      const pair = this.sequence([
        this.add(
          (id) =>
            new StringLeaf(id, {
              minLength: 0,
              maxLength: Number.POSITIVE_INFINITY,
              pattern: null,
              collect: false,
            }),
        ),
        this.punctuation(':', true, true),
        this.any(),
      ]);
      const separator = this.punctuation(',', true, true);
      return this.add(
        (id) => new ListNode(id, opener, pair, separator, closer, 0, Number.POSITIVE_INFINITY, false),
      );
    }
    // Declared properties only, in schema order; undeclared ones are never generated.
    const values = names.map((name) =>
      this.compile(properties[name], `${path}/properties/${escapePointer(name)}`, false),
    );
    const isRequired = names.map((name) => (required as string[]).includes(name));
    const memo = new Map<string, GrammarNode>();
    const rest = (from: number, first: boolean): GrammarNode => {
      const key = `${from},${first}`;
      const known = memo.get(key);
      if (known) return known;
      const options: GrammarNode[] = [];
      if (isRequired.slice(from).every((r) => !r)) options.push(closer);
      for (let j = from; j < names.length; j++) {
        const keyText = JSON.stringify(names[j]);
        const member = first
          ? [this.literal(keyText)]
          : [this.punctuation(',', true, true), this.literal(keyText)];
        options.push(
          this.sequence([
            ...member,
            this.punctuation(':', true, true),
            values[j] as GrammarNode,
            rest(j + 1, false),
          ]),
        );
        if (isRequired[j]) break;
      }
      const node = this.choice(options);
      memo.set(key, node);
      return node;
    };
    return this.sequence([opener, rest(0, true)]);
  }

  private enumeration(s: Schema, path: string): GrammarNode {
    const keyword = s.const !== undefined ? 'const' : 'enum';
    const others = Object.keys(s).filter((k) => !ANNOTATIONS.has(k) && k !== keyword && k !== 'type');
    if (others.length > 0 || (s.const !== undefined && s.enum !== undefined)) {
      throw new UnsupportedSchemaError(
        keyword,
        path,
        `${keyword} together with ${others.join(', ') || 'enum'}`,
      );
    }
    let values: unknown[];
    if (s.const !== undefined) values = [s.const];
    else if (Array.isArray(s.enum)) values = s.enum;
    else throw new UnsupportedSchemaError('enum', path, 'not a list');
    if (s.type !== undefined) {
      const types = this.typesOf(s, path);
      values = values.filter((v) => types.some((t) => matchesType(v, t)));
    }
    const texts = [...new Set(values.map((v) => JSON.stringify(v)))];
    if (texts.length === 0) throw new UnsatisfiableSchemaError(path, `no value of ${keyword} is allowed`);
    // JSON text is compact whatever the whitespace mode: one spelling per value.
    return this.choice(texts.map((text) => this.literal(text)));
  }

  private alternatives(s: Schema, path: string, collect: boolean): GrammarNode {
    if (s.oneOf !== undefined && s.anyOf !== undefined) {
      throw new UnsupportedSchemaError('anyOf', path, 'oneOf and anyOf together');
    }
    const keyword = s.oneOf !== undefined ? 'oneOf' : 'anyOf';
    const list = s[keyword];
    if (!Array.isArray(list) || list.length === 0) {
      throw new UnsupportedSchemaError(keyword, path, 'not a non-empty list of schemas');
    }
    // Sibling keywords apply to every branch: fold them in (a conflicting keyword is refused).
    const siblings = Object.fromEntries(
      Object.entries(s).filter(
        ([k]) => !ANNOTATIONS.has(k) && k !== keyword && k !== '$defs' && k !== 'definitions',
      ),
    );
    const branches = list.map((branch, i) => {
      if (Object.keys(siblings).length === 0) return branch;
      if (typeof branch !== 'object' || branch === null) return branch;
      const merged: Schema = { ...siblings };
      for (const [k, v] of Object.entries(branch as Schema)) {
        if (k in merged && JSON.stringify(merged[k]) !== JSON.stringify(v)) {
          throw new UnsupportedSchemaError(
            k,
            `${path}/${keyword}/${i}`,
            `differs from the same keyword beside ${keyword}`,
          );
        }
        merged[k] = v;
      }
      return merged;
    });
    if (keyword === 'oneOf') checkExclusive(branches, path, (ref) => this.resolve(ref, path));
    return this.choice(branches.map((branch, i) => this.compile(branch, `${path}/${keyword}/${i}`, collect)));
  }

  private reference(ref: unknown, path: string): GrammarNode {
    if (typeof ref !== 'string' || !ref.startsWith('#')) {
      throw new UnsupportedSchemaError(
        '$ref',
        path,
        `only local references ("#/...") are supported: ${String(ref)}`,
      );
    }
    const known = this.references.get(ref);
    if (known) return known;
    const node = this.add((id) => new ReferenceNode(id));
    this.references.set(ref, node);
    node.target = this.compile(this.resolve(ref, path), ref, false);
    return node;
  }

  private resolve(ref: string, path: string): unknown {
    let target: unknown = this.document;
    for (const part of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      if (typeof target !== 'object' || target === null || !(key in target)) {
        throw new UnsupportedSchemaError('$ref', path, `cannot resolve ${ref}`);
      }
      target = (target as Schema)[key];
    }
    return target;
  }

  /** Any JSON value (`{}` or `true`): one shared, recursive node. */
  private any(): GrammarNode {
    if (this.anyValue) return this.anyValue;
    const node = this.add((id) => new ReferenceNode(id));
    this.anyValue = node;
    node.target = this.choice(ALL_TYPES.map((type) => this.compileType(type, {}, '#', false)));
    return node;
  }

  /** A reference cycle that reads no byte before coming back would loop forever: refuse it. */
  private checkLeftRecursion(): void {
    const state = new Map<GrammarNode, 'open' | 'done'>();
    const visit = (node: GrammarNode): void => {
      if (node.kind === 'leaf') return;
      const seen = state.get(node);
      if (seen === 'done') return;
      if (seen === 'open')
        throw new UnsupportedSchemaError('$ref', '#', 'a reference cycle that reads nothing');
      state.set(node, 'open');
      for (const child of node.firstChildren()) visit(child);
      state.set(node, 'done');
    };
    for (const node of this.nodes) visit(node);
  }

  /** Shortest sentence of every node, by relaxation until nothing changes (handles cycles). */
  private shortestSentences(): Shortest {
    const best = new Map<GrammarNode, number[]>();
    const get: Shortest = (node) => best.get(node) ?? null;
    let changed = true;
    while (changed) {
      changed = false;
      for (const node of this.nodes) {
        let candidate: number[] | null;
        if (node.kind === 'leaf') candidate = node.completion(node.initial());
        else if (node instanceof ChoiceNode) {
          candidate = null;
          for (const option of node.options) {
            const s = get(option);
            if (s !== null && (candidate === null || s.length < candidate.length)) candidate = s;
          }
        } else if (node instanceof ReferenceNode) candidate = node.target ? get(node.target) : null;
        else {
          const start = node.start()[0];
          const first = start?.child ? get(start.child) : [];
          const rest = start ? node.remainder(start.state, get) : null;
          candidate = first !== null && rest !== null ? [...first, ...rest] : null;
        }
        const current = best.get(node);
        if (candidate !== null && (current === undefined || candidate.length < current.length)) {
          best.set(node, candidate);
          changed = true;
        }
      }
    }
    return get;
  }
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function nonNegativeInteger(value: unknown, keyword: string, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new UnsupportedSchemaError(keyword, path, 'not a non-negative integer');
  }
  return value;
}

function bound(s: Schema, inclusive: string, exclusive: string, path: string): NumberBound | undefined {
  const candidates: NumberBound[] = [];
  const plain = s[inclusive];
  const strict = s[exclusive];
  if (plain !== undefined) {
    if (typeof plain !== 'number' || !Number.isFinite(plain))
      throw new UnsupportedSchemaError(inclusive, path, 'not a number');
    // Draft 4 spelled exclusive bounds as `exclusiveMinimum: true` beside `minimum`.
    candidates.push({ value: plain, exclusive: strict === true });
  }
  if (typeof strict === 'number') {
    if (!Number.isFinite(strict)) throw new UnsupportedSchemaError(exclusive, path, 'not a finite number');
    candidates.push({ value: strict, exclusive: true });
  } else if (strict !== undefined && typeof strict !== 'boolean') {
    throw new UnsupportedSchemaError(exclusive, path, 'not a number');
  }
  const lower = inclusive === 'minimum';
  // The tighter of the two applies.
  return candidates.reduce<NumberBound | undefined>((tightest, b) => {
    if (!tightest) return b;
    if (b.value === tightest.value) return b.exclusive ? b : tightest;
    return lower === b.value > tightest.value ? b : tightest;
  }, undefined);
}

function matchesType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/** What a branch can be, for the oneOf exclusivity check: its types and, per property, its values. */
function branchTypes(schema: unknown): Set<string> | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Schema;
  const values = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : null;
  if (values) return new Set(values.map(jsonTypeOf));
  if (s.type === undefined) return null;
  const list = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
  return new Set(list.map((t) => (t === 'integer' ? 'number' : t)));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value === 'number' ? 'number' : typeof value;
}

function valuesOf(schema: unknown): Set<string> | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Schema;
  const values = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : null;
  return values ? new Set(values.map((v) => JSON.stringify(v))) : null;
}

/**
 * oneOf means exactly one branch matches. The grammar reads branches as alternatives, which is right
 * only when no value can match two of them; so every pair must be provably disjoint: by type, by
 * const/enum, or by a property required in both whose const/enum values do not overlap.
 */
function checkExclusive(branches: unknown[], path: string, resolve: (ref: string) => unknown): void {
  const deref = (b: unknown): unknown =>
    typeof b === 'object' && b !== null && typeof (b as Schema).$ref === 'string'
      ? resolve((b as Schema).$ref as string)
      : b;
  const list = branches.map(deref);
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      if (!disjoint(list[i], list[j], deref)) {
        throw new UnsupportedSchemaError(
          'oneOf',
          path,
          `branches ${i} and ${j} may both match; exclusivity cannot be enforced (anyOf would be)`,
        );
      }
    }
  }
}

function disjoint(a: unknown, b: unknown, deref: (b: unknown) => unknown): boolean {
  const ta = branchTypes(a);
  const tb = branchTypes(b);
  if (ta && tb && ![...ta].some((t) => tb.has(t))) return true;
  const va = valuesOf(a);
  const vb = valuesOf(b);
  if (va && vb && ![...va].some((v) => vb.has(v))) return true;
  // The property argument holds only when both branches admit objects alone.
  if (ta?.size !== 1 || !ta.has('object') || tb?.size !== 1 || !tb.has('object')) return false;
  const sa = a as Schema;
  const sb = b as Schema;
  const pa = (sa.properties ?? {}) as Record<string, unknown>;
  const pb = (sb.properties ?? {}) as Record<string, unknown>;
  const ra = Array.isArray(sa.required) ? sa.required : [];
  const rb = Array.isArray(sb.required) ? sb.required : [];
  for (const name of Object.keys(pa)) {
    if (!(name in pb) || !ra.includes(name) || !rb.includes(name)) continue;
    const x = valuesOf(deref(pa[name]));
    const y = valuesOf(deref(pb[name]));
    if (x && y && ![...x].some((v) => y.has(v))) return true;
  }
  return false;
}
