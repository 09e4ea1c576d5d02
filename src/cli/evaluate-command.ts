import type { Command } from 'commander';
import { HaggleError } from '../contract/errors.js';
import { ANALYSIS_METRICS, type AnalysisMetric } from '../evaluation/analysis/analysis-metric.js';
import { plannedMatchCount } from '../evaluation/planned-matches.js';
import { runTournament } from '../evaluation/tournament.js';
import { type EvaluateInputOptions, evaluateTournament } from './evaluate-inputs.js';
import { parseMetrics, writeEvaluateOutput } from './evaluate-output.js';
import { addFailureLimitOptions, enforceFailureLimit, printFailures } from './failure-limit.js';
import type { CliIo } from './io.js';
import { confirmLargeTournament } from './large-run.js';
import { MULTI_ISSUE_AGENT_NAMES } from './multi-issue-registry.js';
import { parseChoice, parseIntegerOption } from './options.js';
import { ProgressBar } from './progress-bar.js';
import { rawArguments, resumeCommand, withResumeHint } from './resume-command.js';
import { addSamplingOptions } from './sampling-options.js';
import { parseShardOption } from './shard-option.js';

interface EvaluateCliOptions extends EvaluateInputOptions {
  json?: boolean;
  report?: string;
  metrics?: AnalysisMetric[];
  progress: boolean;
  maxErrorRate: number;
  yes?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerEvaluateCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  const evaluateCommand = program
    .command('evaluate')
    .description(
      'play arms (baselines or LLMs) against the opponents of a suite (multi-issue bargaining) and print a results table',
    )
    .option(
      '--experiment <file>',
      'an experiment file: arms, opponents (baselines or LLMs), suite, roles, limits (docs/evaluation.md)',
    )
    .option('--suite <file>', 'suite JSON (make one with `haggle suite`); not with --experiment')
    .option(
      '--arm <spec>',
      `an arm (repeatable): a baseline (${MULTI_ISSUE_AGENT_NAMES.join(', ')}), NAME=BASELINE, NAME=openai:MODEL@URL[,URL...] or NAME=PROVIDER:MODEL (an AI SDK provider package)`,
      collect,
    )
    .option(
      '--opponent <spec>',
      "only these of the suite's opponents (repeatable); NAME=openai:MODEL@URL, NAME=PROVIDER:MODEL or NAME=BASELINE says who plays NAME",
      collect,
    )
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
    .option(
      '--allow-out-anywhere',
      'let the experiment file\'s "out" lie outside the experiment file\'s folder',
    )
    .option('--yes', 'run a tournament of more than 100,000 matches without asking')
    .option('--json', 'print scores and analyses as one JSON object')
    .option('--report <file>', 'also write the scores and analyses as a self-contained HTML report')
    .option(
      '--metrics <names>',
      `metrics the analyses compare, comma-separated (default all): ${ANALYSIS_METRICS.join(', ')}`,
      parseMetrics,
    );
  addSamplingOptions(evaluateCommand);
  addFailureLimitOptions(evaluateCommand, 'matches')
    .option('--no-progress', 'no progress bar')
    .action(async (options: EvaluateCliOptions, command: Command) => {
      const tournament = await evaluateTournament(options, command, signal);
      confirmLargeTournament(plannedMatchCount(tournament), options.yes);
      const out = tournament.out;
      const run = runTournament(tournament);
      run.on('note', ({ message }) => io.stderr.write(`haggle: note: ${message}\n`));
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
          const finished = out ? run.matchesOnFile : progress.completed;
          io.stderr.write(
            interruptedMessage(finished, progress.total, { ...options, out }, rawArguments(command)),
          );
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
