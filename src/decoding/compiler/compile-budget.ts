import { throwIfAborted } from '../../contract/errors.js';
import { SchemaLimitError } from '../errors.js';

/**
 * The bounds one compilation runs within: nesting depth, grammar size, the sizes a schema asks for
 * (`minLength`, `minItems`, `minProperties`, the bytes of its shortest document), time and the
 * caller's AbortSignal. Sizes are checked before anything is allocated by them: a `minLength` of 1e9
 * would otherwise be a billion-byte array, which V8 ends the whole process on rather than throwing. The compiler's loops call `tick` (cheap: the clock is read every 64 calls), so a schema
 * that would take minutes is refused after its budget instead of holding the thread.
 */
export class CompileBudget {
  private ticks = 0;
  private readonly deadline: number;

  constructor(
    readonly maxDepth: number,
    readonly maxNodes: number,
    private readonly timeBudgetMs: number,
    private readonly signal: AbortSignal | undefined,
    readonly maxSize: number = Number.POSITIVE_INFINITY,
  ) {
    this.deadline = Number.isFinite(timeBudgetMs)
      ? performance.now() + timeBudgetMs
      : Number.POSITIVE_INFINITY;
  }

  tick(path: string): void {
    if ((++this.ticks & 63) !== 0) return;
    throwIfAborted(this.signal);
    if (performance.now() > this.deadline) throw new SchemaLimitError('time', this.timeBudgetMs, path);
  }

  depth(depth: number, path: string): void {
    if (depth > this.maxDepth) throw new SchemaLimitError('depth', this.maxDepth, path);
  }

  /** Refuses a size a schema asks for (`what`: the keyword) above `maxSize`, before it sizes memory. */
  size(value: number, what: string, path: string): void {
    if (value > this.maxSize) {
      throw new SchemaLimitError(
        'size',
        this.maxSize,
        path,
        `asks for ${what} ${value}, above the compiler's bound of ${this.maxSize}`,
      );
    }
  }

  nodes(count: number): void {
    if (count > this.maxNodes) throw new SchemaLimitError('nodes', this.maxNodes, '#');
  }
}

/** Bounds that never bind, for helpers used outside a compilation. */
export const UNBOUNDED = new CompileBudget(
  Number.POSITIVE_INFINITY,
  Number.POSITIVE_INFINITY,
  Number.POSITIVE_INFINITY,
  undefined,
);
