import { HaggleAbortError, InvalidInputError } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import { EventLoopYield } from '../internal/event-loop-yield.js';
import { SafeEmitter } from '../internal/safe-emitter.js';
import { scoreMatch } from '../multi-issue/match-metrics.js';
import { runMultiIssueNegotiation } from '../multi-issue/multi-issue-negotiation.js';
import type { MultiIssueNegotiator } from '../multi-issue/multi-issue-turn.js';
import { type Scenario, type ScenarioGeometry, scenarioGeometry } from '../multi-issue/scenario.js';
import { EarlyStop, resolveEarlyStop } from '../simulation/early-stop.js';
import { currentProvenance, withoutLocations } from '../simulation/provenance.js';
import { holdsData, openRunOutput } from '../simulation/run-output.js';
import { checkShard, inShard, type Shard } from '../simulation/shard.js';
import type { ExperimentRecord } from './experiment-record.js';
import { checkExperimentResume } from './experiment-resume.js';
import type { ParticipantLabels } from './participant-label.js';
import { DEFAULT_FIRST_MOVER, DEFAULT_MAX_ROUNDS, type Suite, suiteMatches } from './suite.js';
import { readTournamentFile } from './tournament-file.js';
import type { MatchRecord, TournamentHeader } from './tournament-records.js';
import { isFailedMatch, type TournamentResults, tabulateTournament } from './tournament-results.js';

/** What `runTournament` plays: a suite, the arms, their opponents, and where to write the results. */
export interface TournamentOptions {
  suite: Suite;
  /** The negotiators under evaluation, by name. */
  arms: Readonly<Record<string, MultiIssueNegotiator>>;
  /** One negotiator per opponent name of the suite (or of `onlyOpponents`). */
  opponents: Readonly<Record<string, MultiIssueNegotiator>>;
  /** Family, training-pool membership and base of arms and opponents, recorded in the header for analyses. */
  labels?: ParticipantLabels;
  /**
   * The experiment this tournament runs (`experimentRecord`, as `haggle evaluate --experiment` and
   * `experimentTournamentOptions` give it), recorded in the header; a resume refuses a file started
   * from an experiment with another hash.
   */
  experiment?: ExperimentRecord;
  /** Play only these of the suite's opponents; their matches and seeds are the same as in the full suite. */
  onlyOpponents?: readonly string[];
  /** Roles each arm plays; both rotate the arm through seller and buyer on every match. Default ['seller']. */
  armRoles?: readonly Role[];
  /**
   * Turns per negotiation. Default the suite's `maxRounds` (10 when the suite states none); a suite that
   * states one refuses another here.
   */
  maxRounds?: number;
  /** Negotiations in flight. Default 8. */
  concurrency?: number;
  /** Wall-clock limit per negotiation (ms); over it the match scores as no deal, reason `timeout`. */
  timeoutMs?: number;
  /**
   * Play only one slice of the matches: those whose index % count === index - 1 (1-based), with the
   * seeds they have in the whole tournament; `mergeRuns` joins the slices' files.
   */
  shard?: Shard;
  /**
   * JSONL file (parent folders are created): a header, then one line per match, appended as each
   * finishes (nothing finished is lost to an interrupt) and put in match order when the tournament
   * completes.
   */
  out?: string;
  resume?: boolean;
  overwrite?: boolean;
  /**
   * Stop with `RunFailedEarlyError` when the first this-many matches to end (of those played now) all
   * failed with the same error and none finished. Default 4; 0 never stops early.
   */
  earlyStop?: number;
  signal?: AbortSignal;
}

export type { MatchMetrics, MatchRecord, TournamentHeader } from './tournament-records.js';

/** Events of a running tournament: a match ended, progress, an error. */
export interface TournamentEvents {
  [name: string]: unknown;
  'match-end': MatchRecord;
  progress: { completed: number; total: number; resumed: number };
  error: { source: 'listener'; error: unknown };
  /** Something worth saying that is no error: the stale lock of a dead writer of `out` was taken over. */
  note: { message: string };
}

/** A tournament in progress: listen to its events, await `done()` for the results. */
export interface TournamentRun {
  /** Listens to an event of the tournament. */
  on<K extends keyof TournamentEvents & string>(
    event: K,
    listener: (payload: TournamentEvents[K]) => unknown,
  ): this;
  /** Resolves with the results once every match is played; rejects on abort or a fatal error. */
  done(): Promise<TournamentResults>;
  /** Matches on file in `out` now (kept from a resumed file and written since); 0 without `out`. */
  readonly matchesOnFile: number;
}

interface PlannedMatch {
  index: number;
  arm: string;
  armRole: Role;
  opponent: string;
  scenario: Scenario;
  seed: number;
}

