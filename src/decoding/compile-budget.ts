import { throwIfAborted } from '../contract/errors.js';
import { SchemaLimitError } from './errors.js';

/**
 * The bounds one compilation runs within: nesting depth, grammar size, time and the caller's
 * AbortSignal. The compiler's loops call `tick` (cheap: the clock is read every 64 calls), so a schema
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
