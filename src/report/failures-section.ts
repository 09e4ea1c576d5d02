import type { ErrorMessageCount } from '../simulation/failures.js';
import { UNFINISHED_REASONS } from '../simulation/failures.js';
import type { EndReason } from '../simulation/outcome.js';
import { escapeHtml } from './html.js';

const share = (count: number, total: number) =>
  total === 0 ? '–' : `${((count / total) * 100).toFixed(1)}%`;

/**
 * The failures of one run (or tournament) as HTML: how many did not finish, and each distinct error
 * with its count. Says plainly when every one failed, so no rate on the page can pass for a result.
 */
export function renderFailures(
  total: number,
  unfinished: number,
  errorMessages: readonly ErrorMessageCount[],
  unit: 'sessions' | 'matches',
  name?: string,
): string {
  const who = name ? `${escapeHtml(name)}: ` : '';
  if (unfinished === 0)
    return `<p class="note" data-failures="0">${who}all ${total} ${unit} finished; none failed.</p>`;
  const headline =
    unfinished === total
      ? `${who}all ${total} ${unit} failed: there is no result, and no rate on this page stands for one.`
      : `${who}${unfinished} of ${total} ${unit} failed (${share(unfinished, total)}). They are left out of every rate and chart, not counted as no-deals.`;
  const rows = errorMessages.map(
    (e) =>
      `<tr data-error-count="${e.count}"><td class="error-message">${escapeHtml(e.message)}</td><td>${e.count}</td></tr>`,
  );
  return `<div class="failures" data-failures="${unfinished}"><p class="failure-headline">${headline}</p>
<table class="errors"><thead><tr><th>error</th><th>${unit}</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** One run's sessions by end reason, with the reasons that mean "did not finish" marked. */
export function renderOutcomes(
  runs: readonly { name: string; sessions: number; outcomes: Record<EndReason, number> }[],
): string {
  const reasons = (Object.keys(runs[0]?.outcomes ?? {}) as EndReason[]).filter((reason) =>
    runs.some((r) => r.outcomes[reason] > 0),
  );
  const head = `<tr><th>end reason</th>${runs.map((r) => `<th>${escapeHtml(r.name)}</th>`).join('')}</tr>`;
  const rows = reasons.map((reason) => {
    const unfinished = UNFINISHED_REASONS.includes(reason);
    const cells = runs
      .map((r) => `<td>${r.outcomes[reason]} (${share(r.outcomes[reason], r.sessions)})</td>`)
      .join('');
    return `<tr data-reason="${reason}"${unfinished ? ' class="unfinished"' : ''}><td>${reason}${unfinished ? ' (did not finish)' : ''}</td>${cells}</tr>`;
  });
  return `<table class="outcomes" data-table="outcomes"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>
<p class="note">Shares are of all sessions. Sessions that did not finish (a negotiator failed, or the run was stopped) are neither deals nor no-deals: every other number on this page stands on the finished ones.</p>`;
}
