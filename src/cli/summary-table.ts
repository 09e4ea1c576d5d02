import { labelled } from '../internal/text-table.js';
import type { Distribution } from '../simulation/distribution.js';
import type { SimulationSummary } from '../simulation/summary.js';

function percent(value: number | null): string {
  return value === null ? '–' : `${(value * 100).toFixed(1)}%`;
}

function fixed(value: number | null, digits = 2): string {
  return value === null ? '–' : value.toFixed(digits);
}

function ratioRow(name: string, d: Distribution): [string, string] {
  return [
    name,
    `mean ${percent(d.mean)}  p25 ${percent(d.p25)}  p50 ${percent(d.p50)}  p75 ${percent(d.p75)}  (n=${d.count})`,
  ];
}

/**
 * The deal rate as the table shows it. Rates stand on finished sessions; with failures the table says
 * so, and a run in which none finished shows no rate at all (a 0% there would read as a result).
 */
function dealRateCell(summary: SimulationSummary): string {
  const unfinished = summary.sessions - summary.finished;
  if (summary.dealRate === null) return `— (all ${summary.sessions} sessions failed; no result)`;
  if (unfinished === 0) return `${percent(summary.dealRate)} (${summary.deals} deals)`;
  return `${percent(summary.dealRate)} (${summary.deals} deals of ${summary.finished} finished sessions)`;
}

/**
 * The run summary as an aligned two-column table for a terminal; a value longer than `width` allows
 * goes on on the next line, under itself.
 */
export function formatSummaryTable(
  summary: SimulationSummary,
  elapsedSeconds?: number,
  width: number = Number.POSITIVE_INFINITY,
): string {
  const outcomes = Object.entries(summary.outcomes)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  const unfinished = summary.sessions - summary.finished;
  const rows: [string, string][] = [
    [
      'sessions',
      unfinished === 0
        ? String(summary.sessions)
        : `${summary.sessions} (${summary.finished} finished, ${unfinished} failed: not counted as no-deals)`,
    ],
    ['deal rate', dealRateCell(summary)],
    // The card's population: about 3%; a model or baseline far from it writes too much or too little.
    ['message sessions', `${percent(summary.messageSessionRate)} of finished sessions carry a message`],
    [
      'mean turns',
      `${fixed(summary.meanTurns)}  (p50 ${fixed(summary.turns.p50, 0)}, p90 ${fixed(summary.turns.p90, 0)})`,
    ],
    ratioRow('first offer / list', summary.firstOfferRatio),
    ratioRow('final price / list', summary.finalPriceRatio),
    [
      'response time (h)',
      `mean ${fixed(summary.responseTimeHours.mean, 1)}  p50 ${fixed(summary.responseTimeHours.p50, 1)}  p90 ${fixed(summary.responseTimeHours.p90, 1)}`,
    ],
    ['outcomes', outcomes],
  ];
  if (summary.illegalTurns > 0) rows.push(['illegal turns', String(summary.illegalTurns)]);
  if (elapsedSeconds !== undefined) rows.push(['wall time', `${elapsedSeconds.toFixed(1)} s`]);
  const nameWidth = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => labelled(`${name.padEnd(nameWidth)}  `, value, width)).join('\n');
}
