import { compileArray } from './compile-array.js';
import { compileNumber } from './compile-number.js';
import { compileObject } from './compile-object.js';
import { compileString } from './compile-string.js';
import { UnsatisfiableSchemaError, UnsupportedSchemaError } from './errors.js';
import { LiteralLeaf, WhitespaceLeaf } from './literal-leaf.js';
import { ChoiceNode, type GrammarNode, ReferenceNode, SequenceNode, type Shortest } from './nodes.js';
import { checkExclusive } from './oneof-exclusivity.js';
import {
  ALL_TYPES,
  ANNOTATIONS,
  assertionsOf,
  type JsonType,
  matchesType,
  type Schema,
  SUPPORTED,
} from './schema-keywords.js';

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
}

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
  readonly flexible: boolean;
  readonly maxFractionDigits: number;
  readonly maxDigits: number;
  readonly propertyOrder: 'schema' | 'any';
  readonly additionalPropertiesDefault: 'forbid' | 'allow';

  constructor(
    private readonly document: unknown,
    options: SchemaCompileOptions = {},
  ) {
    this.flexible = options.whitespace === 'flexible';
    this.maxFractionDigits = options.maxFractionDigits ?? 6;
    this.maxDigits = options.maxDigits ?? 15;
    this.propertyOrder = options.propertyOrder ?? 'schema';
    this.additionalPropertiesDefault = options.additionalProperties ?? 'forbid';
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

  add<T extends GrammarNode>(make: (id: number) => T): T {
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
    if (schema === true) return this.any();
    if (schema === false) throw new UnsatisfiableSchemaError(path, 'the schema is `false`');
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new UnsupportedSchemaError('(schema)', path, 'a schema must be an object or a boolean');
    }
    const s = assertionsOf(schema as Schema);
    for (const keyword of Object.keys(s)) {
      if (!SUPPORTED.has(keyword)) throw new UnsupportedSchemaError(keyword, path);
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

  resolve(ref: string, path: string): unknown {
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
  any(): GrammarNode {
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
