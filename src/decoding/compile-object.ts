import { UnsupportedSchemaError } from './errors.js';
import { type GrammarNode, ListNode } from './nodes.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { escapePointer, type Schema } from './schema-keywords.js';
import { StringLeaf } from './string-leaf.js';

/** `type: object`: declared properties in schema order, required ones enforced; or a free-form map. */
export function compileObject(c: SchemaCompiler, s: Schema, path: string): GrammarNode {
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
  const opener = c.punctuation('{', false, true);
  const closer = c.punctuation('}', true, false);
  if (names.length === 0) {
    if (additional === false) return c.sequence([opener, closer]);
    // A free-form object: any keys, any values.
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
      c.any(),
    ]);
    const separator = c.punctuation(',', true, true);
    return c.add(
      (id) => new ListNode(id, opener, pair, separator, closer, 0, Number.POSITIVE_INFINITY, false),
    );
  }
  // Declared properties only, in schema order; undeclared ones are never generated.
  const values = names.map((name) =>
    c.compile(properties[name], `${path}/properties/${escapePointer(name)}`, false),
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
