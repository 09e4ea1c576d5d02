import type { Command } from 'commander';
import { HaggleError } from '../contract/errors.js';
import { ANALYSIS_METRICS, type AnalysisMetric } from '../evaluation/analysis/analysis-metric.js';
import type { MultiIssueNegotiator } from '../evaluation/multi-issue-turn.js';
import { loadSuite } from '../evaluation/suite.js';
import { runTournament } from '../evaluation/tournament.js';
import { DEFAULT_EARLY_STOP } from '../simulation/early-stop.js';
import type { Shard } from '../simulation/shard.js';
import { CliUsageError } from './cli-error.js';
import { parseMetrics, writeEvaluateOutput } from './evaluate-output.js';
import {
  DEFAULT_MAX_ERROR_RATE,
  EXIT_FAILURES,
  enforceFailureLimit,
  parseMaxErrorRate,
  printFailures,
} from './failure-limit.js';
import type { CliIo } from './io.js';
import {
  isMultiIssueAgentName,
  MULTI_ISSUE_AGENT_NAMES,
  MULTI_ISSUE_AGENTS,
} from './multi-issue-registry.js';
import { parseChoice, parseIntegerOption } from './options.js';
import { ProgressBar } from './progress-bar.js';
import { rawArguments, resumeCommand, withResumeHint } from './resume-command.js';
import { parseShardOption } from './shard-option.js';

