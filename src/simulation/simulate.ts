import { HaggleAbortError, HaggleError, InvalidInputError } from '../contract/errors.js';
import type { ListingContextInput } from '../contract/listing-context.js';
import type { Negotiator } from '../contract/negotiator.js';
import { EventLoopYield } from '../internal/event-loop-yield.js';
import { deriveSeed } from '../internal/random.js';
import { SafeEmitter } from '../internal/safe-emitter.js';
import { BestOfferRules } from '../rules/best-offer-rules.js';
import type { Rules } from '../rules/rules.js';
import { EarlyStop, resolveEarlyStop } from './early-stop.js';
import { isFinished } from './failures.js';
import { currentProvenance, withoutLocations } from './provenance.js';
import type { RunHeader, SessionRecord } from './run-file.js';
import type { RunFileAccess } from './run-file-access.js';
import { RUN_FILE_FORMAT, RUN_FILE_VERSION } from './run-file-format.js';
import type { RunOutput } from './run-output.js';
import { Session } from './session.js';
import type { SessionResult } from './session-result.js';
import { checkShard, inShard, type Shard, shardIndexIterator, shardSize } from './shard.js';
import { type SimulationSummary, SummaryAccumulator } from './summary.js';
import { syntheticContext } from './synthetic-contexts.js';

/** What `simulate` plays: negotiators, contexts, sessions, concurrency, seed, rules and the output file. */
export interface SimulateOptions {
  buyer: Negotiator;
  seller: Negotiator;
  /**
   * Listing contexts; session i plays `contexts[i]`, one session per context. Default: synthetic ones
   * from `seed`.
   */
  contexts?: readonly ListingContextInput[];
  /**
   * Play more sessions than contexts by taking them in turn (session i plays `contexts[i % length]`).
   * Without it, `sessions` above the number of contexts is refused.
   */
  cycleContexts?: boolean;
  /** How many sessions the run has. Default: one per context, or 100 with synthetic contexts. */
  sessions?: number;
  /**
   * Play only one slice of the run: the sessions whose index % count === index - 1 (1-based, "2 of
   * 3"), with the seeds and contexts they have in the whole run. `mergeRuns` joins the slices' files
   * into the file of the whole run.
   */
  shard?: Shard;
  /** Sessions in flight at once. Default 8. */
  concurrency?: number;
  /** Run seed; session i gets `deriveSeed(seed, i)`, whatever the concurrency. Default 0. */
  seed?: number;
  /** Rules for every session. Default: eBay Best Offer. */
  rules?: Rules;
  /**
   * JSONL file (parent folders are created). Each session is appended the moment it finishes, so an
   * interrupt loses nothing finished; when the run completes the file is rewritten in session order.
   */
  out?: string;
  /**
   * Continue the run already in `out`: keep its sessions, play only the missing ones. Refuses a file
   * without a run header or with other settings, and never cuts a file it did not write.
   */
  resume?: boolean;
  /** Replace an existing `out` file. Without it (or `resume`), an existing run is never overwritten. */
  overwrite?: boolean;
  /** Stop the whole run at the first failing session instead of recording it and going on. */
  stopOnError?: boolean;
  /**
   * Stop the run with `RunFailedEarlyError` when the first this-many sessions to end (of those played
   * now) all failed with the same error and none finished: a dead server or a wrong model id, not bad
   * luck. Sessions already in flight still end and are recorded. Default 4; 0 never stops early.
   */
  earlyStop?: number;
  signal?: AbortSignal;
}

/** Payload of `progress`: sessions completed, in all, ending in a deal, and resumed. */
export interface SimulationProgress {
  completed: number;
  /** Sessions this run plays (those of its shard), resumed ones included. */
  total: number;
  deals: number;
  /** Sessions taken from a resumed file rather than played now. */
  resumed: number;
}

/** Events of a running simulation: a session ended, progress, an error. */
export interface SimulationEvents {
  [name: string]: unknown;
  /** One session finished (in completion order; `index` says which). */
  'session-end': { index: number; result: SessionResult };
  progress: SimulationProgress;
  /** A session failed (recorded with reason `error`), or a listener threw. */
  error: { index?: number; source: 'negotiator' | 'listener'; error: unknown };
  /** Something worth saying that is no error: the stale lock of a dead writer of `out` was taken over. */
  note: { message: string };
}

