import { throwIfAborted } from '../../contract/errors.js';
import { SchemaLimitError } from '../errors.js';
import { MAX_SENTENCE_BYTES } from '../grammar/nodes.js';

/** Bounds on what a grammar costs to decode (`SchemaCompileOptions.maxEnumValues`, `maxUniqueItems`). */
export interface DecodeCostBounds {
  maxEnumValues: number;
  maxUniqueItems: number;
}

const UNBOUNDED_COSTS: DecodeCostBounds = {
  maxEnumValues: Number.POSITIVE_INFINITY,
  maxUniqueItems: Number.POSITIVE_INFINITY,
};

/**
 * Most characters of const and enum values (their JSON text) in one schema. haggle's choice: every value
 * is a path the mask walks and the matcher steps through while decoding; 1 MiB is thousands of labels
 * or codes, far beyond any schema a model answers, and a 3.5 MB `const` (which held a model worker for
 * 10 s) is refused at once. A single value longer than the longest document the decoder completes
 * (`MAX_SENTENCE_BYTES`) could never be written, and is refused as such.
 */
export const MAX_LITERAL_BYTES = 1024 * 1024;

/**
 * The bounds one compilation runs within: nesting depth, grammar size, the sizes a schema asks for
 * (`minLength`, `minItems`, `minProperties`, the bytes of its shortest document), time and the
 * caller's AbortSignal. Sizes are checked before anything is allocated by them: a `minLength` of 1e9
 * would otherwise be a billion-byte array, which V8 ends the whole process on rather than throwing. The compiler's loops call `tick` (cheap: the clock is read every 64 calls), so a schema
 * that would take minutes is refused after its budget instead of holding the thread.
 */
export class CompileBudget {
  private ticks = 0;
  private literalChars = 0;
  private readonly deadline: number;

  constructor(
    readonly maxDepth: number,
    readonly maxNodes: number,
    private readonly timeBudgetMs: number,
    private readonly signal: AbortSignal | undefined,
    readonly maxSize: number = Number.POSITIVE_INFINITY,
    private readonly costs: DecodeCostBounds = UNBOUNDED_COSTS,
  ) {
    this.deadline = Number.isFinite(timeBudgetMs)
      ? performance.now() + timeBudgetMs
      : Number.POSITIVE_INFINITY;
  }

  tick(path: string): void {
    if ((++this.ticks & 63) !== 0) return;
    throwIfAborted(this.signal);
    if (performance.now() > this.deadline)
      throw new SchemaLimitError({ limit: 'time', value: this.timeBudgetMs, schemaPath: path });
  }

  depth(depth: number, path: string): void {
    if (depth > this.maxDepth)
      throw new SchemaLimitError({ limit: 'depth', value: this.maxDepth, schemaPath: path });
  }

  /** Refuses a size a schema asks for (`what`: the keyword) above `maxSize`, before it sizes memory. */
  size(value: number, what: string, path: string): void {
    if (value > this.maxSize) {
      throw new SchemaLimitError({
        limit: 'size',
        value: this.maxSize,
        schemaPath: path,
        detail: `asks for ${what} ${value}, above the compiler's bound of ${this.maxSize}`,
      });
    }
  }

  /**
   * What the grammar will cost to decode, bounded here rather than found out while a model worker that
   * every client shares runs it (issue 40): values of one enum, unique items a list must hold, and the
   * bytes of every const and enum value of the schema together.
   */
  enumValues(count: number, path: string): void {
    if (count > this.costs.maxEnumValues)
      throw new SchemaLimitError({ limit: 'enum', value: this.costs.maxEnumValues, schemaPath: path });
  }

  uniqueItems(minItems: number, path: string): void {
    if (minItems > this.costs.maxUniqueItems)
      throw new SchemaLimitError({ limit: 'unique', value: this.costs.maxUniqueItems, schemaPath: path });
  }

  /** Counts the characters of one const or enum value's JSON text (refused past `MAX_LITERAL_BYTES` in all). */
  literal(bytes: number, path: string): void {
    if (bytes > MAX_SENTENCE_BYTES) {
      throw new SchemaLimitError({
        limit: 'literal',
        value: MAX_SENTENCE_BYTES,
        schemaPath: path,
        detail: `has a const or enum value of ${bytes} characters, longer than any document the decoder writes (${MAX_SENTENCE_BYTES})`,
      });
    }
    this.literalChars += bytes;
    if (this.literalChars > MAX_LITERAL_BYTES)
      throw new SchemaLimitError({ limit: 'literal', value: MAX_LITERAL_BYTES, schemaPath: path });
  }

  nodes(count: number): void {
    if (count > this.maxNodes)
      throw new SchemaLimitError({ limit: 'nodes', value: this.maxNodes, schemaPath: '#' });
  }
}

/** Bounds that never bind, for helpers used outside a compilation. */
export const UNBOUNDED = new CompileBudget(
  Number.POSITIVE_INFINITY,
  Number.POSITIVE_INFINITY,
  Number.POSITIVE_INFINITY,
  undefined,
);