/**
 * Plays every arm against every opponent on every negotiation of the suite (in each of `armRoles`),
 * with a seed per match shared by all arms, so arms can be compared pairwise on identical negotiations.
 * Resumable like `simulate()`: every finished match is on file at once, the completed file is in match
 * order, and a resumed run plays only what is missing.
 *
 * @example
 * ```ts
 * import {
 *   compareArms,
 *   generateSuite,
 *   runTournament,
 *   utilityBoulware,
 *   utilityConceder,
 *   utilityLinear,
 * } from 'haggle/evaluation';
 *
 * const suite = generateSuite({ seed: 2026, scenarios: 8, seedsPerPair: 3, opponents: ['utility-conceder'] });
 * const results = await runTournament({
 *   suite,
 *   arms: { boulware: utilityBoulware(), linear: utilityLinear() },
 *   opponents: { 'utility-conceder': utilityConceder() },
 * }).done();
 * // Paired over identical matches: the same scenario, opponent and seed for both arms.
 * console.log(compareArms(results, 'boulware', 'linear').verdict);
 * ```
 * @see The guide: [Multi-issue bargaining evaluation](../../docs/evaluation.md).
 */
export function runTournament(options: TournamentOptions): TournamentRun {
  const plan = planTournament(options);
  const emitter = new SafeEmitter<TournamentEvents>((error, event) => {
    if (event !== 'error') emitter.emit('error', { source: 'listener', error });
  });
  const state: { onFile: () => number } = { onFile: () => 0 };
  const promise = Promise.resolve().then(() => execute(options, plan, emitter, state));
  promise.catch(() => {});
  const run: TournamentRun = {
    on(event, listener) {
      emitter.on(event, listener);
      return run;
    },
    done: () => promise,
    get matchesOnFile() {
      return state.onFile();
    },
  };
  return run;
}

interface TournamentPlan {
  matches: PlannedMatch[];
  header: TournamentHeader;
  earlyStop: number;
}

function planTournament(options: TournamentOptions): TournamentPlan {
  const problems: { path: string; message: string }[] = [];
  const armNames = Object.keys(options.arms);
  if (armNames.length === 0) problems.push({ path: 'arms', message: 'needs at least one arm' });
  const playing = options.onlyOpponents ?? options.suite.opponents;
  for (const name of playing) {
    if (!options.suite.opponents.includes(name))
      problems.push({ path: 'onlyOpponents', message: `${name} is not an opponent of the suite` });
    else if (!options.opponents[name])
      problems.push({
        path: `opponents.${name}`,
        message: 'the suite names this opponent; give a negotiator for it',
      });
  }
  const roles = options.armRoles ?? ['seller'];
  if (roles.length === 0 || new Set(roles).size !== roles.length)
    problems.push({ path: 'armRoles', message: 'must list seller and/or buyer once each' });
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024)
    problems.push({ path: 'concurrency', message: 'must be an integer from 1 to 1024' });
  if (
    options.maxRounds !== undefined &&
    options.suite.maxRounds !== undefined &&
    options.maxRounds !== options.suite.maxRounds
  )
    problems.push({
      path: 'maxRounds',
      message: `the suite fixes ${options.suite.maxRounds} turns per negotiation; leave maxRounds out (--max-rounds) or make a suite with ${options.maxRounds}`,
    });
  if (options.resume && !options.out) problems.push({ path: 'resume', message: 'needs `out`' });
  if (options.resume && options.overwrite)
    problems.push({ path: 'overwrite', message: 'cannot be combined with resume: choose one' });
  if (options.out && !options.resume && !options.overwrite && holdsData(options.out)) {
    problems.push({
      path: 'out',
      message: `${options.out} already holds results; pass resume: true (--resume) to continue it or overwrite: true (--overwrite) to replace it`,
    });
  }
  if (problems.length > 0) throw new InvalidInputError({ subject: 'TournamentOptions', issues: problems });
  const earlyStop = resolveEarlyStop(options.earlyStop, 'TournamentOptions');

  const scenarios = new Map(options.suite.scenarios.map((s) => [s.id, s]));
  const matches: PlannedMatch[] = [];
  for (const arm of armNames) {
    for (const armRole of roles) {
      for (const match of suiteMatches(options.suite, playing)) {
        matches.push({
          index: matches.length,
          arm,
          armRole,
          opponent: match.opponent,
          scenario: scenarios.get(match.scenarioId) as Scenario,
          seed: match.seed,
        });
      }
    }
  }
  if (options.shard) checkShard(options.shard, matches.length);
  const arms = Object.fromEntries(armNames.map((name) => [name, options.arms[name]?.describe()]));
  const opponents = Object.fromEntries(
    options.suite.opponents.map((name) => [name, options.opponents[name]?.describe()]),
  );
  const header: TournamentHeader = {
    type: 'tournament',
    format: 'haggle-tournament',
    version: 1,
    suiteId: options.suite.id,
    matches: matches.length,
    ...(options.shard ? { shard: { index: options.shard.index, count: options.shard.count } } : {}),
    config: {
      arms: withoutLocations(arms),
      opponents: withoutLocations(opponents),
      armRoles: roles,
      maxRounds: maxRoundsOf(options),
      // Only when not the default, so the headers of earlier runs still match on resume.
      ...(options.suite.firstMover === 'buyer' ? { firstMover: 'buyer' } : {}),
    },
    ...(options.labels ? { labels: options.labels } : {}),
    ...(options.experiment ? { experiment: options.experiment } : {}),
    provenance: currentProvenance({
      ...Object.fromEntries(Object.entries(arms).map(([name, d]) => [`arm ${name}`, d])),
      ...Object.fromEntries(Object.entries(opponents).map(([name, d]) => [`opponent ${name}`, d])),
    }),
  };
  return { matches, header, earlyStop };
}