/** A simulation in progress: listen to its events, await `done()` for the summary. */
export interface SimulationRun {
  /** Listens to an event of the simulation. */
  on<K extends keyof SimulationEvents & string>(
    event: K,
    listener: (payload: SimulationEvents[K]) => unknown,
  ): this;
  /** Stops listening. */
  off<K extends keyof SimulationEvents & string>(
    event: K,
    listener: (payload: SimulationEvents[K]) => unknown,
  ): this;
  /** Resolves with the summary of all sessions (resumed ones included); rejects on abort or a fatal error. */
  done(): Promise<SimulationSummary>;
  /** Sessions on file in `out` now (kept from a resumed file and written since); 0 without `out`. */
  readonly sessionsOnFile: number;
}

const DEFAULT_SYNTHETIC_SESSIONS = 100;
const MAX_SESSIONS = 10_000_000;

/**
 * Plays many sessions concurrently. Every session's seed derives from the run seed and its index; each
 * session is on file as soon as it finishes, and the completed file is in session order, so the same
 * seed gives byte-identical output at any concurrency. Starts on the next tick: attach listeners right
 * after calling. Writing `out` needs file access: under Node, `haggle` resolves to a build that has it;
 * in other runtimes `out` is refused with `InvalidInputError` (take `simulate` from `haggle/node` where
 * the runtime has Node's `fs`, as Deno and Bun do).
 *
 * @example
 * ```ts
 * import { PopulationAgent, boulware, generateContexts, simulate } from 'haggle';
 *
 * const run = simulate({
 *   contexts: generateContexts({ count: 200, seed: 1 }),
 *   buyer: new PopulationAgent(),
 *   seller: boulware(),
 *   seed: 7,
 *   concurrency: 8,
 * });
 * run.on('progress', ({ completed, total }) => console.log(`${completed}/${total}`));
 * const summary = await run.done();
 * console.log(summary.finished, summary.dealRate);
 * ```
 * @see The guide: [Simulation](../../docs/simulation.md).
 */
export function simulate(options: SimulateOptions): SimulationRun {
  return runSimulation(options, undefined);
}

/** `simulate` with the file access that `out` and `resume` need (none outside Node). */
export function runSimulation(options: SimulateOptions, files: RunFileAccess | undefined): SimulationRun {
  const plan = planRun(options, files);
  const emitter = new SafeEmitter<SimulationEvents>((error, event) => {
    if (event !== 'error') emitter.emit('error', { source: 'listener', error });
  });
  const state: { output?: RunOutput<SessionRecord> } = {};
  const promise = Promise.resolve().then(() => execute(plan, emitter, state));
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
    get sessionsOnFile() {
      return state.output?.writer.records ?? 0;
    },
  };
  return run;
}

interface RunPlan {
  options: SimulateOptions;
  /** The context of session `index`; synthetic ones are made when their session starts, not all up front. */
  contextOf: (index: number) => ListingContextInput;
  sessions: number;
  /** How many sessions this run plays: all of them, or its shard's. */
  playing: number;
  concurrency: number;
  seed: number;
  rules: Rules;
  header: RunHeader;
  earlyStop: number;
  /** File access for `out`; undefined in builds without it (then `out` was refused above). */
  files: RunFileAccess | undefined;
}

