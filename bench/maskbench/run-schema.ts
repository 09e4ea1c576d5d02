import type { Engine, EngineMatcher, TokenBitmask } from './engine.js';
import { SchemaRefused } from './engine.js';

/** One MaskBench instance, serialised and tokenised as the benchmark does. */
export interface TestCase {
  valid: boolean;
  text: string;
  ids: number[];
}

export interface SchemaJob {
  file: string;
  schema: unknown;
  tests: TestCase[];
  /** Compile plus every walk of this schema must end within this budget, else it is a timeout. */
  timeoutMs: number;
  /**
   * Collect garbage before compiling and after the walks to report the heap's growth (needs
   * `--expose-gc`). Off for timing runs: with two full collections per schema the mask p99 of the dev
   * set read 2.5 ms against 0.40 ms without (the same code, the same machine), which no user's process
   * pays, as it does not collect between requests.
   */
  measureMemory?: boolean;
}

/** One verdict per schema, the worst that happened (in this order of precedence). */
export type Verdict =
  | 'timeout'
  | 'crash'
  | 'compile-error'
  | 'invalidation-error'
  | 'validation-error'
  | 'passing';

export interface Failure {
  /** The test's index in the file; null for the schema as a whole (compile error, timeout). */
  test: number | null;
  kind: Exclude<Verdict, 'passing'>;
  detail: string;
}

export interface SchemaResult {
  file: string;
  verdict: Verdict;
  /** Compiling alone (precomputation included), in milliseconds; null when it did not compile. */
  compileMs: number | null;
  /** Time to first mask: compiling plus a matcher and its first mask, in milliseconds. */
  firstMaskMs: number | null;
  /**
   * Memory a compiled grammar holds with its caches once every test is walked: the growth of the heap
   * (V8 heap plus external memory such as typed arrays and WebAssembly) between before compiling and
   * after the walks, each after a full garbage collection; null unless the job measures memory (`--memory`, `--expose-gc`).
   */
  retainedBytes: number | null;
  /** The engine's own count of the bytes its grammar's caches hold (haggle: `cacheBytes()`). */
  cacheBytes: number | null;
  /** Every mask timed on the walks, in microseconds. */
  maskUs: Float64Array;
  /** The slowest mask: which test and after how many tokens. */
  slowest: { us: number; test: number; step: number } | null;
  failures: Failure[];
}

const now = () => performance.now();

const bit = (mask: TokenBitmask, id: number) => ((mask[id >>> 5] as number) >>> (id & 31)) & 1;

class TimedOut extends Error {}

/**
 * Compiles `job.schema` with `engine`, then walks each test's tokens through mask() and accept() as a
 * model would produce them, timing every mask (the one after the last token too, whose end-of-sequence
 * bit must match whether the document is complete). A valid instance must be taken whole, an invalid
 * one refused. Mask and accept must agree at every step: a token the mask allows but accept refuses (or
 * the reverse) is a bug of the engine, reported as a crash.
 */
export async function runSchema(
  engine: Engine,
  job: SchemaJob,
  tokens: readonly Uint8Array[],
): Promise<SchemaResult> {
  const started = now();
  const deadline = started + job.timeoutMs;
  const times: number[] = [];
  const failures: Failure[] = [];
  const result: SchemaResult = {
    file: job.file,
    verdict: 'passing',
    compileMs: null,
    firstMaskMs: null,
    retainedBytes: null,
    cacheBytes: null,
    maskUs: new Float64Array(0),
    slowest: null,
    failures,
  };
  const finishWith = (): SchemaResult => {
    result.maskUs = Float64Array.from(times);
    result.verdict = worst(failures);
    return result;
  };

  let compiled: unknown;
  const heapBefore = job.measureMemory ? collectedHeap() : null;
  const compileStarted = now();
  try {
    compiled = await engine.compile(job.schema);
    result.compileMs = now() - compileStarted;
    const first = await engine.matcher(compiled);
    await first.mask();
    first.dispose();
    result.firstMaskMs = now() - compileStarted;
  } catch (error) {
    const kind = error instanceof SchemaRefused ? 'compile-error' : 'crash';
    failures.push({ test: null, kind, detail: describe(error) });
    return finishWith();
  }
  try {
    for (const [index, test] of job.tests.entries()) {
      if (now() > deadline) throw new TimedOut();
      const before = times.length;
      const outcome = await walk(engine, compiled, test, times, deadline, tokens);
      for (let step = before; step < times.length; step++) {
        const us = times[step] as number;
        if (result.slowest === null || us > result.slowest.us) {
          result.slowest = { us, test: index, step: step - before };
        }
      }
      if (outcome.crash) failures.push({ test: index, kind: 'crash', detail: outcome.crash });
      else if (outcome.accepted !== test.valid) {
        failures.push({
          test: index,
          kind: test.valid ? 'validation-error' : 'invalidation-error',
          detail: outcome.where,
        });
      }
    }
  } catch (error) {
    if (error instanceof TimedOut) {
      failures.push({ test: null, kind: 'timeout', detail: `over ${job.timeoutMs} ms` });
    } else failures.push({ test: null, kind: 'crash', detail: describe(error) });
  } finally {
    result.cacheBytes = engine.cacheBytes?.(compiled) ?? null;
    const heapAfter = job.measureMemory ? collectedHeap() : null;
    if (heapBefore !== null && heapAfter !== null) result.retainedBytes = heapAfter - heapBefore;
    engine.release(compiled);
  }
  return finishWith();
}

