import { HaggleAbortError } from '../../contract/errors.js';
import { SchemaLimitError } from '../errors.js';

/**
 * How long one search while decoding may run (finishing the document near the token budget, the
 * bytes a grammar forces). haggle's choice: the structural completion answers in microseconds for the
 * grammars the compiler's bounds let through; a search that takes longer is a schema built to make the
 * model's worker, which every client shares, stand still, and it is refused with a `SchemaLimitError`.
 */
export const SEARCH_BUDGET_MS = 2_000;

/**
 * Steps between two looks at the abort flag and the clock. haggle's choice: a step is one byte read
 * by a set of positions (microseconds at most), so a look every 256 costs nothing measurable on the
 * decoder's hot path (bench/decoder.ts) and still comes within a millisecond or so.
 */
const CHECK_EVERY = 256;

/**
 * The bounds of one search inside the decoder: the caller's abort (read through a getter, so that a
 * model worker's shared-memory flag is seen inside a synchronous search, where no abort event can
 * arrive) and a deadline of its own. `tick()` is cheap: it counts, and looks every `CHECK_EVERY` calls.
 */
export class SearchBudget {
  private steps = 0;
  private readonly deadline: number;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly timeMs: number = SEARCH_BUDGET_MS,
  ) {
    this.deadline = Number.isFinite(timeMs) ? performance.now() + timeMs : Number.POSITIVE_INFINITY;
  }

  tick(): void {
    if (++this.steps % CHECK_EVERY !== 0) return;
    this.check();
  }

  /** Looks now: throws `HaggleAbortError` when aborted, `SchemaLimitError` (search) past the deadline. */
  check(): void {
    if (this.signal?.aborted) throw new HaggleAbortError(this.signal.reason);
    if (performance.now() > this.deadline)
      throw new SchemaLimitError({ limit: 'search', value: this.timeMs, schemaPath: '#' });
  }
}

/**
 * The abort checks of a mask walk: the walk is the decoder's hot path, and a mask is as long as the
 * grammar makes it (an enum of thousands of values walks them all), so it looks at the caller's abort
 * only, every `CHECK_EVERY` steps, and sets no deadline of its own (the request's deadline is the
 * abort). Undefined: no checks.
 */
export class AbortCheck {
  private steps = 0;

  constructor(private readonly signal: AbortSignal) {}

  tick(): void {
    if (++this.steps % CHECK_EVERY !== 0) return;
    if (this.signal.aborted) throw new HaggleAbortError(this.signal.reason);
  }
}
