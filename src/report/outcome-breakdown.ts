import { END_REASONS, type EndReason } from '../simulation/outcome.js';
import type { SessionResult } from '../simulation/session-result.js';
import { escapeHtml } from './html.js';

/** How many sessions of a run ended each way. */
export interface OutcomeRow {
  reason: EndReason;
  /** `deal`, `no deal`, or `failed` for sessions cut short by an error or an abort (not a result). */
  kind: 'deal' | 'no deal' | 'failed';
  sessions: number;
  /** Of all the run's sessions. */
  share: number;
}

const FAILED: readonly EndReason[] = ['error', 'aborted'];

/** Every ending present in the run, in `END_REASONS` order. */
export function outcomeBreakdown(sessions: readonly SessionResult[]): OutcomeRow[] {
  const counts = new Map<EndReason, number>();
  for (const session of sessions)
    counts.set(session.outcome.reason, (counts.get(session.outcome.reason) ?? 0) + 1);
  return END_REASONS.filter((reason) => counts.has(reason)).map((reason) => {
    const count = counts.get(reason) ?? 0;
    return {
      reason,
      kind: reason === 'accepted' ? 'deal' : FAILED.includes(reason) ? 'failed' : 'no deal',
      sessions: count,
      share: sessions.length === 0 ? 0 : count / sessions.length,
    };
  });
}

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/**
 * The breakdown as a table, one column pair per run, with a bar in each share cell (CSS width only:
 * the page has no script). Kept apart from the errors section, which lists error messages.
 */
export function renderOutcomeBreakdown(
  runs: readonly { name: string; rows: readonly OutcomeRow[] }[],
): string {
  const reasons = END_REASONS.filter((reason) =>
    runs.some((run) => run.rows.some((row) => row.reason === reason)),
  );
  const head = `<tr><th>ended because</th><th>kind</th>${runs.map((run) => `<th>${escapeHtml(run.name)}</th><th class="bar-cell">share</th>`).join('')}</tr>`;
  const body = reasons.map((reason) => {
    const kind = runs.flatMap((run) => run.rows.filter((row) => row.reason === reason))[0]?.kind ?? 'no deal';
    const cells = runs
      .map((run) => {
        const row = run.rows.find((r) => r.reason === reason);
        const share = row?.share ?? 0;
        return `<td data-run="${escapeHtml(run.name)}" data-sessions="${row?.sessions ?? 0}">${row?.sessions ?? 0}</td><td class="bar-cell"><span class="share-bar kind-${kind.replace(' ', '-')}" style="width:${(share * 100).toFixed(2)}%"></span><span class="share-text">${percent(share)}</span></td>`;
      })
      .join('');
    return `<tr data-reason="${reason}" class="kind-${kind.replace(' ', '-')}"><td>${reason}</td><td>${kind}</td>${cells}</tr>`;
  });
  return `<table class="outcomes" data-table="outcomes"><thead>${head}</thead><tbody>${body.join('')}</tbody></table>
<p class="note">Shares are of all the run's sessions. Sessions that failed (an error, an abort) are not negotiation results; they are counted here so none goes unseen.</p>`;
}
