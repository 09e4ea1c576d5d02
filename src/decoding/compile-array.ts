import { UnsatisfiableSchemaError, UnsupportedSchemaError } from './errors.js';
import { LiteralLeaf } from './literal-leaf.js';
import { ChoiceNode, type GrammarNode, ListNode } from './nodes.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { nonNegativeInteger, type Schema } from './schema-keywords.js';

/** `type: array`: items, counts and uniqueness. */
export function compileArray(c: SchemaCompiler, s: Schema, path: string): GrammarNode {
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
  if (unique) checkUniqueItems(itemSchema, minItems, `${path}/items`);
  const item =
    maxItems === 0 && s.items === undefined
      ? c.literal('null')
      : c.compile(itemSchema, `${path}/items`, unique);
  const opener = c.punctuation('[', false, true);
  const separator = c.punctuation(',', true, true);
  const closer = c.punctuation(']', true, false);
  const list = c.add((id) => new ListNode(id, opener, item, separator, closer, minItems, maxItems, unique));
  if (unique) {
    const leaves = item instanceof ChoiceNode ? item.options : [item];
    if (leaves.every((leaf) => leaf instanceof LiteralLeaf)) list.uniqueOptions = leaves as LiteralLeaf[];
  }
  return list;
}

function checkUniqueItems(items: unknown, minItems: number, path: string): void {
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
