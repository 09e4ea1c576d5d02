import type { ErrorMessageCount } from '../simulation/failures.js';
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
