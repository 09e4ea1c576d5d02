import { isAbsolute, resolve } from 'node:path';
import type { Role } from '../contract/history.js';
import type { Shard } from '../simulation/shard.js';
import { ExperimentFileError, type LoadedExperiment } from './experiment-file.js';
import { experimentOut } from './experiment-out.js';
import { type ExperimentParticipantsOptions, experimentParticipants } from './experiment-participants.js';
import { type ExperimentRecord, experimentRecord } from './experiment-record.js';
import type { Experiment } from './experiment-schema.js';
import { generateSuite, loadSuite, type Suite } from './suite.js';
import { runTournament, type TournamentOptions, type TournamentRun } from './tournament.js';

/** How `experimentTournament`/`runExperiment` resolve an experiment's paths and secrets. */
export interface ExperimentRunOptions extends ExperimentParticipantsOptions {
  /** Where `suite.file` and `out` start from. Default the working folder. */
  baseDir?: string;
  /** Replaces the experiment's `out` (relative to the working folder, as a command-line path is). */
  out?: string;
  /**
   * Let the experiment's own `out` lie outside the experiment file's folder (`--allow-out-anywhere`).
   * Without it such an `out` is refused: see experiment-out.ts.
   */
  allowOutAnywhere?: boolean;
  /** Replaces the experiment's `concurrency`. */
  concurrency?: number;
  resume?: boolean;
  overwrite?: boolean;
  shard?: Shard;
  earlyStop?: number;
  signal?: AbortSignal;
}

/** What `runTournament` needs for an experiment, with the suite it plays and the experiment's record. */
export interface ExperimentTournament {
  options: TournamentOptions;
  suite: Suite;
  record: ExperimentRecord;
}

function experimentSuite(experiment: Experiment, baseDir: string, file: string | undefined): Suite {
  const opponents = Object.keys(experiment.opponents);
  if (experiment.suite.generate) return generateSuite({ ...experiment.suite.generate, opponents });
  const suitePath = experiment.suite.file as string;
  const suite = loadSuite(isAbsolute(suitePath) ? suitePath : resolve(baseDir, suitePath));
  const missing = opponents.filter((name) => !suite.opponents.includes(name));
  if (missing.length > 0) {
    throw new ExperimentFileError({
      file,
      issues: missing.map((name) => ({
        path: `opponents.${name}`,
        message: `the suite has no opponent of that name; its opponents are ${suite.opponents.join(', ')} (name the experiment's opponents after them)`,
      })),
    });
  }
  return suite;
}

/**
 * Turns an experiment (`loadExperiment(file)`) into a tournament: its suite (loaded, or generated with
 * the experiment's opponents), its negotiators and labels, its record for the header, and its limits.
 * Nothing is sent to a server until the tournament runs.
 */
export function experimentTournament(
  loaded: LoadedExperiment | Experiment,
  options: ExperimentRunOptions = {},
): ExperimentTournament {
  const { experiment, baseDir, file } =
    'experiment' in loaded
      ? { ...loaded, baseDir: options.baseDir ?? loaded.baseDir }
      : { experiment: loaded, baseDir: resolve(options.baseDir ?? '.'), file: options.file };
  const suite = experimentSuite(experiment, baseDir, file ?? options.file);
  const record = experimentRecord(experiment, suite.id);
  const { arms, opponents, labels } = experimentParticipants(experiment, {
    ...options,
    ...(file !== undefined ? { file } : {}),
  });
  const roles: Role[] = experiment.roles === 'both' ? ['seller', 'buyer'] : [experiment.roles ?? 'seller'];
  const out =
    options.out ??
    (experiment.out !== undefined
      ? experimentOut(experiment.out, baseDir, file, options.allowOutAnywhere === true)
      : undefined);
  const concurrency = options.concurrency ?? experiment.concurrency;
  return {
    suite,
    record,
    options: {
      suite,
      onlyOpponents: Object.keys(experiment.opponents),
      arms,
      opponents,
      labels,
      experiment: record,
      armRoles: roles,
      ...(experiment.maxRounds !== undefined ? { maxRounds: experiment.maxRounds } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(experiment.matchTimeoutMs !== undefined ? { timeoutMs: experiment.matchTimeoutMs } : {}),
      ...(out !== undefined ? { out } : {}),
      ...(options.resume ? { resume: true } : {}),
      ...(options.overwrite ? { overwrite: true } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.earlyStop !== undefined ? { earlyStop: options.earlyStop } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  };
}

/** Runs an experiment: `runTournament(experimentTournament(loaded, options).options)`. */
export function runExperiment(
  loaded: LoadedExperiment | Experiment,
  options: ExperimentRunOptions = {},
): TournamentRun {
  return runTournament(experimentTournament(loaded, options).options);
}
