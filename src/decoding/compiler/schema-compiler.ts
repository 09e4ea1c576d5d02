import { UnsatisfiableSchemaError, UnsupportedSchemaError } from '../errors.js';
import { DynamicIds } from '../grammar/dynamic-ids.js';
import { LiteralLeaf, WhitespaceLeaf } from '../grammar/literal-leaf.js';
import {
  ChoiceNode,
  type GrammarNode,
  ReferenceNode,
  SequenceNode,
  type Shortest,
} from '../grammar/nodes.js';
import { NumberLeaf } from '../grammar/number-leaf.js';
import { CompileBudget } from '../schema/compile-budget.js';
import { checkExclusive } from '../schema/oneof-exclusivity.js';
import { SchemaAlgebra, valuesOf } from '../schema/schema-algebra.js';
import {
  ALL_TYPES,
  ANNOTATIONS,
  assertionsOf,
  type Flat,
  type JsonType,
  type Schema,
  SUPPORTED,
} from '../schema/schema-keywords.js';
import { resolveReferences } from '../schema/schema-references.js';
import { canonical, satisfies } from '../schema/value-check.js';
import { compileArray } from './compile-array.js';
import type { CompileContext } from './compile-context.js';
import { compileNumber } from './compile-number.js';
import { compileObject } from './compile-object.js';
import { compileString } from './compile-string.js';
import { PatternCache } from './pattern-cache.js';

/** How a schema compiles: whitespace between tokens, number digits, property order, extra properties. */
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
  /**
   * How numbers may be spelt. `plain` (default): without an exponent, and an `enum`/`const` number as
   * `JSON.stringify` spells it (`2`), the compact spelling a model is trained on. `json`: every spelling
   * JSON's grammar has for the same values: an exponent part in `type: number` values (`1.256e-05`,
   * `1E+3`), and an `enum`/`const` number in any spelling equal to it (`2`, `2.0`, `2e0`, `20e-1`), as a
   * JSON Schema validator compares them. Integers (`type: integer`) never take a point or an exponent.
   */
  numberSyntax?: 'plain' | 'json';
  /**
   * `schema` (default): declared properties are written in the order of `properties`, the order a model
   * is trained to write them in (and one spelling per object, so fewer tokens to choose between).
   * `any`: in any order, each at most once, as a JSON Schema validator reads an object.
   */
  propertyOrder?: 'schema' | 'any';
  /**
   * What an object schema without `additionalProperties` allows beyond its declared properties:
   * `forbid` (default: a model writes only the keys it was asked for) or `allow` (JSON Schema's own
   * meaning: any other key, with any value, subject to `patternProperties` and `propertyNames`).
   */
  additionalProperties?: 'forbid' | 'allow';
  /**
   * Most levels of schemas within schemas, references followed (default 256): deeper schemas are
   * refused with `SchemaLimitError` rather than exhausting the stack (see docs/decoding.md).
   */
  maxDepth?: number;
  /** Most grammar nodes one schema may compile to (default 200,000, some tens of MB); beyond: refused. */
  maxNodes?: number;
  /**
   * Largest size a schema may ask for (default 65,536): `minLength`, `minItems`, `minProperties`, and
   * the bytes of the shortest document it allows; beyond: `SchemaLimitError`.
   */
  maxSize?: number;
  /**
   * Most values one `enum` may list (default 4,096; haggle's choice, see docs/decoding.md, "Bounds"):
   * the mask walks and the matcher steps every value that is still possible, on the thread that serves
   * every request of a model, so what an enum costs is bounded when it is compiled.
   */
  maxEnumValues?: number;
  /**
   * Most items a `uniqueItems` list may be required to hold (`minItems`; default 256, haggle's choice):
   * each item is compared with every one before it, and finishing the document near the token budget
   * must find that many distinct values.
   */
  maxUniqueItems?: number;
  /** Most milliseconds compiling may take (default 10,000); beyond: `SchemaLimitError`. */
  timeBudgetMs?: number;
  /** Stops compiling (with `HaggleAbortError`) when aborted. */
  signal?: AbortSignal;
}

