import { HaggleError } from '../contract/errors.js';

/**
 * A JSON Schema uses a keyword (or a combination) the decoder cannot enforce exactly. Raised at compile
 * time, never at decode time: silently ignoring a keyword would let the decoder emit JSON the schema
 * refuses, which is the one thing a constrained decoder must never do.
 */
export class UnsupportedSchemaError extends HaggleError {
  /** The keyword that cannot be enforced, e.g. `format`. */
  readonly keyword: string;
  /** JSON Pointer of the schema that carries it, e.g. `#/properties/price`. */
  readonly schemaPath: string;

  constructor(keyword: string, schemaPath: string, detail?: string) {
    super(
      'unsupported-schema',
      `Unsupported JSON Schema keyword "${keyword}" at ${schemaPath}${detail ? `: ${detail}` : ''}`,
    );
    this.name = 'UnsupportedSchemaError';
    this.keyword = keyword;
    this.schemaPath = schemaPath;
  }
}

/** A schema that no JSON value satisfies (an empty enum, `minimum` above `maximum`, ...). */
export class UnsatisfiableSchemaError extends HaggleError {
  readonly schemaPath: string;

  constructor(schemaPath: string, detail: string) {
    super('unsatisfiable-schema', `No JSON value satisfies the schema at ${schemaPath}: ${detail}`);
    this.name = 'UnsatisfiableSchemaError';
    this.schemaPath = schemaPath;
  }
}

/** Which bound of `compileSchema` a schema ran into (see `SchemaLimitError`). */
export type SchemaLimit = 'depth' | 'nodes' | 'time';

/**
 * A schema too large or too deep to compile within the compiler's bounds, or one whose compilation ran
 * past its time budget. Not a verdict on the schema: `option` names the `compileSchema` option that
 * raises the bound. (Compiling without bounds could exhaust the stack or the heap, or hold a server's
 * thread for minutes, on a schema a caller sent.)
 */
export class SchemaLimitError extends HaggleError {
  readonly limit: SchemaLimit;
  /** The bound that was reached: levels, grammar nodes or milliseconds. */
  readonly value: number;
  /** The `compileSchema` option that sets this bound. */
  readonly option: 'maxDepth' | 'maxNodes' | 'timeBudgetMs';
  readonly schemaPath: string;

  constructor(limit: SchemaLimit, value: number, schemaPath: string) {
    const option = limit === 'depth' ? 'maxDepth' : limit === 'nodes' ? 'maxNodes' : 'timeBudgetMs';
    const what =
      limit === 'depth'
        ? `nests more than ${value} levels deep (schemas within schemas, references included)`
        : limit === 'nodes'
          ? `needs more than ${value} grammar nodes`
          : `took longer than ${value} ms to compile`;
    super(
      'schema-limit',
      `The JSON Schema ${what} at ${schemaPath}; pass a larger \`${option}\` to compileSchema to allow it`,
    );
    this.name = 'SchemaLimitError';
    this.limit = limit;
    this.value = value;
    this.option = option;
    this.schemaPath = schemaPath;
  }
}
