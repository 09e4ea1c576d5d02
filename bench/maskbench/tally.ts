import { type Percentiles, percentiles } from './percentiles.js';
import type { SchemaResult, Verdict } from './run-schema.js';

/** A failure as the report lists it, one line per schema and test, so two runs can be diffed. */
export interface ReportedFailure {
  file: string;
  test: number | null;
  kind: Exclude<Verdict, 'passing'>;
  detail: string;
}

/** One engine's totals over a folder, in MaskBench's terms. */
export interface EngineSummary {
  engine: string;
  schemas: number;
  passing: number;
  compileErrors: number;
  validationErrors: number;
  invalidationErrors: number;
  crashes: number;
  timeouts: number;
  /** Tests whose verdict was wrong (a schema can have several). */
  validTestsRefused: number;
  invalidTestsAccepted: number;
  masks: number;
  maskUs: Percentiles;
  /**
   * The masks of the schemas every engine of the run passes (with one engine: the ones it passes), so
   * that neither engine's failures shape the other's percentiles: a schema one engine refuses or
   * fails adds its masks to that engine's `maskUs` only.
   */
  bothPassing: { schemas: number; masks: number; maskUs: Percentiles };
  /** Compile time alone (precomputation included), over the schemas that compiled. */
  compileMs: Percentiles;
  /** Time to first mask (compile plus a matcher's first mask), over the schemas that compiled. */
  firstMaskMs: Percentiles;
  /** Memory per grammar (see SchemaResult.retainedBytes), in bytes; empty without `--memory` and `--expose-gc`. */
  retainedBytes: Percentiles;
  /** The engine's own count of its grammars' cache bytes (haggle), in bytes. */
  cacheBytes: Percentiles;
  setupMs: number | null;
  /** The schemas with the slowest single masks, for tail-latency work. */
  slowest: Array<{ file: string; us: number; test: number; step: number }>;
  failures: ReportedFailure[];
}

const COUNTED: Record<Exclude<Verdict, 'passing'>, keyof EngineSummary> = {
  'compile-error': 'compileErrors',
  'validation-error': 'validationErrors',
  'invalidation-error': 'invalidationErrors',
  crash: 'crashes',
  timeout: 'timeouts',
};

/** Accumulates schema results of one engine; mask times are kept in a growing typed array. */
export class Tally {
  private readonly results: Array<Omit<SchemaResult, 'maskUs'>> = [];
  /** Where each result's mask times start in `times` (its count is the next one's start). */
  private readonly starts: number[] = [];
  private times = new Float64Array(1 << 16);
  private timeCount = 0;

  constructor(readonly engine: string) {}

  add(result: SchemaResult): void {
    const { maskUs, ...rest } = result;
    if (this.timeCount + maskUs.length > this.times.length) {
      const grown = new Float64Array(Math.max(this.times.length * 2, this.timeCount + maskUs.length));
      grown.set(this.times.subarray(0, this.timeCount));
      this.times = grown;
    }
    this.starts.push(this.timeCount);
    this.times.set(maskUs, this.timeCount);
    this.timeCount += maskUs.length;
    this.results.push(rest);
  }

  /** Verdict counts so far, for the progress line. */
  counts(): { schemas: number; passing: number } {
    return {
      schemas: this.results.length,
      passing: this.results.filter((r) => r.verdict === 'passing').length,
    };
  }

  /** The files this engine passed so far. */
  passingFiles(): Set<string> {
    return new Set(this.results.filter((r) => r.verdict === 'passing').map((r) => r.file));
  }

  /** The mask times of the results whose file is in `files`, in one array. */
  private timesOf(files: ReadonlySet<string>): { schemas: number; times: Float64Array } {
    const parts: Float64Array[] = [];
    let count = 0;
    for (const [i, result] of this.results.entries()) {
      if (!files.has(result.file)) continue;
      const start = this.starts[i] as number;
      const stop = this.starts[i + 1] ?? this.timeCount;
      parts.push(this.times.subarray(start, stop));
      count += stop - start;
    }
    const times = new Float64Array(count);
    let at = 0;
    for (const part of parts) {
      times.set(part, at);
      at += part.length;
    }
    return { schemas: parts.length, times };
  }

  /**
   * `bothPassing`: the files every engine of the run passes (`passingFiles()` of each, intersected);
   * without it, this engine's own passing files.
   */
  summary(setupMs: number | null, slowestShown = 25, bothPassing?: ReadonlySet<string>): EngineSummary {
    const shared = this.timesOf(bothPassing ?? this.passingFiles());
    const summary: EngineSummary = {
      engine: this.engine,
      schemas: this.results.length,
      passing: 0,
      compileErrors: 0,
      validationErrors: 0,
      invalidationErrors: 0,
      crashes: 0,
      timeouts: 0,
      validTestsRefused: 0,
      invalidTestsAccepted: 0,
      masks: this.timeCount,
      maskUs: percentiles(this.times.subarray(0, this.timeCount)),
      bothPassing: { schemas: shared.schemas, masks: shared.times.length, maskUs: percentiles(shared.times) },
      compileMs: percentiles(this.results.flatMap((r) => (r.compileMs === null ? [] : [r.compileMs]))),
      firstMaskMs: percentiles(this.results.flatMap((r) => (r.firstMaskMs === null ? [] : [r.firstMaskMs]))),
      retainedBytes: percentiles(
        this.results.flatMap((r) => (r.retainedBytes === null ? [] : [r.retainedBytes])),
      ),
      cacheBytes: percentiles(this.results.flatMap((r) => (r.cacheBytes === null ? [] : [r.cacheBytes]))),
      setupMs,
      slowest: this.results
        .flatMap((r) => (r.slowest ? [{ file: r.file, ...r.slowest }] : []))
        .sort((a, b) => b.us - a.us)
        .slice(0, slowestShown),
      failures: [],
    };
    for (const result of this.results) {
      if (result.verdict === 'passing') summary.passing++;
      else (summary[COUNTED[result.verdict]] as number)++;
      for (const failure of result.failures) {
        summary.failures.push({ file: result.file, ...failure });
        if (failure.kind === 'validation-error') summary.validTestsRefused++;
        if (failure.kind === 'invalidation-error') summary.invalidTestsAccepted++;
      }
    }
    return summary;
  }
}