/** Defaults of the compile bounds (haggle's choice; see docs/decoding.md, "Bounds"). */
export const COMPILE_LIMITS = {
  maxDepth: 256,
  maxNodes: 200_000,
  maxSize: 65_536,
  timeBudgetMs: 10_000,
  maxEnumValues: 4_096,
  maxUniqueItems: 256,
} as const;

export interface CompiledNodes {
  root: GrammarNode;
  nodes: GrammarNode[];
  shortest: Shortest;
}

/** Keywords that combine schemas: the algebra rewrites them before compiling (schema-algebra.ts). */
const COMBINATORS = ['allOf', 'not', 'if', 'then', 'else'];
/** Most rewritten schemas in one document: intersections of recursive definitions can keep growing. */
const MAX_DERIVED = 2000;

/** JSON Schema (the subset in SUPPORTED_KEYWORDS) to a grammar graph. */
export class SchemaCompiler implements CompileContext {
  private readonly nodes: GrammarNode[] = [];
  private readonly references = new Map<string, ReferenceNode>();
  private anyValue: ReferenceNode | null = null;
  /** Schemas rewritten by the algebra, by their canonical text: a recursive one is compiled once. */
  private readonly derivedSchemas = new Map<string, ReferenceNode>();
  private readonly algebra: SchemaAlgebra;
  /** Drafts 4 to 7: keywords beside `$ref` are ignored (see SchemaAlgebra). */
  private readonly refOverridesSiblings: boolean;
  readonly flexible: boolean;
  readonly maxFractionDigits: number;
  readonly maxDigits: number;
  readonly numberSyntax: 'plain' | 'json';
  readonly propertyOrder: 'schema' | 'any';
  readonly additionalPropertiesDefault: 'forbid' | 'allow';
  readonly budget: CompileBudget;
  readonly patterns: PatternCache;
  readonly dynamicIds = new DynamicIds();
  /** The schema, its references rewritten into pointers from its root (schema-references.ts). */
  private readonly document: unknown;
  /** How many `compile` calls are open: the nesting depth, references included. */
  private depth = 0;

  constructor(
    document: unknown,
    options: SchemaCompileOptions = {},
    /** Automata shared with other compiles (the `GrammarCompiler`'s); a cache of its own otherwise. */
    patterns: PatternCache = new PatternCache(),
  ) {
    this.patterns = patterns;
    this.budget = new CompileBudget(
      options.maxDepth ?? COMPILE_LIMITS.maxDepth,
      options.maxNodes ?? COMPILE_LIMITS.maxNodes,
      options.timeBudgetMs ?? COMPILE_LIMITS.timeBudgetMs,
      options.signal,
      options.maxSize ?? COMPILE_LIMITS.maxSize,
      {
        maxEnumValues: options.maxEnumValues ?? COMPILE_LIMITS.maxEnumValues,
        maxUniqueItems: options.maxUniqueItems ?? COMPILE_LIMITS.maxUniqueItems,
      },
    );
    this.document = resolveReferences(document, this.budget);
    this.flexible = options.whitespace === 'flexible';
    this.maxFractionDigits = options.maxFractionDigits ?? 6;
    this.maxDigits = options.maxDigits ?? 15;
    this.numberSyntax = options.numberSyntax ?? 'plain';
    this.propertyOrder = options.propertyOrder ?? 'schema';
    this.additionalPropertiesDefault = options.additionalProperties ?? 'forbid';
    const dialect = (document as { $schema?: unknown } | null)?.$schema;
    this.refOverridesSiblings = typeof dialect === 'string' && /draft-0[3-7]\//.test(dialect);
    this.algebra = new SchemaAlgebra(
      (ref, path) => this.resolve(ref, path),
      this.refOverridesSiblings,
      this.budget,
    );
  }

  compileDocument(): CompiledNodes {
    const root = this.compile(this.document, '#', false);
    for (const ref of this.references.values()) {
      if (ref.target === null)
        throw new UnsupportedSchemaError({
          keyword: '$ref',
          schemaPath: '#',
          detail: 'unresolved reference',
        });
    }
    this.checkLeftRecursion();
    const shortest = this.shortestSentences();
    if (shortest(root) === null)
      throw new UnsatisfiableSchemaError({ schemaPath: '#', detail: 'no finite JSON value matches' });
    return { root, nodes: this.nodes, shortest };
  }

