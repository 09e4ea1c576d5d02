import { SchemaLimitError, UnsupportedSchemaError } from '../errors.js';
import { type CompileBudget, UNBOUNDED } from './compile-budget.js';
import { escapePointer, type Schema } from './schema-keywords.js';

/**
 * `$ref` resolution as JSON Schema defines it, done once before compiling: every reference is rewritten
 * into a JSON Pointer from the document's root (`#/definitions/a`), the only form the compiler follows.
 *
 * A reference is resolved against the base URI in force where it is written: the document's, changed by
 * each `$id` (drafts 6 and later) or `id` (drafts 3 and 4) on the way down. Its fragment is either a
 * JSON Pointer into the schema resource it names or a plain name: an `$anchor` or `$dynamicAnchor`
 * (2019-09 and later), an `$id: "#name"` (drafts 6 and 7) or an `id: "#name"` (drafts 3 and 4). A
 * reference that names nothing in the document (a remote schema, a misspelt anchor) is left in a form
 * the compiler refuses with `UnsupportedSchemaError` when it reaches it: a reference the compiler cannot
 * follow never means "any value".
 *
 * Without `$schema`, haggle's choice is to read `$id`, `$anchor` and `$dynamicAnchor`, and `id` only in
 * its plain-name form (`"id": "#name"`): an `id` holding a URI is too often an annotation in such
 * schemas to be taken as a change of base, while `"#name"` can only be an anchor.
 */
export function resolveReferences(document: unknown, budget: CompileBudget = UNBOUNDED): unknown {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return document;
  const dialect = dialectOf((document as Schema).$schema);
  const index = new ReferenceIndex();
  const refs = walk(document as Schema, dialect, index, budget);
  const rewrites: Array<{ at: string[]; ref: string }> = [];
  for (const { at, ref, base } of refs) {
    const target = index.find(ref, base, document);
    if (target === ref) continue; // already a pointer from the root, in a document without ids
    rewrites.push({ at, ref: target });
  }
  return rewrites.length === 0 ? document : rewritten(document as Schema, rewrites);
}

type Dialect = 'draft4' | 'draft7' | 'modern' | 'unknown';

function dialectOf(schema: unknown): Dialect {
  if (typeof schema !== 'string') return 'unknown';
  if (/draft-0[34]\//.test(schema)) return 'draft4';
  if (/draft-0[67]\//.test(schema)) return 'draft7';
  if (/\/(2019-09|2020-12|next)\//.test(schema)) return 'modern';
  return 'unknown';
}

/** The document's base URI when its root has no `$id` (any absolute URI would do; haggle's choice). */
const DEFAULT_BASE = 'https://haggle.invalid/schema.json';

/** Keywords whose value maps names to schemas (the names are not keywords). */
const SCHEMA_MAP = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
/** Keywords whose value is data, never a schema: a `$ref` or `$id` inside is just a value. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example', 'required', '$comment']);

interface FoundRef {
  /** Where the `$ref` is, as raw keys from the root. */
  at: string[];
  ref: string;
  base: string;
}

class ReferenceIndex {
  /** Absolute URI of a schema resource (no fragment) -> raw keys of its place from the root. */
  readonly resources = new Map<string, string[]>();
  /** `URI#name` -> raw keys of the schema that carries the anchor. */
  readonly anchors = new Map<string, string[]>();
  /** Anchors declared by more than one schema. */
  readonly ambiguous = new Set<string>();
  /** Whether the document declares any id or anchor (else pointers from the root need no rewriting). */
  identified = false;

  /** The root pointer a reference written under `base` stands for, or the reference as an absolute URI. */
  find(ref: string, base: string, document: unknown): string {
    if (!this.identified && (ref === '#' || ref.startsWith('#/'))) return ref;
    let absolute: URL;
    try {
      absolute = new URL(ref, base);
    } catch {
      return ref;
    }
    const fragment = safeDecode(absolute.hash.slice(1));
    absolute.hash = '';
    // Not found: a form the compiler refuses (it follows only `#` and `#/...`), as written when that
    // is already such a form.
    const unresolved =
      absolute.href === DEFAULT_BASE && ref.startsWith('#') ? ref : `${absolute.href}#${fragment}`;
    const resource = this.resources.get(absolute.href);
    if (resource === undefined) return unresolved;
    let keys: string[] | undefined;
    if (fragment === '') keys = resource;
    else if (fragment.startsWith('/')) {
      keys = [...resource, ...fragment.slice(1).split('/').map(unescapePointer)];
      if (!exists(document, keys)) return unresolved;
    } else if (!this.ambiguous.has(`${absolute.href}#${fragment}`)) {
      keys = this.anchors.get(`${absolute.href}#${fragment}`);
    }
    if (keys === undefined) return unresolved;
    return pointerOf(keys);
  }
}

/** A place in the document, linked to its parent's (arrays of keys are built only where needed). */
interface Place {
  key: string;
  parent: Place | null;
  depth: number;
}

function keysOf(place: Place | null): string[] {
  const keys: string[] = [];
  for (let p = place; p !== null; p = p.parent) keys.push(p.key);
  return keys.reverse();
}

/**
 * Every `$ref` of the document with the base URI it is written under, and every id and anchor in the
 * index. Iterative (a schema may nest thousands of levels); each object is visited once, so a schema
 * built in code that shares (or even cycles through) objects is walked in finite time. A document
 * nested deeper than `maxNesting` JSON levels is refused: the compiler's recursive steps (and
 * `JSON.stringify`) would run out of stack on it.
 */
function walk(root: Schema, dialect: Dialect, index: ReferenceIndex, budget: CompileBudget): FoundRef[] {
  const refs: FoundRef[] = [];
  const seen = new Set<object>();
  const maxNesting = nestingLimit(budget.maxDepth);
  type Item = { value: unknown; place: Place | null; base: string; schema: boolean };
  const stack: Item[] = [{ value: root, place: null, base: DEFAULT_BASE, schema: true }];
  index.resources.set(DEFAULT_BASE, []);
  while (stack.length > 0) {
    const { value, place, base: outer, schema } = stack.pop() as Item;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    budget.tick('#');
    const depth = place === null ? 0 : place.depth;
    if (depth > maxNesting)
      throw new SchemaLimitError({
        limit: 'depth',
        value: budget.maxDepth,
        schemaPath: pointerOf(keysOf(place)),
      });
    const child = (key: string): Place => ({ key, parent: place, depth: depth + 1 });
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        stack.push({ value: item, place: child(String(i)), base: outer, schema });
      });
      continue;
    }
    const s = value as Schema;
    let base = outer;
    if (schema) {
      // Drafts 4 to 7 ignore every keyword beside `$ref`, an id included (not at the root, whose id
      // names the document either way).
      const idIgnored =
        (dialect === 'draft4' || dialect === 'draft7') && place !== null && typeof s.$ref === 'string';
      base = idIgnored ? outer : identify(s, place, outer, dialect, index);
      if (typeof s.$ref === 'string') refs.push({ at: keysOf(place), ref: s.$ref, base });
    }
    for (const [key, sub] of Object.entries(s)) {
      if (typeof sub !== 'object' || sub === null) continue;
      const here = child(key);
      if (!schema || DATA.has(key)) {
        // Data (an enum's values): walked for its depth only.
        stack.push({ value: sub, place: here, base, schema: false });
      } else if (SCHEMA_MAP.has(key) && !Array.isArray(sub)) {
        for (const [name, member] of Object.entries(sub)) {
          stack.push({
            value: member,
            place: { key: name, parent: here, depth: depth + 2 },
            base,
            schema: true,
          });
        }
      } else {
        // One schema, a list of them, or an unknown keyword whose value a pointer may still reach
        // (`x-definitions`): read as schemas too.
        stack.push({ value: sub, place: here, base, schema: true });
      }
    }
  }
  return refs;
}

