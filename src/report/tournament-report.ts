import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { InvalidInputError } from '../contract/errors.js';
import {
  type AnalyseTournamentOptions,
  analyseTournament,
  type TournamentAnalysis,
} from '../evaluation/analysis/analyse-tournament.js';
import { analysisTables, pooledVerdicts } from '../evaluation/analysis/analysis-rows.js';
import { loadTournament } from '../evaluation/load-tournament.js';
import type { TournamentHeader } from '../evaluation/tournament.js';
import type { TournamentResults } from '../evaluation/tournament-results.js';
import { firstLineType } from '../simulation/indexed-jsonl.js';
import { type Estimate, formatEstimate } from '../simulation/metrics/estimates.js';
import { type BarChartSpec, renderBarChart } from './bar-chart.js';
import { renderFailures } from './failures-section.js';
import { escapeHtml } from './html.js';
import { htmlDocument } from './html-document.js';
import { renderNegotiator, renderProvenance } from './provenance-section.js';

const ARM_COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#0ea5e9', '#84cc16', '#ec4899'];

type Score = TournamentResults['scores'][number];

const fixed = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(3));

/**
 * A tournament's results as one self-contained HTML page: scores with intervals, charts, and the
 * analyses (paired comparisons, gains over base, interactions, grouped gains, Holm-adjusted), computed
 * from the results unless given.
 */
export function renderTournamentReport(
  results: TournamentResults,
  options: { title: string; suiteId?: string; header?: TournamentHeader; analysis?: TournamentAnalysis },
): string {
  const header = options.header ?? results.header;
  const analysis = options.analysis ?? analyseTournament({ header, records: results.matches });
  const suiteId = options.suiteId ?? header?.suiteId;
  const rows = results.scores.map(
    (s) =>
      `<tr data-arm="${escapeHtml(s.arm)}" data-opponent="${escapeHtml(s.opponent)}" data-arm-utility="${s.armUtility.mean}" data-deal-rate="${s.dealRate.mean}"><td>${escapeHtml(s.arm)}</td><td>${escapeHtml(s.opponent === '*' ? 'all' : s.opponent)}</td><td>${s.matches}</td><td data-field="failed">${s.errors}</td><td data-field="void">${s.void}</td><td>${formatEstimate(s.dealRate)}</td><td>${formatEstimate(s.armUtility)}</td><td>${formatEstimate(s.opponentUtility)}</td><td data-field="welfare">${formatEstimate(s.welfare)}</td><td>${fixed(s.distanceToNash.mean)}</td><td data-field="distance-to-pareto">${fixed(s.distanceToPareto.mean)}</td><td data-field="rounds">${Number.isNaN(s.rounds.mean) ? '–' : s.rounds.mean.toFixed(2)}</td><td>${s.irViolationRate === null ? '–' : `${(s.irViolationRate * 100).toFixed(1)}%`}</td></tr>`,
  );
  const verdicts = pooledVerdicts(analysis)
    .map((line) => `<li>${escapeHtml(line)}</li>`)
    .join('');
  const tables = analysisTables(analysis)
    .map(
      (table) =>
        `<h3>${escapeHtml(table.title)}</h3><p class="note">${escapeHtml(table.note)}</p><div class="table-scroll"><table class="metrics" data-table="${escapeHtml(table.key)}"><thead><tr>${table.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${table.rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`,
    )
    .join('\n');
  return htmlDocument(
    options.title,
    `haggle tournament report${suiteId ? ` · suite <code>${escapeHtml(suiteId)}</code>` : ''} · ${results.matches.length} matches`,
    `<h2>Scores</h2>
<div class="table-scroll"><table class="metrics" data-table="tournament"><thead><tr><th>arm</th><th>opponent</th><th>matches</th><th>failed</th><th>void</th><th>deal rate [95% CI]</th><th>arm utility [95% CI]</th><th>opponent utility [95% CI]</th><th>welfare [95% CI]</th><th>dist. to Nash</th><th>dist. to Pareto</th><th>rounds</th><th>IR viol.</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>
<p class="note">Intervals: exact (Clopper-Pearson) for the deal rate, percentile bootstrap for the means, over the matches that finished; a match the arm's negotiator failed (it threw) is counted under <em>failed</em>, one the opponent broke (its failure, invalid turn or timeout) under <em>void</em>; neither is scored. Utilities are each side's private utility of the result (its reservation value without a deal); welfare is their sum; the distances to the Nash point and to the Pareto frontier are in utility space, over deals.</p>
${renderFailures(results.matches.length, results.errors, results.errorMessages, 'matches')}
<h2>Charts</h2>
${tournamentChartSpecs(results).map(renderBarChart).join('\n')}
${tables ? `<h2>Analyses</h2>${verdicts ? `<ul class="verdicts">${verdicts}</ul>` : ''}\n${tables}` : ''}
${analysis.warnings.map((w) => `<p class="note" data-warning>${escapeHtml(w)}</p>`).join('')}
${header ? negotiatorsAndProvenance(header) : ''}`,
  );
}

