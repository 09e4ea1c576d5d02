import { HaggleError } from '../contract/errors.js';

/**
 * A JSON Schema uses a keyword (or a combination) the decoder cannot enforce exactly. Raised at compile
 * time, never at decode time: silently ignoring a keyword would let the decoder emit JSON the schema
 * refuses, which is the one thing a constrained decoder must never do.
 */
export class UnsupportedSchemaError extends HaggleError {
  static override readonly marker: string = 'haggle.error.UnsupportedSchemaError';
  /** The keyword that cannot be enforced, e.g. `format`. */
  readonly keyword: string;
  /** JSON Pointer of the schema that carries it, e.g. `#/properties/price`. */
  readonly schemaPath: string;

  constructor({ keyword, schemaPath, detail }: { keyword: string; schemaPath: string; detail?: string }) {
    super({
      code: 'unsupported-schema',
      message: `Unsupported JSON Schema keyword "${keyword}" at ${schemaPath}${detail ? `: ${detail}` : ''}`,
    });
    this.name = 'UnsupportedSchemaError';
    this.keyword = keyword;
    this.schemaPath = schemaPath;
  }
}

/** A schema that no JSON value satisfies (an empty enum, `minimum` above `maximum`, ...). */
export class UnsatisfiableSchemaError extends HaggleError {
  static override readonly marker: string = 'haggle.error.UnsatisfiableSchemaError';
  readonly schemaPath: string;

  constructor({ schemaPath, detail }: { schemaPath: string; detail: string }) {
    super({
      code: 'unsatisfiable-schema',
      message: `No JSON value satisfies the schema at ${schemaPath}: ${detail}`,
    });
    this.name = 'UnsatisfiableSchemaError';
    this.schemaPath = schemaPath;
  }
}

/** Which bound of `compileSchema` a schema ran into (see `SchemaLimitError`). */
export type SchemaLimit =
  | 'depth'
  | 'nodes'
  | 'time'
  | 'size'
  | 'document'
  | 'pattern'
  | 'memory'
  | 'enum'
  | 'unique'
  | 'literal'
  | 'search';

/** The `compileSchema` option that raises each bound (a pattern's automaton has a fixed bound). */
const OPTION_OF = {
  depth: 'maxDepth',
  nodes: 'maxNodes',
  time: 'timeBudgetMs',
  size: 'maxSize',
  document: null,
  pattern: null,
  // The heap of the worker that compiles a server's schemas (`OnnxLoadOptions.untrustedSchemas`).
  memory: null,
  // What a grammar costs to decode, bounded when it is compiled (issue 40).
  enum: 'maxEnumValues',
  unique: 'maxUniqueItems',
  literal: null,
  // A search while decoding (finishing the document) that ran past its time (search-budget.ts).
  search: null,
} as const;

/**
 * A schema too large or too deep to compile within the compiler's bounds, or one whose compilation ran
 * past its time budget. Not a verdict on the schema: `option` names the `compileSchema` option that
 * raises the bound (null for a pattern's automaton, whose bound is fixed). Compiling without bounds
 * could exhaust the stack or the heap, or hold a server's thread for minutes, on a schema a caller
 * sent. Raised while decoding too, when a pattern's lazily built automaton outgrows its bound.
 */
export class SchemaLimitError extends HaggleError {
  static override readonly marker: string = 'haggle.error.SchemaLimitError';
  readonly limit: SchemaLimit;
  /** The bound that was reached: levels, grammar nodes, milliseconds, characters/items or states. */
  readonly value: number;
  /** The `compileSchema` option that sets this bound; null when it is fixed. */
  readonly option:
    | 'maxDepth'
    | 'maxNodes'
    | 'timeBudgetMs'
    | 'maxSize'
    | 'maxEnumValues'
    | 'maxUniqueItems'
    | null;
  readonly schemaPath: string;

  /** `detail` replaces the default wording of what was too large (`size`, `pattern`). */
  constructor({
    limit,
    value,
    schemaPath,
    detail,
  }: {
    limit: SchemaLimit;
    value: number;
    schemaPath: string;
    /** Replaces the words said of the limit (`needs more than N grammar nodes`). */
    detail?: string;
  }) {
    const option = OPTION_OF[limit];
    const what =
      detail ??
      (limit === 'depth'
        ? `nests more than ${value} levels deep (schemas within schemas, references included)`
        : limit === 'nodes'
          ? `needs more than ${value} grammar nodes`
          : limit === 'time'
            ? `took longer than ${value} ms to compile`
            : limit === 'size'
              ? `asks for more than ${value} characters, items or bytes`
              : limit === 'document'
                ? `allows no document shorter than ${value} bytes`
                : limit === 'memory'
                  ? `needed more than ${value} MB of memory to compile`
                  : limit === 'enum'
                    ? `lists more than ${value} enum values`
                    : limit === 'unique'
                      ? `asks for more than ${value} unique items (uniqueItems with minItems)`
                      : limit === 'literal'
                        ? `spells more than ${value} characters of const and enum values`
                        : limit === 'search'
                          ? `needed a search of more than ${value} ms (or 20,000 states) to finish the document while decoding`
                          : `has a pattern whose automaton needs more than ${value} states`);
    const fix =
      limit === 'document'
        ? `lower the minLength, minItems or minProperties that add up to it (a fixed bound of ${value} bytes)`
        : limit === 'memory'
          ? 'send a smaller schema (fewer or shorter enums, patterns and counted repeats)'
          : limit === 'literal'
            ? `shorten the const and enum values (a fixed bound of ${value} characters)`
            : limit === 'search'
              ? 'send a schema whose documents are easier to finish (fewer required unique items, smaller enums)'
              : option === null
                ? 'simplify the pattern (anchor it with ^...$, use fewer counted repeats such as {n,m})'
                : `pass a larger \`${option}\` to compileSchema to allow it`;
    super({ code: 'schema-limit', message: `The JSON Schema ${what} at ${schemaPath}; ${fix}` });
    this.name = 'SchemaLimitError';
    this.limit = limit;
    this.value = value;
    this.option = option;
    this.schemaPath = schemaPath;
    this.detail = detail;
  }

  private readonly detail: string | undefined;

  /**
   * The same refusal at `schemaPath`: a pattern's automaton is shared by every schema that uses the
   * pattern, so it cannot know where it was used; the schema's compiler says where.
   */
  at(schemaPath: string): SchemaLimitError {
    return new SchemaLimitError({ limit: this.limit, value: this.value, schemaPath, detail: this.detail });
  }
}

/**
 * A JSON Schema `pattern` outside the regular-expression syntax the decoder reads (see
 * regex/regex-syntax.ts). The schema compiler turns it into an `UnsupportedSchemaError` naming the
 * keyword and path, so users meet it only through that.
 */
export class PatternSyntaxError extends HaggleError {
  static override readonly marker: string = 'haggle.error.PatternSyntaxError';
  constructor(message: string) {
    super({ code: 'pattern-syntax', message });
    this.name = 'PatternSyntaxError';
  }
}