/**
 * JSON levels allowed for `maxDepth` schema levels: a schema level can take two (`properties`, then the
 * name) and an enum value nests on its own; four per level leaves room (haggle's choice).
 */
export function nestingLimit(maxDepth: number): number {
  return maxDepth * 4;
}

/** Registers the ids and anchors of one schema object; returns the base URI inside it. */
function identify(
  s: Schema,
  place: Place | null,
  outer: string,
  dialect: Dialect,
  index: ReferenceIndex,
): string {
  let base = outer;
  const at = (): string[] => keysOf(place);
  const id =
    dialect === 'draft4'
      ? s.id
      : dialect === 'unknown' && typeof s.$id !== 'string' && typeof s.id === 'string' && s.id.startsWith('#')
        ? s.id
        : s.$id;
  const keyword = id === s.$id ? '$id' : 'id';
  if (typeof id === 'string') {
    let uri: URL;
    try {
      uri = new URL(id, outer);
    } catch {
      throw new UnsupportedSchemaError({
        keyword,
        schemaPath: pointerOf(at()),
        detail: `${JSON.stringify(id)} is not a URI reference`,
      });
    }
    index.identified = true;
    const fragment = safeDecode(uri.hash.slice(1));
    uri.hash = '';
    if (!id.startsWith('#')) {
      base = uri.href;
      if (!index.resources.has(base)) index.resources.set(base, at());
    }
    // A plain-name fragment is an anchor (drafts 4 to 7); a pointer fragment names no new place.
    if (fragment !== '' && !fragment.startsWith('/')) addAnchor(index, `${uri.href}#${fragment}`, at());
  }
  if (dialect !== 'draft4' && dialect !== 'draft7') {
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      const name = s[keyword];
      if (typeof name !== 'string') continue;
      index.identified = true;
      addAnchor(index, `${base}#${name}`, at());
    }
  }
  return base;
}

/** An anchor declared twice names nothing: a reference to it is refused, the schema otherwise kept. */
function addAnchor(index: ReferenceIndex, key: string, at: string[]): void {
  const known = index.anchors.get(key);
  if (known !== undefined && pointerOf(known) !== pointerOf(at)) index.ambiguous.add(key);
  index.anchors.set(key, at);
}

/** The document with the given `$ref`s replaced; only the objects on the way to them are copied. */
function rewritten(document: Schema, rewrites: ReadonlyArray<{ at: string[]; ref: string }>): Schema {
  const copies = new Map<string, Schema | unknown[]>();
  const root: Schema = { ...document };
  copies.set('', root);
  for (const { at, ref } of rewrites) {
    let holder: Schema | unknown[] = root;
    let path = '';
    for (const key of at) {
      path += `/${escapePointer(key)}`;
      let copy = copies.get(path);
      if (copy === undefined) {
        const original: unknown = (holder as Record<string, unknown>)[key];
        copy = Array.isArray(original) ? [...original] : { ...(original as Schema) };
        (holder as Record<string, unknown>)[key] = copy;
        copies.set(path, copy);
      }
      holder = copy;
    }
    (holder as Schema).$ref = ref;
  }
  return root;
}

function exists(document: unknown, keys: readonly string[]): boolean {
  let target = document;
  for (const key of keys) {
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, key)) return false;
    target = (target as Schema)[key];
  }
  return true;
}

/** `#/a/b`, each key escaped as a JSON Pointer token and percent-encoded as a URI fragment. */
export function pointerOf(keys: readonly string[]): string {
  return `#${keys.map((key) => `/${escapePointer(key).replace(/%/g, '%25')}`).join('')}`;
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