interface EvaluateCliOptions {
  suite: string;
  arm: string[];
  opponent?: string[];
  roles: 'seller' | 'buyer' | 'both';
  maxRounds?: number;
  concurrency: number;
  timeout?: number;
  shard?: Shard;
  out?: string;
  resume?: boolean;
  overwrite?: boolean;
  json?: boolean;
  report?: string;
  metrics?: AnalysisMetric[];
  progress: boolean;
  maxErrorRate: number;
  earlyStop: number;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerEvaluateCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  program
    .command('evaluate')
    .description(
      'play arms against the opponents of a suite (multi-issue bargaining) and print a results table',
    )
    .requiredOption('--suite <file>', 'suite JSON (make one with `haggle suite`)')
    .requiredOption(
      '--arm <name>',
      `an arm to evaluate (repeatable): ${MULTI_ISSUE_AGENT_NAMES.join(', ')}`,
      collect,
    )
    .option('--opponent <name>', "restrict to these of the suite's opponents (repeatable)", collect)
    .option(
      '--roles <roles>',
      'roles the arms play: seller, buyer or both (rotation)',
      parseChoice('roles', ['seller', 'buyer', 'both'] as const),
      'seller',
    )
    .option(
      '--max-rounds <count>',
      "turns per negotiation (default: the suite's, 10 unless it says otherwise)",
      parseIntegerOption('max-rounds', 1, 1000),
    )
    .option(
      '-c, --concurrency <count>',
      'negotiations in flight',
      parseIntegerOption('concurrency', 1, 1024),
      8,
    )
    .option(
      '--timeout <ms>',
      'wall-clock limit per negotiation',
      parseIntegerOption('timeout', 1, 86_400_000),
    )
    .option(
      '--shard <K/N>',
      'play only shard K of N (matches with index % N = K-1); join with haggle merge',
      parseShardOption,
    )
    .option('-o, --out <file>', 'write each match to this JSONL file the moment it finishes')
    .option('--resume', 'continue the tournament in --out')
    .option('--overwrite', 'replace an existing --out')
    .option('--json', 'print scores and analyses as one JSON object')
    .option('--report <file>', 'also write the scores and analyses as a self-contained HTML report')
    .option(
      '--metrics <names>',
      `metrics the analyses compare, comma-separated (default all): ${ANALYSIS_METRICS.join(', ')}`,
      parseMetrics,
    )
    .option(
      '--max-error-rate <share>',
      `failed matches allowed (0..1) before the exit code is ${EXIT_FAILURES}; a tournament where none finished always fails`,
      parseMaxErrorRate,
      DEFAULT_MAX_ERROR_RATE,
    )
    .option(
      '--early-stop <count>',
      'stop when the first COUNT matches all fail with the same error and none finished (0: never)',
      parseIntegerOption('early-stop', 0, 1_000_000),
      DEFAULT_EARLY_STOP,
    )
    .option('--no-progress', 'no progress bar')
    .action(async (options: EvaluateCliOptions, command: Command) => {
      const suite = loadSuite(options.suite);
      const arms: Record<string, MultiIssueNegotiator> = {};
      for (const name of options.arm) {
        if (!isMultiIssueAgentName(name))
          throw new CliUsageError(
            `--arm ${name}: unknown; choose from ${MULTI_ISSUE_AGENT_NAMES.join(', ')}`,
          );
        arms[name] = MULTI_ISSUE_AGENTS[name]();
      }
      const wanted = options.opponent ?? suite.opponents;
      const opponents: Record<string, MultiIssueNegotiator> = {};
      for (const name of wanted) {
        if (!suite.opponents.includes(name))
          throw new CliUsageError(
            `--opponent ${name}: the suite's opponents are ${suite.opponents.join(', ')}`,
          );
        if (!isMultiIssueAgentName(name))
          throw new CliUsageError(`opponent ${name}: no built-in negotiator of that name`);
        opponents[name] = MULTI_ISSUE_AGENTS[name]();
      }
      const run = runTournament({
        suite,
        onlyOpponents: wanted,
        arms,
        opponents,
        armRoles: options.roles === 'both' ? ['seller', 'buyer'] : [options.roles],
        ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
        concurrency: options.concurrency,
        signal,
        ...(options.timeout ? { timeoutMs: options.timeout } : {}),
        ...(options.shard ? { shard: options.shard } : {}),
        ...(options.out ? { out: options.out } : {}),
        ...(options.resume ? { resume: true } : {}),
        ...(options.overwrite ? { overwrite: true } : {}),
        earlyStop: options.earlyStop,
      });
      const bar = new ProgressBar(io.stderr as NodeJS.WriteStream, 'evaluate');
      let progress = { completed: 0, total: 0 };
      run.on('progress', (p) => {
        progress = p;
        if (options.progress) bar.update(p.completed, p.total);
      });
      let results: Awaited<ReturnType<typeof run.done>>;
      try {
        results = await run.done();
      } catch (error) {
        if (HaggleError.isInstance(error) && error.code === 'aborted') {
          const finished = options.out ? run.matchesOnFile : progress.completed;
          io.stderr.write(interruptedMessage(finished, progress.total, options, rawArguments(command)));
        }
        throw withResumeHint(error, rawArguments(command));
      } finally {
        bar.finish();
      }
      writeEvaluateOutput(io, results, {
        ...(options.json ? { json: true } : {}),
        ...(options.report ? { report: options.report } : {}),
        ...(options.metrics ? { metrics: options.metrics } : {}),
      });
      const { errors, errorMessages } = results;
      const counts = { total: results.matches.length, unfinished: errors, errorMessages };
      printFailures(io, counts, 'matches');
      enforceFailureLimit(counts, options.maxErrorRate, 'matches');
    });
}

/** After Ctrl-C: exactly what is on file, and the command that continues the tournament. */
function interruptedMessage(
  finished: number,
  total: number,
  options: EvaluateCliOptions,
  argv: readonly string[],
): string {
  const of = total > 0 ? ` of ${total}` : '';
  const shard = options.shard ? ` (shard ${options.shard.index}/${options.shard.count})` : '';
  const progress = `haggle: stopped after ${finished}${of} matches${shard}`;
  if (!options.out)
    return `${progress}; nothing was saved (pass --out FILE to make a tournament resumable)\n`;
  return (
    `${progress}; ${options.out} holds the tournament header and all ${finished} finished matches, one complete ` +
    'line each, in the order they finished (a completed tournament puts them in match order).\n' +
    `haggle: resume with: ${resumeCommand(argv)}\n`
  );
}
