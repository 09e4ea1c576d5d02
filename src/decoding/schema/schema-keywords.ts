import { UnsupportedSchemaError } from '../errors.js';

/** The JSON Schema vocabulary as the compiler sees it: what it enforces, what only describes. */

/** Keywords the compiler enforces. Any other keyword (except annotations) is refused at compile time. */
export const SUPPORTED_KEYWORDS: readonly string[] = [
  'type',
  'enum',
  'const',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$defs',
  'definitions',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'items',
  'prefixItems',
  'additionalItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
];

/** Keywords that describe and never constrain. */
export const ANNOTATIONS = new Set([
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

/**
 * Every keyword of JSON Schema (drafts 4 to 2020-12) that can make a value invalid, plus the places
 * definitions live. Only these are read: any other key of a schema object (`x-kubernetes-*`, `id`,
 * `javaType`, a misspelt `readonly`) is an annotation or an extension, and the specification says a
 * validator ignores it, so the compiler does too. A key from this list that the compiler cannot
 * enforce is refused, never skipped.
 */
export const ASSERTION_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'items',
  'additionalItems',
  'prefixItems',
  'maxItems',
  'minItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedItems',
  'maxProperties',
  'minProperties',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'unevaluatedProperties',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  '$defs',
  'definitions',
]);

/** The keys of a schema object that constrain (see ASSERTION_KEYWORDS); the rest are dropped. */
export function assertionsOf(schema: Schema): Schema {
  let kept: Schema | null = null;
  for (const key of Object.keys(schema)) {
    if (!ASSERTION_KEYWORDS.has(key)) {
      kept ??= Object.fromEntries(Object.entries(schema).filter(([k]) => ASSERTION_KEYWORDS.has(k)));
    }
  }
  return kept ?? schema;
}

export const SUPPORTED = new Set(SUPPORTED_KEYWORDS);
export const ALL_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string'] as const;
export type JsonType = (typeof ALL_TYPES)[number] | 'integer';

export type Schema = { [keyword: string]: unknown };

export function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function nonNegativeInteger(value: unknown, keyword: string, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new UnsupportedSchemaError({ keyword, schemaPath: path, detail: 'not a non-negative integer' });
  }
  return value;
}

export function matchesType(value: unknown, type: JsonType): boolean {
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

/** A flat schema: no allOf, $ref, not, if/then/else or oneOf at its top; `false` matches nothing. */
export type Flat = Schema | false;
