import {
  type AnalyseTournamentOptions,
  analyseTournament,
  type TournamentAnalysis,
} from '../evaluation/analysis/analyse-tournament.js';
import {
  ANALYSIS_METRICS,
  type AnalysisMetric,
  isAnalysisMetric,
} from '../evaluation/analysis/analysis-metric.js';
import { type AnalysisTable, analysisTables, pooledVerdicts } from '../evaluation/analysis/analysis-rows.js';
import type { ArmScore, TournamentResults } from '../evaluation/tournament-results.js';
import { textTable, wrapText } from '../internal/text-table.js';
import { writeTournamentReportFile } from '../report/tournament-report.js';
import { formatEstimate } from '../simulation/metrics/estimates.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { commaList } from './options.js';
import { terminalWidth } from './terminal-width.js';

/** What `haggle evaluate` and `haggle analyse` print and write once the matches are in. */
export interface EvaluateOutputOptions extends AnalyseTournamentOptions {
  json?: boolean;
  /** An HTML report to write as well. */
  report?: string;
  title?: string;
}

/**
 * Prints a tournament's scores and analyses (a table, or with `json` one JSON object) and writes the
 * HTML report when asked; returns the analysis.
 */
export function writeEvaluateOutput(
  io: CliIo,
  results: TournamentResults,
  options: EvaluateOutputOptions,
): TournamentAnalysis {
  const analysis = analyseTournament({ header: results.header, records: results.matches }, options);
  for (const warning of analysis.warnings) io.stderr.write(`haggle: ${warning}\n`);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(evaluateJson(results, analysis))}\n`);
  } else {
    const width = terminalWidth(io.stdout);
    io.stdout.write(`${formatScores(analysis.scores, width)}\n`);
    for (const table of analysisTables(analysis)) io.stdout.write(`\n${formatAnalysisTable(table, width)}\n`);
    const verdicts = pooledVerdicts(analysis).map((verdict) => wrapText(verdict, width ?? Infinity, '  '));
    if (verdicts.length > 0) io.stdout.write(`\n${verdicts.join('\n')}\n`);
  }
  if (options.report) {
    writeTournamentReportFile(options.report, results, analysis, {
      title: options.title ?? 'Tournament',
    });
    // stderr, so `--json` stays one object on stdout.
    io.stderr.write(`haggle: wrote ${options.report}\n`);
  }
  return analysis;
}

/** The `--json` object: counts, failures, labels and every analysis (NaN, for what has no value, is null). */
export function evaluateJson(
  results: TournamentResults,
  analysis: TournamentAnalysis,
): Record<string, unknown> {
  const { errors, errorMessages, void: voided } = results;
  return {
    suiteId: results.header?.suiteId ?? analysis.suiteId,
    matches: results.matches.length,
    errors,
    void: voided,
    errorMessages,
    ...(results.header?.labels ? { labels: results.header.labels } : {}),
    ...(results.header?.experiment ? { experimentHash: results.header.experiment.hash } : {}),
    metrics: analysis.metrics,
    tests: analysis.tests,
    warnings: analysis.warnings,
    scores: analysis.scores,
    comparisons: analysis.comparisons,
    gains: analysis.gains,
    interactions: analysis.interactions,
    groups: analysis.groups,
  };
}

/** `--metrics a,b`: analysis metrics by name. */
export function parseMetrics(text: string): AnalysisMetric[] {
  const names = commaList(text);
  const unknown = names.filter((name) => !isAnalysisMetric(name));
  if (names.length === 0 || unknown.length > 0)
    throw new CliUsageError(
      `--metrics: ${unknown.length > 0 ? `unknown ${unknown.join(', ')}` : 'name at least one'}; choose from ${ANALYSIS_METRICS.join(', ')}`,
    );
  return [...new Set(names)] as AnalysisMetric[];
}

/** The columns that name a row of an analysis table: those before its first number (`n`, an estimate). */
function keyColumns(header: readonly string[]): number {
  const first = header.findIndex((name) => name === 'n' || name.includes('['));
  return first > 0 ? first : 1;
}

/**
 * A titled analysis table with its note on method; within `width` columns when given (the table then
 * prints one block per row if its columns do not fit).
 */
export function formatAnalysisTable(table: AnalysisTable, width?: number): string {
  const title = wrapText(`${table.title}: ${table.note}`, width ?? Number.POSITIVE_INFINITY, '  ');
  const body = textTable(table.header, table.rows, {
    rule: true,
    ...(width === undefined ? {} : { width }),
    keyColumns: keyColumns(table.header),
  });
  return `${title}\n${body}`;
}

const mean3 = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(3));

/**
 * Scores as an aligned table: one row per arm and opponent, then the pooled row (`*`). Estimates stand
 * on the matches that finished; `failed` counts the others, which are no result (`–` when none finished).
 * Welfare is the sum of both sides' utilities; Nash and Pareto distances are over deals. Within `width`
 * columns when given: a table wider than that prints one block per arm and opponent.
 */
export function formatScores(scores: readonly ArmScore[], width?: number): string {
  // The failed column appears when a match failed, so a clean tournament's table stays as it was.
  const anyFailed = scores.some((s) => s.errors > 0);
  // Matches the opponent broke are void for the arm: counted in their own column, never scored.
  const anyVoid = scores.some((s) => s.void > 0);
  const header = [
    'arm',
    'opponent',
    'matches',
    ...(anyFailed ? ['failed'] : []),
    ...(anyVoid ? ['void'] : []),
    'deal rate [95% CI]',
    'arm utility [95% CI]',
    'opp. utility',
    'welfare',
    'dist. to Nash',
    'dist. to Pareto',
    'rounds',
    'IR viol.',
  ];
  const rows = scores.map((s) => [
    s.arm,
    s.opponent === '*' ? 'all' : s.opponent,
    String(s.matches),
    ...(anyFailed ? [String(s.errors)] : []),
    ...(anyVoid ? [String(s.void)] : []),
    formatEstimate(s.dealRate),
    formatEstimate(s.armUtility),
    mean3(s.opponentUtility.mean),
    mean3(s.welfare.mean),
    mean3(s.distanceToNash.mean),
    mean3(s.distanceToPareto.mean),
    Number.isNaN(s.rounds.mean) ? '–' : s.rounds.mean.toFixed(2),
    s.irViolationRate === null ? '–' : `${(s.irViolationRate * 100).toFixed(1)}%`,
  ]);
  return textTable(header, rows, { rule: true, ...(width === undefined ? {} : { width }), keyColumns: 2 });
}