async function execute(
  options: TournamentOptions,
  plan: TournamentPlan,
  emitter: SafeEmitter<TournamentEvents>,
  state: { onFile: () => number },
): Promise<TournamentResults> {
  const { signal } = options;
  if (signal?.aborted) throw new HaggleAbortError(signal.reason);
  const playing = plan.matches.filter((match) => inShard(match.index, options.shard));
  if (options.out && options.resume) checkExperimentResume(options.out, options.experiment);
  const output = options.out
    ? openRunOutput<TournamentHeader, MatchRecord>({
        path: options.out,
        resume: options.resume === true,
        overwrite: options.overwrite === true,
        onNote: (message) => emitter.emit('note', { message }),
        header: plan.header,
        read: readTournamentFile,
        plays: (index) => index < plan.matches.length && inShard(index, options.shard),
        kind: 'tournament',
        noun: 'match',
        // A failed match is no result: resuming plays it again.
        replay: isFailedMatch,
      })
    : undefined;
  const writer = output?.writer;
  if (writer) state.onFile = () => writer.records;
  const records = new Map<number, MatchRecord>(output?.kept.map((record) => [record.index, record]));
  const resumed = records.size;
  const queue = playing.filter((match) => !records.has(match.index));
  const geometries = new Map<string, ScenarioGeometry>();
  const geometryOf = (scenario: Scenario) => {
    let geometry = geometries.get(scenario.id);
    if (!geometry) {
      geometry = scenarioGeometry(scenario);
      geometries.set(scenario.id, geometry);
    }
    return geometry;
  };

  let next = 0;
  let completed = resumed;
  const yieldNow = new EventLoopYield();
  const earlyStop = new EarlyStop(plan.earlyStop, queue.length, 'matches');
  const worker = async () => {
    while (next < queue.length) {
      if (signal?.aborted) throw new HaggleAbortError(signal.reason);
      const match = queue[next++] as PlannedMatch;
      const arm = options.arms[match.arm] as MultiIssueNegotiator;
      const opponent = options.opponents[match.opponent] as MultiIssueNegotiator;
      const result = await runMultiIssueNegotiation({
        scenario: match.scenario,
        seller: match.armRole === 'seller' ? arm : opponent,
        buyer: match.armRole === 'seller' ? opponent : arm,
        seed: match.seed,
        maxRounds: maxRoundsOf(options),
        firstMover: options.suite.firstMover ?? DEFAULT_FIRST_MOVER,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(signal ? { signal } : {}),
      });
      const record: MatchRecord = {
        type: 'match',
        index: match.index,
        arm: match.arm,
        armRole: match.armRole,
        opponent: match.opponent,
        scenarioId: match.scenario.id,
        seed: match.seed,
        metrics: scoreMatch(match, result, geometryOf(match.scenario)),
        result,
      };
      writer?.append(record); // on disk before anything else hears of it
      records.set(match.index, record);
      completed++;
      emitter.emit('match-end', record);
      emitter.emit('progress', { completed, total: playing.length, resumed });
      // After the match is recorded: this worker stops, the others end the matches they hold.
      const stop = earlyStop.record(!isFailedMatch(record), result.error);
      if (stop) throw stop;
      await yieldNow.maybe(); // baselines answer without I/O: let Ctrl-C be heard
    }
  };
  try {
    // Every worker ends before the file closes, so a match that finishes while another fails is kept.
    let fatal: unknown;
    const workers = Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, () =>
      worker().catch((error: unknown) => {
        fatal ??= error;
        next = queue.length; // start nothing new
      }),
    );
    await Promise.all(workers);
    if (fatal !== undefined) throw fatal;
    writer?.finish(); // complete: the file goes into match order, the same bytes at any concurrency
  } finally {
    writer?.close();
  }
  return {
    ...tabulateTournament([...records.values()].sort((a, b) => a.index - b.index)),
    header: plan.header,
  };
}

function maxRoundsOf(options: TournamentOptions): number {
  return options.maxRounds ?? options.suite.maxRounds ?? DEFAULT_MAX_ROUNDS;
}
