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