/**
 * The tournament report's charts as specs: each arm's mean utility and deal rate by opponent ('all':
 * every opponent together), with the scores' intervals as whiskers. What the page draws, for a
 * notebook to draw too with `barChartSvg`.
 */
export function tournamentChartSpecs(results: TournamentResults): BarChartSpec[] {
  const arms = [...new Set(results.scores.map((s) => s.arm))];
  const opponents = [...new Set(results.scores.map((s) => s.opponent))];
  const chart = (
    id: string,
    title: string,
    yLabel: string,
    estimate: (s: Score) => Estimate,
    whiskers: string,
  ): BarChartSpec => ({
    id,
    title,
    categories: opponents.map((o) => (o === '*' ? 'all' : o)),
    series: arms.map((arm, i) => {
      const scores = opponents.map((o) => results.scores.find((s) => s.arm === arm && s.opponent === o));
      return {
        key: arm,
        name: arm,
        color: ARM_COLORS[i % ARM_COLORS.length] as string,
        values: scores.map((score) =>
          score && !Number.isNaN(estimate(score).mean) ? estimate(score).mean : null,
        ),
        // The same intervals as the scores table, as whiskers.
        intervals: scores.map((score) => {
          const e = score && estimate(score);
          return e && Number.isFinite(e.low) && Number.isFinite(e.high) ? [e.low, e.high] : null;
        }),
      };
    }),
    format: (v) => v.toFixed(2),
    xLabel: 'opponent',
    yLabel,
    whiskers,
  });
  return [
    chart(
      'arm-utility',
      'Arm utility by opponent (mean)',
      'arm utility',
      (s) => s.armUtility,
      'the 95% percentile bootstrap intervals of the scores table (matches resampled).',
    ),
    chart(
      'deal-rate',
      'Deal rate by opponent',
      'deal rate',
      (s) => s.dealRate,
      'the 95% exact (Clopper-Pearson) intervals of the scores table.',
    ),
  ];
}

/** Who played (each arm's and opponent's description) and what produced the file. */
function negotiatorsAndProvenance(header: TournamentHeader): string {
  const config = header.config as { arms?: Record<string, unknown>; opponents?: Record<string, unknown> };
  const entries = [
    ...Object.entries(config.arms ?? {}).map(([name, d]) => renderNegotiator(`arm ${name}`, d)),
    ...Object.entries(config.opponents ?? {}).map(([name, d]) => renderNegotiator(`opponent ${name}`, d)),
  ];
  return `<h2>Negotiators and provenance</h2><section class="card"><dl class="negotiators">${entries.join('')}</dl><h3>Provenance</h3>${renderProvenance(header.provenance)}</section>`;
}

/** Whether a JSONL file is a tournament's results (its header says so); only its first line is read. */
export function isTournamentFile(path: string): boolean {
  try {
    return firstLineType(path) === 'tournament';
  } catch {
    return false;
  }
}

/** Reads a tournament's JSONL and writes its report; atomically, like `writeReport`. */
export function writeTournamentReport(
  options: { run: string; out: string; title?: string } & AnalyseTournamentOptions,
): {
  out: string;
  matches: number;
} {
  const { run, out, title, ...analysisOptions } = options;
  const { header, records, results } = loadTournament(run);
  if (records.length === 0) {
    throw new InvalidInputError({
      subject: 'WriteTournamentReportOptions',
      issues: [{ path: 'run', message: `${run} holds no tournament matches` }],
    });
  }
  writeTournamentReportFile(out, results, analyseTournament({ header, records }, analysisOptions), {
    title: title ?? `Tournament ${basename(run)}`,
  });
  return { out, matches: records.length };
}

/** Writes the report of results already analysed (what `haggle evaluate --report` shows), atomically. */
export function writeTournamentReportFile(
  out: string,
  results: TournamentResults,
  analysis: TournamentAnalysis,
  options: { title: string },
): void {
  const html = renderTournamentReport(results, { title: options.title, analysis });
  mkdirSync(dirname(out), { recursive: true });
  const temporary = `${out}.${process.pid}.tmp`;
  writeFileSync(temporary, html);
  renameSync(temporary, out);
}
