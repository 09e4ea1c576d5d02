import { UnsatisfiableSchemaError, UnsupportedSchemaError } from '../errors.js';
import { LiteralLeaf } from '../grammar/literal-leaf.js';
import { ChoiceNode, type GrammarNode, ListNode } from '../grammar/nodes.js';
import { TupleNode } from '../grammar/tuple-node.js';
import { nonNegativeInteger, type Schema } from '../schema/schema-keywords.js';
import type { CompileContext } from './compile-context.js';

/**
 * `type: array`: items, counts and uniqueness. `additionalItems` means something only beside the array
 * form of `items` (draft 4 to 2019-09); alone, a validator ignores it, and so does the compiler.
 */
export function compileArray(c: CompileContext, s: Schema, path: string): GrammarNode {
  const minItems = nonNegativeInteger(s.minItems, 'minItems', path) ?? 0;
  const maxItems = nonNegativeInteger(s.maxItems, 'maxItems', path) ?? Number.POSITIVE_INFINITY;
  c.budget.size(minItems, 'minItems', path);
  if (minItems > maxItems)
    throw new UnsatisfiableSchemaError({ schemaPath: path, detail: 'minItems is above maxItems' });
  const tuple = tupleOf(s, path);
  if (tuple !== null) return compileTuple(c, tuple, s, minItems, maxItems, path);
  const unique = s.uniqueItems === true && maxItems > 1;
  if (s.uniqueItems !== undefined && typeof s.uniqueItems !== 'boolean') {
    throw new UnsupportedSchemaError({ keyword: 'uniqueItems', schemaPath: path, detail: 'not a boolean' });
  }
  const itemSchema = s.items ?? true;
  if (unique) {
    c.budget.uniqueItems(minItems, path);
    checkUniqueItems(itemSchema, minItems, `${path}/items`);
  }
  const item =
    maxItems === 0 && s.items === undefined
      ? c.literal('null')
      : c.compile(itemSchema, `${path}/items`, unique);
  const opener = c.punctuation('[', false, true);
  const separator = c.punctuation(',', true, true);
  const closer = c.punctuation(']', true, false);
  const list = c.add(
    (id) => new ListNode(id, opener, item, separator, closer, minItems, maxItems, unique, c.dynamicIds),
  );
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
      throw new UnsupportedSchemaError({
        keyword: 'uniqueItems',
        schemaPath: path,
        detail: 'items that are objects or arrays',
      });
    }
    if (new Set(values.map((v) => JSON.stringify(v))).size < minItems) {
      throw new UnsatisfiableSchemaError({ schemaPath: path, detail: 'fewer distinct values than minItems' });
    }
    return;
  }
  if (s.type === 'string' && s.$ref === undefined && s.oneOf === undefined && s.anyOf === undefined) return;
  throw new UnsupportedSchemaError({
    keyword: 'uniqueItems',
    schemaPath: path,
    detail: 'only for string items or enum/const items',
  });
}

interface Tuple {
  /** The schema of each leading position, and where it is written (for error paths). */
  prefix: unknown[];
  prefixKeyword: 'items' | 'prefixItems';
  /** The schema of every later item; `false`: there is none. */
  rest: unknown;
  restKeyword: 'additionalItems' | 'items';
}

/** The positional form of an array schema, in either spelling, or null for a plain list. */
function tupleOf(s: Schema, path: string): Tuple | null {
  if (Array.isArray(s.prefixItems)) {
    if (Array.isArray(s.items))
      throw new UnsupportedSchemaError({
        keyword: 'items',
        schemaPath: path,
        detail: 'an array beside prefixItems',
      });
    return {
      prefix: s.prefixItems,
      prefixKeyword: 'prefixItems',
      rest: s.items ?? true,
      restKeyword: 'items',
    };
  }
  if (s.prefixItems !== undefined)
    throw new UnsupportedSchemaError({
      keyword: 'prefixItems',
      schemaPath: path,
      detail: 'not a list of schemas',
    });
  if (!Array.isArray(s.items)) return null;
  return {
    prefix: s.items,
    prefixKeyword: 'items',
    rest: s.additionalItems ?? true,
    restKeyword: 'additionalItems',
  };
}

function compileTuple(
  c: CompileContext,
  tuple: Tuple,
  s: Schema,
  minItems: number,
  maxItems: number,
  path: string,
): GrammarNode {
  if (s.uniqueItems === true) {
    throw new UnsupportedSchemaError({
      keyword: 'uniqueItems',
      schemaPath: path,
      detail: 'together with a schema per position',
    });
  }
  const prefix = tuple.prefix.map((item, i) => c.compile(item, `${path}/${tuple.prefixKeyword}/${i}`, false));
  const rest = tuple.rest === false ? null : c.compile(tuple.rest, `${path}/${tuple.restKeyword}`, false);
  if (rest === null && minItems > prefix.length) {
    throw new UnsatisfiableSchemaError({
      schemaPath: path,
      detail: 'minItems is above the number of positions',
    });
  }
  const opener = c.punctuation('[', false, true);
  const separator = c.punctuation(',', true, true);
  const closer = c.punctuation(']', true, false);
  return c.add((id) => new TupleNode(id, opener, prefix, rest, separator, closer, minItems, maxItems));
}