  add<T extends GrammarNode>(make: (id: number) => T): T {
    this.budget.nodes(this.nodes.length + 1);
    this.budget.tick('#');
    const node = make(this.nodes.length);
    this.nodes.push(node);
    return node;
  }

  literal(text: string): LiteralLeaf {
    return this.add((id) => new LiteralLeaf(id, text));
  }

  /** A sequence; adjacent literals merge into one (fewer frames per byte). */
  sequence(parts: GrammarNode[]): GrammarNode {
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

  choice(options: GrammarNode[]): GrammarNode {
    if (options.length === 1) return options[0] as GrammarNode;
    return this.add((id) => new ChoiceNode(id, options));
  }

  /** Punctuation, with optional whitespace around it in the flexible mode. */
  punctuation(text: string, before: boolean, after: boolean): GrammarNode {
    if (!this.flexible) return this.literal(text);
    const parts: GrammarNode[] = [];
    if (before) parts.push(this.add((id) => new WhitespaceLeaf(id)));
    parts.push(this.literal(text));
    if (after) parts.push(this.add((id) => new WhitespaceLeaf(id)));
    return this.sequence(parts);
  }

  compile(schema: unknown, path: string, collect: boolean): GrammarNode {
    this.budget.tick(path);
    this.budget.depth(++this.depth, path);
    try {
      return this.compileAt(schema, path, collect);
    } finally {
      this.depth--;
    }
  }

  private compileAt(schema: unknown, path: string, collect: boolean): GrammarNode {
    if (schema === true) return this.any();
    if (schema === false)
      throw new UnsatisfiableSchemaError({ schemaPath: path, detail: 'the schema is `false`' });
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new UnsupportedSchemaError({
        keyword: '(schema)',
        schemaPath: path,
        detail: 'a schema must be an object or a boolean',
      });
    }
    const s = assertionsOf(schema as Schema);
    for (const keyword of Object.keys(s)) {
      if (!SUPPORTED.has(keyword)) throw new UnsupportedSchemaError({ keyword, schemaPath: path });
    }
    const constraints = Object.keys(s).filter(
      (k) => !ANNOTATIONS.has(k) && k !== '$defs' && k !== 'definitions',
    );
    const combined = COMBINATORS.some((k) => s[k] !== undefined);
    if (s.$ref !== undefined && this.refOverridesSiblings) return this.reference(s.$ref, path);
    if (
      combined ||
      (s.$ref !== undefined && constraints.length > 1) ||
      (s.oneOf !== undefined && constraints.length > 1)
    ) {
      return this.derived(s, path, collect);
    }
    if (s.$ref !== undefined) return this.reference(s.$ref, path);
    if (s.oneOf !== undefined || s.anyOf !== undefined) return this.alternatives(s, path, collect);
    if (s.const !== undefined || s.enum !== undefined) return this.enumeration(s, path);
    const types = this.typesOf(s, path);
    const options = types.map((type) =>
      this.compileType(type, this.withoutEmptyProperties(s, path), path, collect),
    );
    return this.choice(options);
  }

  /** A schema with allOf, not, if/then/else, or siblings beside $ref or oneOf: flattened, then compiled. */
  private derived(s: Schema, path: string, collect: boolean): GrammarNode {
    const key = `${collect}:${canonical(s)}`;
    const known = this.derivedSchemas.get(key);
    if (known) return known;
    if (this.derivedSchemas.size >= MAX_DERIVED) {
      throw new UnsupportedSchemaError({
        keyword: 'allOf',
        schemaPath: path,
        detail: 'the combined schemas keep growing',
      });
    }
    const node = this.add((id) => new ReferenceNode(id));
    this.derivedSchemas.set(key, node);
    const flat = this.algebra.flatten(s, path);
    if (flat === false)
      throw new UnsatisfiableSchemaError({
        schemaPath: path,
        detail: 'its combined parts exclude each other',
      });
    node.target = this.compile(flat, path, collect);
    return node;
  }