function planRun(options: SimulateOptions, files: RunFileAccess | undefined): RunPlan {
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
  const contextCount = options.contexts?.length ?? 0;
  if (contextCount > 0 && sessions > contextCount && !options.cycleContexts) {
    problems.push({
      path: 'sessions',
      message:
        `${sessions} is more than the ${contextCount} contexts given (one session each); ` +
        'pass cycleContexts: true to play them in turn, or leave sessions out',
    });
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
  if (options.out && files === undefined) {
    problems.push({
      path: 'out',
      message:
        'writing a run file needs file access, which this build of haggle has not: ' +
        "import simulate from 'haggle/node' (Node, Deno, Bun), or drop out and listen to session-end",
    });
  }
  if (options.out && files && !options.resume && !options.overwrite && files.holdsData(options.out)) {
    problems.push({
      path: 'out',
      message: `${options.out} already holds data; pass resume: true (--resume) to continue its run or overwrite: true (--overwrite) to replace it`,
    });
  }
  if (problems.length > 0) throw new InvalidInputError({ subject: 'SimulateOptions', issues: problems });
  const earlyStop = resolveEarlyStop(options.earlyStop, 'SimulateOptions');
  if (options.shard) checkShard(options.shard, sessions);

  const given = options.contexts;
  const contextOf = given
    ? (index: number) => given[index % given.length] as ListingContextInput // no wrap unless cycleContexts
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
    ...(options.shard ? { shard: { index: options.shard.index, count: options.shard.count } } : {}),
    config: {
      rules: rules.describe(),
      buyer: withoutLocations(buyer),
      seller: withoutLocations(seller),
      contexts: given ? { source: 'given', count: given.length } : { source: 'synthetic', seed },
    },
    provenance: currentProvenance({ buyer, seller }),
  };
  const playing = shardSize(sessions, options.shard);
  return { options, contextOf, sessions, playing, concurrency, seed, rules, header, earlyStop, files };
}

async function execute(
  plan: RunPlan,
  emitter: SafeEmitter<SimulationEvents>,
  state: { output?: RunOutput<SessionRecord> },
): Promise<SimulationSummary> {
  const { options, seed } = plan;
  const { signal } = options;
  if (signal?.aborted) throw new HaggleAbortError(signal.reason);

  const accumulator = new SummaryAccumulator();
  const yieldNow = new EventLoopYield();
  const output = openOutput(plan, (message) => emitter.emit('note', { message }));
  if (output) state.output = output;
  const writer = output?.writer;
  const resumed = output?.kept.length ?? 0;
  for (const { type: _type, index: _index, ...result } of output?.kept ?? []) accumulator.add(result);
  const kept = new Set(output?.kept.map((record) => record.index));
  // The indices to play, made one at a time: a run of millions of sessions holds no list of them.
  const queue = shardIndexIterator(plan.sessions, options.shard, kept);
  let next = queue.next();
  const total = plan.playing;

  let completed = resumed;
  let fatal: unknown;
  const earlyStop = new EarlyStop(plan.earlyStop, total - resumed, 'sessions');

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
    // On disk before anything else hears of it: an interrupt from here on loses nothing.
    writer?.append({ type: 'session', index, ...result });
    accumulator.add(result);
    completed++;
    emitter.emit('session-end', { index, result });
    emitter.emit('progress', { completed, total, deals: accumulator.dealCount, resumed });
    // Thrown after the session is recorded: the worker stops, the others end what they hold.
    const stop = earlyStop.record(isFinished(result), result.error);
    if (stop) throw stop;
  };

  const worker = async () => {
    while (fatal === undefined && !next.done) {
      if (signal?.aborted) throw new HaggleAbortError(signal.reason);
      const index = next.value;
      next = queue.next();
      await playOne(index);
      await yieldNow.maybe();
    }
  };

  try {
    const workers = Array.from({ length: Math.min(plan.concurrency, total - resumed) }, () =>
      worker().catch((error: unknown) => {
        fatal ??= error;
      }),
    );
    await Promise.all(workers);
    if (fatal !== undefined) throw fatal;
    // Complete: the file goes into session order, the same bytes at any concurrency.
    writer?.finish();
    return accumulator.summary();
  } finally {
    writer?.close();
  }
}

function openOutput(plan: RunPlan, onNote: (message: string) => void): RunOutput<SessionRecord> | undefined {
  const { out, resume, overwrite } = plan.options;
  const { files } = plan;
  if (!out || !files) return undefined;
  return files.openRunOutput<RunHeader, SessionRecord>({
    path: out,
    resume: resume === true,
    overwrite: overwrite === true,
    onNote,
    header: plan.header,
    read: (path) => {
      const { sessions, ...rest } = files.readRunFile(path);
      return { ...rest, records: sessions };
    },
    plays: (index) => index < plan.sessions && inShard(index, plan.options.shard),
    kind: 'run',
    noun: 'session',
    // A failed session is no result: resuming (say, once the server is back) plays it again.
    replay: (record) => !isFinished(record),
  });
}