/** The heap in use after a full collection (V8 heap and external memory), or null without `--expose-gc`. */
function collectedHeap(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return null;
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

interface WalkOutcome {
  accepted: boolean;
  /** Where the walk stopped, for the report. */
  where: string;
  crash?: string;
}

async function walk(
  engine: Engine,
  compiled: unknown,
  test: TestCase,
  times: number[],
  deadline: number,
  tokens: readonly Uint8Array[],
): Promise<WalkOutcome> {
  const matcher: EngineMatcher = await engine.matcher(compiled);
  const spelled = (count: number) => tailText(test.ids, count, tokens);
  try {
    for (let step = 0; step <= test.ids.length; step++) {
      if (now() > deadline) throw new TimedOut();
      const t = now();
      const pending = matcher.mask();
      const mask = pending instanceof Promise ? await pending : pending;
      times.push((now() - t) * 1000);
      if (step === test.ids.length) {
        const eosAllowed = bit(mask, engine.eosTokenId) === 1;
        const complete = matcher.finish();
        if (eosAllowed !== complete) {
          return {
            accepted: false,
            where: '',
            crash: `end of sequence ${eosAllowed ? 'allowed by the mask but refused' : 'refused by the mask but complete'} after ${spelled(step)}`,
          };
        }
        return { accepted: complete, where: complete ? 'taken whole' : `incomplete after ${spelled(step)}` };
      }
      const id = test.ids[step] as number;
      const allowed = bit(mask, id) === 1;
      const accepted = matcher.accept(id);
      if (allowed !== accepted) {
        return {
          accepted: false,
          where: '',
          crash: `token ${id} ${allowed ? 'allowed by the mask but refused by accept' : 'refused by the mask but accepted'} after ${spelled(step)}`,
        };
      }
      if (!accepted) return { accepted: false, where: `refused token ${step} after ${spelled(step)}` };
    }
    return { accepted: true, where: '' };
  } finally {
    matcher.dispose();
  }
}

/** The text just before token `count` of `ids`, and that token, for a failure's detail. */
function tailText(ids: readonly number[], count: number, tokens: readonly Uint8Array[]): string {
  const bytes = (from: number, to: number) =>
    Buffer.concat(ids.slice(from, to).map((id) => tokens[id] ?? new Uint8Array(0)));
  const before = bytes(Math.max(0, count - 12), count)
    .toString('utf8')
    .slice(-60);
  const next =
    count < ids.length ? ` before ${JSON.stringify(bytes(count, count + 1).toString('utf8'))}` : '';
  return `${JSON.stringify(before)}${next} (token ${count} of ${ids.length})`;
}

function worst(failures: readonly Failure[]): Verdict {
  const order: Verdict[] = ['timeout', 'crash', 'compile-error', 'invalidation-error', 'validation-error'];
  for (const verdict of order) if (failures.some((f) => f.kind === verdict)) return verdict;
  return 'passing';
}

function describe(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.split('\n')[0]?.slice(0, 300) ?? '';
}
