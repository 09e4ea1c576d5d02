import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { InvalidInputError } from '../contract/errors.js';
import { formatEstimate } from '../evaluation/statistics.js';
import type { TournamentHeader } from '../evaluation/tournament.js';
import { readTournamentFile } from '../evaluation/tournament-file.js';
import { compareArms, type TournamentResults, tabulateTournament } from '../evaluation/tournament-results.js';
import { renderBarChart } from './bar-chart.js';
import { renderFailures } from './failures-section.js';
import { escapeHtml } from './html.js';
import { htmlDocument } from './html-document.js';
import { renderNegotiator, renderProvenance } from './provenance-section.js';

const ARM_COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#0ea5e9', '#84cc16', '#ec4899'];

const fixed = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(3));

/** A tournament's results as one self-contained HTML page: scores with intervals, charts, paired tests. */
export function renderTournamentReport(
  results: TournamentResults,
  options: { title: string; suiteId?: string; header?: TournamentHeader },
): string {
  const arms = [...new Set(results.scores.map((s) => s.arm))];
  const opponents = [...new Set(results.scores.map((s) => s.opponent))];
  const rows = results.scores.map(
    (s) =>
      `<tr data-arm="${escapeHtml(s.arm)}" data-opponent="${escapeHtml(s.opponent)}" data-arm-utility="${s.armUtility.mean}" data-deal-rate="${s.dealRate.mean}"><td>${escapeHtml(s.arm)}</td><td>${escapeHtml(s.opponent === '*' ? 'all' : s.opponent)}</td><td>${s.matches}</td><td data-field="failed">${s.errors}</td><td data-field="void">${s.void}</td><td>${formatEstimate(s.dealRate)}</td><td>${formatEstimate(s.armUtility)}</td><td>${formatEstimate(s.opponentUtility)}</td><td>${fixed(s.distanceToNash.mean)}</td><td>${s.irViolationRate === null ? '–' : `${(s.irViolationRate * 100).toFixed(1)}%`}</td></tr>`,
  );
  const chart = (id: string, title: string, value: (s: (typeof results.scores)[number]) => number) =>
    renderBarChart({
      id,
      title,
      categories: opponents.map((o) => (o === '*' ? 'all' : o)),
      series: arms.map((arm, i) => ({
        key: arm,
        name: arm,
        color: ARM_COLORS[i % ARM_COLORS.length] as string,
        values: opponents.map((o) => {
          const score = results.scores.find((s) => s.arm === arm && s.opponent === o);
          return score && !Number.isNaN(value(score)) ? value(score) : null;
        }),
      })),
      format: (v) => v.toFixed(2),
    });
  const comparisons = arms
    .slice(1)
    .map((other) => {
      const first = arms[0] as string;
      const utility = compareArms(results, first, other, 'armUtility');
      return `<li data-compare="${escapeHtml(first)}|${escapeHtml(other)}">${escapeHtml(first)} vs ${escapeHtml(other)}, arm utility: ${escapeHtml(utility.verdict)}</li>`;
    })
    .join('');
  return htmlDocument(
    options.title,
    `haggle tournament report${options.suiteId ? ` · suite <code>${escapeHtml(options.suiteId)}</code>` : ''} · ${results.matches.length} matches`,
    `<h2>Scores</h2>
<table class="metrics" data-table="tournament"><thead><tr><th>arm</th><th>opponent</th><th>matches</th><th>failed</th><th>void</th><th>deal rate [95% CI]</th><th>arm utility [95% CI]</th><th>opponent utility [95% CI]</th><th>dist. to Nash</th><th>IR viol.</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="note">Intervals: percentile bootstrap over the matches that finished; a match the arm's negotiator failed (it threw) is counted under <em>failed</em>, one the opponent broke (its failure, invalid turn or timeout) under <em>void</em>; neither is scored. Utilities are each side's private utility of the result (its reservation value without a deal).</p>
${renderFailures(results.matches.length, results.errors, results.errorMessages, 'matches')}
<h2>Charts</h2>
${chart('arm-utility', 'Arm utility by opponent (mean)', (s) => s.armUtility.mean)}
${chart('deal-rate', 'Deal rate by opponent', (s) => s.dealRate.mean)}
${comparisons ? `<h2>Paired comparisons</h2><ul>${comparisons}</ul>` : ''}
${options.header ? negotiatorsAndProvenance(options.header) : ''}`,
  );
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

/** Whether a JSONL file is a tournament's results (its header says so). */
export function isTournamentFile(path: string): boolean {
  try {
    const { header } = readTournamentFile(path);
    return header?.type === 'tournament';
  } catch {
    return false;
  }
}

/** Reads a tournament's JSONL and writes its report; atomically, like `writeReport`. */
export function writeTournamentReport(options: { run: string; out: string; title?: string }): {
  out: string;
  matches: number;
} {
  const { header, records } = readTournamentFile(options.run);
  if (header?.type !== 'tournament' || records.length === 0) {
    throw new InvalidInputError('WriteTournamentReportOptions', [
      { path: 'run', message: `${options.run} holds no tournament matches` },
    ]);
  }
  const html = renderTournamentReport(tabulateTournament(records), {
    title: options.title ?? `Tournament ${basename(options.run)}`,
    suiteId: header.suiteId,
    header,
  });
  mkdirSync(dirname(options.out), { recursive: true });
  const temporary = `${options.out}.${process.pid}.tmp`;
  writeFileSync(temporary, html);
  renameSync(temporary, options.out);
  return { out: options.out, matches: records.length };
}
