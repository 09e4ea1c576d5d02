import type { JsonSchema } from '../../contract/json-schema.js';

/**
 * Keywords OpenAI's strict structured outputs do not accept (its documented subset keeps `pattern`,
 * `format`, number bounds and `minItems`/`maxItems`). Dropping them loosens the server's constraint
 * only; the agent still validates every turn against the full contract.
 */
const UNSUPPORTED_KEYWORDS = [
  '$schema',
  'uniqueItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
];

/** A schema rewritten for OpenAI's strict mode, with what had to change. */
export interface StrictSchemaResult {
  schema: JsonSchema;
  /** What was changed, for the warning: dropped keywords and merged branches. */
  changes: string[];
}

/**
 * Rewrites a JSON Schema into the subset OpenAI's `strict: true` accepts: the root is one object (a
 * root `oneOf` of objects is merged into one object whose properties are the union, each an `anyOf`
 * of the branches' schemas), every object lists every property as required and forbids extras, and
 * `oneOf` becomes `anyOf`. The merged root admits mixes the branches did not (a price on an accept),
 * which the agent's validation then rejects and re-asks.
 */
export function toStrictSchema(schema: JsonSchema): StrictSchemaResult {
  const changes = new Set<string>();
  const root = mergeRootBranches(schema, changes);
  return { schema: rewrite(root, changes) as JsonSchema, changes: [...changes] };
}

function mergeRootBranches(schema: JsonSchema, changes: Set<string>): JsonSchema {
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!Array.isArray(branches) || !branches.every(isObjectSchema)) return schema;
  changes.add('root oneOf branches merged into one object');
  const order: string[] = [];
  const variants = new Map<string, JsonSchema[]>();
  for (const branch of branches) {
    for (const [key, value] of Object.entries(branch.properties as Record<string, JsonSchema>)) {
      if (!variants.has(key)) {
        order.push(key);
        variants.set(key, []);
      }
      const list = variants.get(key) as JsonSchema[];
      if (!list.some((seen) => JSON.stringify(seen) === JSON.stringify(value))) list.push(value);
    }
  }
  const properties: Record<string, JsonSchema> = {};
  for (const key of order) properties[key] = unionOf(variants.get(key) as JsonSchema[]);
  const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = schema;
  return { ...rest, type: 'object', properties, required: order, additionalProperties: false };
}

/** One schema for several alternatives: an enum when all are constants, else `anyOf`. */
function unionOf(list: JsonSchema[]): JsonSchema {
  if (list.length === 1) return list[0] as JsonSchema;
  if (list.every((item) => Object.keys(item).length === 1 && 'const' in item)) {
    const values = list.map((item) => item.const);
    const types = [...new Set(values.map((value) => (value === null ? 'null' : typeof value)))];
    return { type: types.length === 1 ? types[0] : types, enum: values };
  }
  return { anyOf: list };
}

function isObjectSchema(value: unknown): value is JsonSchema {
  const node = value as JsonSchema | null;
  return (
    typeof node === 'object' && node !== null && node.type === 'object' && typeof node.properties === 'object'
  );
}

function rewrite(node: unknown, changes: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, changes));
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (UNSUPPORTED_KEYWORDS.includes(key)) {
      if (key !== '$schema') changes.add(`dropped ${key}`);
      continue;
    }
    if (key === 'oneOf') {
      changes.add('oneOf became anyOf');
      out.anyOf = rewrite(value, changes);
      continue;
    }
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, sub]) => [name, rewrite(sub, changes)]),
      );
      continue;
    }
    out[key] = rewrite(value, changes);
  }
  if (out.type === 'object' && typeof out.properties === 'object' && out.properties !== null) {
    const properties = out.properties as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
    for (const name of Object.keys(properties)) {
      // Strict mode has no optional properties: an optional one must become nullable instead.
      if (!required.has(name)) {
        properties[name] = { anyOf: [properties[name] as JsonSchema, { type: 'null' }] };
        changes.add('optional properties became required and nullable');
      }
    }
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** OpenAI's `json_schema.name`: letters, digits, `_` and `-`, at most 64. */
export function schemaName(name: string | undefined): string {
  const cleaned = (name ?? 'response').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'response' : cleaned;
}