  /**
   * An optional property no value can satisfy (`{type: object, enum: ["a"]}`, a common slip) can only be
   * absent: it becomes `false`. Provable emptiness only; anything unsure is compiled as written.
   */
  private withoutEmptyProperties(s: Schema, path: string): Schema {
    const properties = s.properties;
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return s;
    const required = Array.isArray(s.required) ? s.required : [];
    let out: Record<string, unknown> | null = null;
    for (const [name, sub] of Object.entries(properties)) {
      if (sub === false || required.includes(name) || !this.provablyEmpty(sub, path)) continue;
      out ??= { ...properties };
      out[name] = false;
    }
    return out ? { ...s, properties: out } : s;
  }

  private provablyEmpty(schema: unknown, path: string): boolean {
    let flat: Flat;
    try {
      flat = this.algebra.flatten(schema, path);
      if (flat === false) return true;
      const values = valuesOf(flat);
      return values !== null && !values.some((v) => satisfies(v, flat, (ref) => this.resolve(ref, path)));
    } catch (error) {
      if (error instanceof UnsupportedSchemaError) return false;
      throw error;
    }
  }

  private typesOf(s: Schema, path: string): JsonType[] {
    if (s.type === undefined) return [...ALL_TYPES];
    const list = Array.isArray(s.type) ? s.type : [s.type];
    const out: JsonType[] = [];
    for (const type of list) {
      if (typeof type !== 'string' || !['integer', ...ALL_TYPES].includes(type)) {
        throw new UnsupportedSchemaError({
          keyword: 'type',
          schemaPath: path,
          detail: `unknown type ${JSON.stringify(type)}`,
        });
      }
      out.push(type as JsonType);
    }
    // "integer" is a subset of "number": listing both means "number".
    const types = out.includes('number') ? out.filter((t) => t !== 'integer') : out;
    if (types.length === 0)
      throw new UnsatisfiableSchemaError({ schemaPath: path, detail: 'an empty list of types' });
    return [...new Set(types)];
  }

  private compileType(type: JsonType, s: Schema, path: string, collect: boolean): GrammarNode {
    switch (type) {
      case 'null':
        return this.literal('null');
      case 'boolean':
        return this.choice([this.literal('true'), this.literal('false')]);
      case 'string':
        return compileString(this, s, path, collect);
      case 'number':
      case 'integer':
        return compileNumber(this, s, path, type === 'integer');
      case 'array':
        return compileArray(this, s, path);
      case 'object':
        return compileObject(this, s, path);
    }
  }

  private enumeration(s: Schema, path: string): GrammarNode {
    const keyword = s.const !== undefined ? 'const' : 'enum';
    let values: unknown[];
    if (s.const !== undefined) values = [s.const];
    else if (Array.isArray(s.enum)) values = s.enum;
    else throw new UnsupportedSchemaError({ keyword: 'enum', schemaPath: path, detail: 'not a list' });
    this.budget.size(values.length, 'enum values', path);
    if (keyword === 'enum') this.budget.enumValues(values.length, path);
    if (s.type !== undefined) this.typesOf(s, path);
    // Every other keyword is checked on each value, by JSON Schema's rules (or refused if it cannot be).
    const { enum: _enum, const: _const, ...others } = s;
    if (s.const !== undefined && s.enum !== undefined) others.enum = s.enum;
    values = values.filter((v) => satisfies(v, others, (ref) => this.resolve(ref, path), path));
    const texts = [...new Set(values.map((v) => JSON.stringify(v)))];
    for (const text of texts) this.budget.literal(text.length, path);
    if (texts.length === 0)
      throw new UnsatisfiableSchemaError({ schemaPath: path, detail: `no value of ${keyword} is allowed` });
    return this.choice(texts.map((text) => this.value(JSON.parse(text))));
  }

