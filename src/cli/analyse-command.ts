import type { Command } from 'commander';
import { ANALYSIS_METRICS, type AnalysisMetric } from '../evaluation/analysis/analysis-metric.js';
import { loadTournament } from '../evaluation/load-tournament.js';
import type { ParticipantLabel, ParticipantLabels } from '../evaluation/participant-label.js';
import { CliUsageError } from './errors.js';
import { parseMetrics, writeEvaluateOutput } from './evaluate-output.js';
import {
  DEFAULT_MAX_ERROR_RATE,
  EXIT_FAILURES,
  enforceFailureLimit,
  parseMaxErrorRate,
  printFailures,
} from './failure-limit.js';
import type { CliIo } from './io.js';
import { parseIntegerOption } from './options.js';

interface AnalyseCliOptions {
  json?: boolean;
  report?: string;
  metrics?: AnalysisMetric[];
  reference?: string;
  base: string[];
  family: string[];
  trainingPool: string[];
  seed: number;
  permutations: number;
  maxErrorRate: number;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `haggle analyse RUN.jsonl` reanalyses a finished (or interrupted) tournament file: the same table,
 * `--json` object and HTML report as `haggle evaluate`, from the file alone. Labels the run did not
 * record (a base, a family, training-pool membership) can be given here; they add to the header's.
 */
export function registerAnalyseCommand(program: Command, io: CliIo): void {
  program
    .command('analyse')
    .alias('analyze')
    .description(
      'reanalyse a tournament file (evaluate --out): scores, paired comparisons, gains, interactions',
    )
    .argument(
      '<run>',
      'tournament results (JSONL) written by haggle evaluate --out or runTournament({ out })',
    )
    .option('--json', 'print scores and analyses as one JSON object')
    .option('--report <file>', 'also write the scores and analyses as a self-contained HTML report')
    .option(
      '--metrics <names>',
      `metrics the analyses compare, comma-separated (default all): ${ANALYSIS_METRICS.join(', ')}`,
      parseMetrics,
    )
    .option('--reference <arm>', 'the arm the others are compared with (default: the first arm)')
    .option(
      '--base <arm=base>',
      'the arm ARM was trained from BASE (repeatable): adds gains and interactions',
      collect,
      [],
    )
    .option('--family <name=family>', "an arm's or opponent's model family (repeatable)", collect, [])
    .option(
      '--training-pool <opponent>',
      'this opponent (or its family) was in the training pool (repeatable); the other opponents were not',
      collect,
      [],
    )
    .option(
      '-s, --seed <seed>',
      'seed of the bootstrap intervals and random permutations',
      parseIntegerOption('seed', 0, Number.MAX_SAFE_INTEGER),
      0,
    )
    .option(
      '--permutations <count>',
      'random relabellings of a permutation test too large to enumerate (p is never below 1/(count+1))',
      parseIntegerOption('permutations', 100, 10_000_000),
      5000,
    )
    .option(
      '--max-error-rate <share>',
      `failed matches allowed (0..1) before the exit code is ${EXIT_FAILURES}`,
      parseMaxErrorRate,
      DEFAULT_MAX_ERROR_RATE,
    )
    .action((run: string, options: AnalyseCliOptions) => {
      const loaded = loadTournament(run);
      const arms = [...new Set(loaded.records.map((m) => m.arm))];
      const opponents = [...new Set(loaded.records.map((m) => m.opponent))];
      if (loaded.records.length === 0) throw new CliUsageError(`${run} holds no matches yet`);
      if (options.reference !== undefined && !arms.includes(options.reference))
        throw new CliUsageError(`--reference ${options.reference}: the file's arms are ${arms.join(', ')}`);
      const labels = withCliLabels(loaded.header.labels ?? {}, options, arms, opponents);
      if (loaded.missing > 0)
        io.stderr.write(
          `haggle: ${run} lacks ${loaded.missing} of its ${loaded.expected} matches (an interrupted run? resume it): the analyses stand on the ${loaded.records.length} present\n`,
        );
      writeEvaluateOutput(
        io,
        { ...loaded.results, header: { ...loaded.header, labels } },
        {
          labels,
          seed: options.seed,
          permutations: options.permutations,
          title: `Tournament ${run}`,
          ...(options.json ? { json: true } : {}),
          ...(options.report ? { report: options.report } : {}),
          ...(options.metrics ? { metrics: options.metrics } : {}),
          ...(options.reference ? { reference: options.reference } : {}),
        },
      );
      const { errors, errorMessages } = loaded.results;
      const counts = { total: loaded.records.length, unfinished: errors, errorMessages };
      printFailures(io, counts, 'matches');
      enforceFailureLimit(counts, options.maxErrorRate, 'matches');
    });
}

function splitPair(flag: string, text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1) throw new CliUsageError(`--${flag} ${text}: write NAME=VALUE`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** The header's labels with the command line's added (the command line wins where both say something). */
function withCliLabels(
  recorded: ParticipantLabels,
  options: AnalyseCliOptions,
  arms: readonly string[],
  opponents: readonly string[],
): ParticipantLabels {
  const armLabels: Record<string, ParticipantLabel> = { ...recorded.arms };
  const opponentLabels: Record<string, ParticipantLabel> = { ...recorded.opponents };
  const known = (flag: string, name: string, among: readonly string[], what: string) => {
    if (!among.includes(name))
      throw new CliUsageError(`--${flag} ${name}: the file's ${what} are ${among.join(', ')}`);
  };
  for (const pair of options.base) {
    const [arm, base] = splitPair('base', pair);
    known('base', arm, arms, 'arms');
    known('base', base, arms, 'arms');
    armLabels[arm] = { ...armLabels[arm], base };
  }
  for (const pair of options.family) {
    const [name, family] = splitPair('family', pair);
    known('family', name, [...arms, ...opponents], 'arms and opponents');
    if (arms.includes(name)) armLabels[name] = { ...armLabels[name], family };
    if (opponents.includes(name)) opponentLabels[name] = { ...opponentLabels[name], family };
  }
  if (options.trainingPool.length > 0) {
    for (const name of options.trainingPool) known('training-pool', name, opponents, 'opponents');
    for (const name of opponents)
      opponentLabels[name] = { ...opponentLabels[name], trainingPool: options.trainingPool.includes(name) };
  }
  return {
    ...(Object.keys(armLabels).length > 0 ? { arms: armLabels } : {}),
    ...(Object.keys(opponentLabels).length > 0 ? { opponents: opponentLabels } : {}),
  };
}
