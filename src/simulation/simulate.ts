import { HaggleAbortError, HaggleError, InvalidInputError } from '../contract/errors.js';
import type { ListingContextInput } from '../contract/listing-context.js';
import type { Negotiator } from '../contract/negotiator.js';
import { OrderedJsonlLog } from '../internal/ordered-jsonl.js';
import { deriveSeed } from '../internal/random.js';
import { SafeEmitter } from '../internal/safe-emitter.js';
import { BestOfferRules } from './best-offer-rules.js';
import { currentProvenance, sameRunSettings, withoutLocations } from './provenance.js';
import type { Rules } from './rules.js';
import {
  RUN_FILE_FORMAT,
  RUN_FILE_VERSION,
  RunFileError,
  type RunHeader,
  readRunFile,
  type SessionRecord,
} from './run-file.js';
import { Session } from './session.js';
import type { SessionResult } from './session-result.js';
import { type SimulationSummary, SummaryAccumulator } from './summary.js';
import { syntheticContext } from './synthetic-contexts.js';

export interface SimulateOptions {
  buyer: Negotiator;
  seller: Negotiator;
  /** Listing contexts; session i plays `contexts[i % contexts.length]`. Default: synthetic ones from `seed`. */
  contexts?: readonly ListingContextInput[];
  /** How many sessions to play. Default: one per context, or 100 with synthetic contexts. */
  sessions?: number;
  /** Sessions in flight at once. Default 8. */
  concurrency?: number;
  /** Run seed; session i gets `deriveSeed(seed, i)`, whatever the concurrency. Default 0. */
  seed?: number;
  /** Rules for every session. Default: eBay Best Offer. */
  rules?: Rules;
  /** JSONL file to append each finished session to, in session order. */
  out?: string;
  /** Continue the run already in `out`: keep its sessions, play only the missing ones. */
  resume?: boolean;
  /** Replace an existing `out` file. Without it (or `resume`), an existing run is never overwritten. */
  overwrite?: boolean;
  /** Stop the whole run at the first failing session instead of recording it and going on. */
  stopOnError?: boolean;
  signal?: AbortSignal;
}

export interface SimulationProgress {
  completed: number;
  total: number;
  deals: number;
  /** Sessions taken from a resumed file rather than played now. */
  resumed: number;
}

export interface SimulationEvents {
  [name: string]: unknown;
  /** One session finished (in completion order; `index` says which). */
  'session-end': { index: number; result: SessionResult };
  progress: SimulationProgress;
  /** A session failed (recorded with reason `error`), or a listener threw. */
  error: { index?: number; source: 'negotiator' | 'listener'; error: unknown };
}

/** A simulation in progress: listen to its events, await `done()` for the summary. */
export interface SimulationRun {
  on<K extends keyof SimulationEvents & string>(
    event: K,
    listener: (payload: SimulationEvents[K]) => unknown,
  ): this;
  off<K extends keyof SimulationEvents & string>(
    event: K,
    listener: (payload: SimulationEvents[K]) => unknown,
  ): this;
  /** Resolves with the summary of all sessions (resumed ones included); rejects on abort or a fatal error. */
  done(): Promise<SimulationSummary>;
}

const DEFAULT_SYNTHETIC_SESSIONS = 100;
const MAX_SESSIONS = 10_000_000;

/**
 * Plays many sessions concurrently. Every session's seed derives from the run seed and its index, and
 * the JSONL file is written in session order, so the same seed gives byte-identical output at any
 * concurrency. Starts on the next tick: attach listeners right after calling.
 */
export function simulate(options: SimulateOptions): SimulationRun {
  const plan = planRun(options);
  const emitter = new SafeEmitter<SimulationEvents>((error, event) => {
    if (event !== 'error') emitter.emit('error', { source: 'listener', error });
  });
  const promise = Promise.resolve().then(() => execute(plan, emitter));
  // The caller may attach `done()` late; never let an early rejection count as unhandled.
  promise.catch(() => {});
  const run: SimulationRun = {
    on(event, listener) {
      emitter.on(event, listener);
      return run;
    },
    off(event, listener) {
      emitter.off(event, listener);
      return run;
    },
    done: () => promise,
  };
  return run;
}

interface RunPlan {
  options: SimulateOptions;
  /** The context of session `index`; synthetic ones are made when their session starts, not all up front. */
  contextOf: (index: number) => ListingContextInput;
  sessions: number;
  concurrency: number;
  seed: number;
  rules: Rules;
  header: RunHeader;
}