  /**
   * A number of an enum or const: `JSON.stringify`'s spelling, or under `numberSyntax: 'json'` every
   * spelling of the same value (a number leaf bounded to it), where the leaf can write the value exactly.
   */
  private numberValue(v: number): GrammarNode {
    const text = JSON.stringify(v);
    if (this.numberSyntax !== 'json') return this.literal(text);
    const options = {
      integer: false,
      lower: { value: v, exclusive: false },
      upper: { value: v, exclusive: false },
      maxFractionDigits: this.maxFractionDigits,
      maxDigits: this.maxDigits,
      exponent: true,
    };
    const leaf = new NumberLeaf(-1, options);
    if (!leaf.satisfiable() || !leaf.accepts(text)) return this.literal(text);
    return this.add((id) => new NumberLeaf(id, options));
  }

  /** One JSON value, spelled as JSON.stringify does, with whitespace where the mode allows it. */
  private value(v: unknown): GrammarNode {
    if (Array.isArray(v) && v.length > 0) {
      const parts: GrammarNode[] = [this.punctuation('[', false, true)];
      v.forEach((item, i) => {
        if (i > 0) parts.push(this.punctuation(',', true, true));
        parts.push(this.value(item));
      });
      parts.push(this.punctuation(']', true, false));
      return this.sequence(parts);
    }
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0) {
      const parts: GrammarNode[] = [this.punctuation('{', false, true)];
      Object.entries(v).forEach(([key, item], i) => {
        if (i > 0) parts.push(this.punctuation(',', true, true));
        parts.push(this.literal(JSON.stringify(key)), this.punctuation(':', true, true), this.value(item));
      });
      parts.push(this.punctuation('}', true, false));
      return this.sequence(parts);
    }
    if (typeof v === 'number') return this.numberValue(v);
    return this.literal(JSON.stringify(v));
  }

  private alternatives(s: Schema, path: string, collect: boolean): GrammarNode {
    const keyword = s.oneOf !== undefined ? 'oneOf' : 'anyOf';
    const list = s[keyword];
    if (!Array.isArray(list) || list.length === 0) {
      throw new UnsupportedSchemaError({
        keyword,
        schemaPath: path,
        detail: 'not a non-empty list of schemas',
      });
    }
    // Sibling keywords apply to every branch: each branch is intersected with them.
    const siblings = Object.fromEntries(
      Object.entries(s).filter(
        ([k]) => !ANNOTATIONS.has(k) && k !== keyword && k !== '$defs' && k !== 'definitions',
      ),
    );
    if (Object.keys(siblings).length > 0) {
      return this.someOf(
        list.map((branch, i) => {
          const at = `${path}/${keyword}/${i}`;
          return { schema: this.algebra.flatten(branch, at, [], siblings), at };
        }),
        keyword,
        path,
        collect,
      );
    }
    if (keyword === 'oneOf') {
      const flat = list.map((branch, i) => ({
        branch: this.algebra.flatten(branch, `${path}/oneOf/${i}`),
        index: i,
      }));
      try {
        checkExclusive(
          flat.filter(({ branch }) => branch !== false),
          path,
          this.algebra,
        );
      } catch (error) {
        // The algebra may still make the branches exclusive (see SchemaAlgebra.exclusive).
        if (error instanceof UnsupportedSchemaError) return this.derived(s, path, collect);
        throw error;
      }
    }
    return this.someOf(
      list.map((branch, i) => ({ schema: branch, at: `${path}/${keyword}/${i}` })),
      keyword,
      path,
      collect,
    );
  }

  /** A choice of branches; one that can match nothing (contradictory parts, no value left) is dropped. */
  private someOf(
    branches: Array<{ schema: unknown; at: string }>,
    keyword: string,
    path: string,
    collect: boolean,
  ): GrammarNode {
    const options: GrammarNode[] = [];
    for (const { schema, at } of branches) {
      if (schema === false) continue;
      // Nodes made for a dropped branch are unreachable, but the memos must forget them: one of them may
      // be a reference whose target was never set, which would read as an empty value.
      const references = this.references.size;
      const derived = this.derivedSchemas.size;
      try {
        options.push(this.compile(schema, at, collect));
      } catch (error) {
        if (!(error instanceof UnsatisfiableSchemaError)) throw error;
        for (const key of [...this.references.keys()].slice(references)) this.references.delete(key);
        for (const key of [...this.derivedSchemas.keys()].slice(derived)) this.derivedSchemas.delete(key);
      }
    }
    if (options.length === 0)
      throw new UnsatisfiableSchemaError({ schemaPath: path, detail: `no branch of ${keyword} is possible` });
    return this.choice(options);
  }

  private reference(ref: unknown, path: string): GrammarNode {
    if (typeof ref !== 'string')
      throw new UnsupportedSchemaError({ keyword: '$ref', schemaPath: path, detail: 'not a string' });
    const known = this.references.get(ref);
    if (known) return known;
    const node = this.add((id) => new ReferenceNode(id));
    this.references.set(ref, node);
    node.target = this.compile(this.resolve(ref, path), ref, false);
    return node;
  }

  /**
   * The schema a reference names. References come rewritten into pointers from the root wherever they
   * name something in the document (schema-references.ts); anything else names nothing it holds.
   */
  resolve(ref: string, path: string): unknown {
    if (ref !== '#' && !ref.startsWith('#/')) {
      throw new UnsupportedSchemaError({
        keyword: '$ref',
        schemaPath: path,
        detail: `cannot resolve ${ref}: no schema in this document (or more than one) has that URI, $id or anchor; remote schemas are not fetched`,
      });
    }
    let target: unknown = this.document;
    for (const part of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      if (typeof target !== 'object' || target === null || !(key in target)) {
        throw new UnsupportedSchemaError({
          keyword: '$ref',
          schemaPath: path,
          detail: `cannot resolve ${ref}`,
        });
      }
      target = (target as Schema)[key];
    }
    return target;
  }

  /** Any JSON value (`{}` or `true`): one shared, recursive node. */
  any(): GrammarNode {
    if (this.anyValue) return this.anyValue;
    const node = this.add((id) => new ReferenceNode(id));
    this.anyValue = node;
    node.target = this.choice(ALL_TYPES.map((type) => this.compileType(type, {}, '#', false)));
    return node;
  }

  /**
   * A reference cycle that reads no byte before coming back would loop forever: refuse it. A depth-first
   * search with its own stack (a grammar's chains of first children can be thousands long).
   */
  private checkLeftRecursion(): void {
    const state = new Map<GrammarNode, 'open' | 'done'>();
    for (const root of this.nodes) {
      if (root.kind === 'leaf' || state.has(root)) continue;
      state.set(root, 'open');
      const stack: Array<{ node: GrammarNode; children: GrammarNode[]; next: number }> = [
        { node: root, children: root.firstChildren(), next: 0 },
      ];
      while (stack.length > 0) {
        this.budget.tick('#');
        const top = stack[stack.length - 1] as (typeof stack)[number];
        const child = top.children[top.next++];
        if (child === undefined) {
          state.set(top.node, 'done');
          stack.pop();
          continue;
        }
        if (child.kind === 'leaf') continue;
        const seen = state.get(child);
        if (seen === 'done') continue;
        if (seen === 'open')
          throw new UnsupportedSchemaError({
            keyword: '$ref',
            schemaPath: '#',
            detail: 'a reference cycle that reads nothing',
          });
        state.set(child, 'open');
        stack.push({ node: child, children: child.firstChildren(), next: 0 });
      }
    }
  }

  /** Shortest sentence of every node, by relaxation until nothing changes (handles cycles). */
  private shortestSentences(): Shortest {
    const best = new Map<GrammarNode, number[]>();
    const get: Shortest = (node) => best.get(node) ?? null;
    // A leaf's completion depends on nothing else: computed on its first visit, not once per round
    // (every round visits the nodes in the same order as before, so ties resolve as they did).
    const leaves = new Map<GrammarNode, number[] | null>();
    let changed = true;
    while (changed) {
      changed = false;
      for (const node of this.nodes) {
        this.budget.tick('#');
        let candidate: number[] | null;
        if (node.kind === 'leaf') {
          candidate = leaves.get(node) ?? null;
          if (!leaves.has(node)) {
            candidate = node.completion(node.initial());
            leaves.set(node, candidate);
          }
        } else if (node instanceof ChoiceNode) {
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