function planRun(options: SimulateOptions): RunPlan {
  const problems: { path: string; message: string }[] = [];
  const seed = options.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0)
    problems.push({ path: 'seed', message: 'must be a non-negative integer' });
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) {
    problems.push({ path: 'concurrency', message: 'must be an integer from 1 to 1024' });
  }
  if (options.contexts !== undefined && options.contexts.length === 0) {
    problems.push({ path: 'contexts', message: 'must hold at least one listing context, or be left out' });
  }
  const sessions = options.sessions ?? options.contexts?.length ?? DEFAULT_SYNTHETIC_SESSIONS;
  if (!Number.isInteger(sessions) || sessions < 1 || sessions > MAX_SESSIONS) {
    problems.push({ path: 'sessions', message: `must be an integer from 1 to ${MAX_SESSIONS}` });
  }
  for (const role of ['buyer', 'seller'] as const) {
    const negotiator = options[role] as Partial<Negotiator> | undefined;
    if (typeof negotiator?.predict !== 'function' || typeof negotiator.describe !== 'function') {
      problems.push({ path: role, message: 'must be a Negotiator: an object with predict() and describe()' });
    }
  }
  if (options.resume && !options.out)
    problems.push({ path: 'resume', message: 'needs `out`, the file to resume' });
  if (options.resume && options.overwrite) {
    problems.push({ path: 'overwrite', message: 'cannot be combined with resume: choose one' });
  }
  if (options.out && !options.resume && !options.overwrite && OrderedJsonlLog.holdsData(options.out)) {
    problems.push({
      path: 'out',
      message: `${options.out} already holds a run; pass resume: true to continue it or overwrite: true to replace it`,
    });
  }
  if (problems.length > 0) throw new InvalidInputError('SimulateOptions', problems);

  const given = options.contexts;
  const contextOf = given
    ? (index: number) => given[index % given.length] as ListingContextInput
    : (index: number) => syntheticContext(seed, index);
  const rules = options.rules ?? new BestOfferRules();
  const buyer = options.buyer.describe();
  const seller = options.seller.describe();
  const header: RunHeader = {
    type: 'run',
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    seed,
    sessions,
    config: {
      rules: rules.describe(),
      buyer: withoutLocations(buyer),
      seller: withoutLocations(seller),
      contexts: given ? { source: 'given', count: given.length } : { source: 'synthetic', seed },
    },
    provenance: currentProvenance({ buyer, seller }),
  };
  return { options, contextOf, sessions, concurrency, seed, rules, header };
}

async function execute(plan: RunPlan, emitter: SafeEmitter<SimulationEvents>): Promise<SimulationSummary> {
  const { options, sessions, seed } = plan;
  const { signal } = options;
  if (signal?.aborted) throw new HaggleAbortError(signal.reason);

  const accumulator = new SummaryAccumulator();
  const yieldNow = new EventLoopYield();
  const { log, resumed } = openOutput(plan);
  for (const record of resumed) accumulator.add(record);

  let nextToStart = resumed.length;
  let completed = resumed.length;
  let fatal: unknown;

  const playOne = async (index: number) => {
    const context = plan.contextOf(index);
    const session = new Session({
      context,
      buyer: options.buyer,
      seller: options.seller,
      seed: deriveSeed(seed, index),
      rules: plan.rules,
      id: `s${index}`,
    });
    let result: SessionResult;
    try {
      result = await session.run(signal ? { signal } : {});
    } catch (error) {
      if (HaggleError.isInstance(error) && error.code === 'aborted') throw error;
      emitter.emit('error', { index, source: 'negotiator', error });
      if (options.stopOnError) throw error;
      result = session.result as SessionResult;
    }
    accumulator.add(result);
    completed++;
    // The log holds a finished session until every earlier one is written: the file stays in order.
    log?.add(index, { type: 'session', index, ...result });
    emitter.emit('session-end', { index, result });
    emitter.emit('progress', {
      completed,
      total: sessions,
      deals: accumulator.dealCount,
      resumed: resumed.length,
    });
  };

  const worker = async () => {
    while (fatal === undefined && nextToStart < sessions) {
      if (signal?.aborted) throw new HaggleAbortError(signal.reason);
      const index = nextToStart++;
      await playOne(index);
      await yieldNow.maybe();
    }
  };

  try {
    const workers = Array.from({ length: Math.min(plan.concurrency, sessions - resumed.length) }, () =>
      worker().catch((error: unknown) => {
        fatal ??= error;
      }),
    );
    await Promise.all(workers);
    if (fatal !== undefined) throw fatal;
    return accumulator.summary();
  } finally {
    log?.close();
  }
}

type RunLog = OrderedJsonlLog<SessionRecord>;

function openOutput(plan: RunPlan): { log: RunLog | undefined; resumed: SessionResult[] } {
  const { out, resume } = plan.options;
  if (!out) return { log: undefined, resumed: [] };
  // planRun already refused to replace a run without `overwrite`; a run that never wrote anything
  // (no file, or no header) is simply started, resumed or not.
  const start = () => ({
    log: OrderedJsonlLog.create<RunHeader, SessionRecord>(out, plan.header),
    resumed: [],
  });
  if (!resume || !OrderedJsonlLog.holdsData(out)) return start();

  const contents = readRunFile(out);
  if (!contents.header) return start();
  if (!sameRunSettings(contents.header, plan.header)) {
    throw new RunFileError(
      out,
      'was written by a run with other settings (seed, sessions, rules, negotiators or contexts); ' +
        'resume it with the same settings, or pass overwrite: true to start again',
    );
  }
  const resumed: SessionResult[] = [];
  for (const [position, record] of contents.sessions.entries()) {
    if (record.index !== position)
      throw new RunFileError(out, `session ${position} is missing or out of order`);
    const { type: _type, index: _index, ...result } = record;
    resumed.push(result);
  }
  if (resumed.length > plan.sessions)
    throw new RunFileError(out, 'holds more sessions than the run asks for');
  return { log: OrderedJsonlLog.reopen<SessionRecord>(out, contents.completeBytes, resumed.length), resumed };
}

/**
 * Negotiators that answer without I/O (the baselines) resolve in microtasks only, which would keep the
 * event loop from running timers and signal handlers until the whole run is over: Ctrl-C would not
 * be heard. Every few milliseconds the workers step out to the event loop; the sessions' results do
 * not depend on when that happens, so runs stay reproducible.
 */
class EventLoopYield {
  private last = performance.now();

  async maybe(): Promise<void> {
    if (performance.now() - this.last < 10) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}
