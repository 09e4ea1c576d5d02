import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { loadSessions, type SessionResult } from '../../src/index.js';
import { buildReportData, renderReport } from '../../src/report/index.js';
import { captureIo } from '../helpers/capture-io.js';
import { failedCopy } from '../helpers/failed-session.js';

const FIXTURE = new URL('../simulation/fixtures/small-real-sessions.jsonl', import.meta.url).pathname;
const finished = loadSessions(FIXTURE);
const REFUSED = { name: 'RemoteConnectionError', message: 'connect ECONNREFUSED 127.0.0.1:9' };
const TIMEOUT = { name: 'TimeoutError', message: 'request <timed out> after 60000 ms' };
const failed = [
  failedCopy(finished[0] as SessionResult, 'error', REFUSED, 2),
  failedCopy(finished[1] as SessionResult, 'error', REFUSED, 0),
  failedCopy(finished[2] as SessionResult, 'error', TIMEOUT, 1),
];
const render = (sessions: SessionResult[], reference?: SessionResult[]) =>
  renderReport(
    buildReportData({
      run: { name: 'llm', sessions },
      ...(reference ? { reference: { name: 'source', sessions: reference } } : {}),
      bootstrap: { resamples: 50 },
    }),
  );
const card = (html: string, role: string) =>
  html.match(new RegExp(`<section class="card" data-run-role="${role}">[\\s\\S]*?</section>`))?.[0] ?? '';

describe('the report: outcomes and failures', () => {
  it('a run with failures: the deal rate stands on finished sessions, each error is listed with its count', () => {
    const html = render([...finished, ...failed]);
    // 3 deals of 4 finished; the 3 failures are no-deals nowhere.
    expect(card(html, 'run')).toMatch(
      /data-field="sessions">7<\/span> sessions · <span class="big" data-field="deal-rate">75\.0%<\/span> deals of 4 finished/,
    );
    expect(card(html, 'run')).toContain('data-field="failed">3</span> failed');
    expect(html).toMatch(/<tr data-metric="deal-rate" data-run="0.75">/);
    expect(html).toContain('<h2 id="outcomes">Outcomes and failures</h2>');
    expect(html).toMatch(
      /<tr data-reason="error" class="kind-failed"><td>error<\/td><td>failed<\/td><td data-run="[^"]*" data-sessions="3">3<\/td>/,
    );
    expect(html).toMatch(
      /<tr data-reason="accepted" class="kind-deal"><td>accepted<\/td><td>deal<\/td><td data-run="[^"]*" data-sessions="3">3<\/td>/,
    );
    expect(html).toContain('3 of 7 sessions failed (42.9%). They are left out of every rate and chart');
    const errors = [
      ...html.matchAll(/<tr data-error-count="(\d+)"><td class="error-message">([^<]*)<\/td>/g),
    ].map((m) => [m[2], Number(m[1])]);
    // Sorted by count; the message escaped.
    expect(errors).toEqual([
      ['RemoteConnectionError: connect ECONNREFUSED 127.0.0.1:9', 2],
      ['TimeoutError: request &lt;timed out&gt; after 60000 ms', 1],
    ]);
  });

  it('an all-failed run shows no deal rate anywhere, and says there is no result', () => {
    const html = render(failed, finished);
    expect(card(html, 'run')).toContain(
      '<span class="big" data-field="deal-rate">—</span> deals: all 3 sessions failed',
    );
    expect(card(html, 'run')).not.toMatch(/\d%/);
    expect(html).toContain(
      'llm: all 3 sessions failed: there is no result, and no rate on this page stands for one.',
    );
    expect(html).toContain('source: all 4 sessions finished; none failed.');
    // The comparison row has the reference's value and no run value, not 0%.
    expect(html).toMatch(/<tr data-metric="deal-rate" data-reference="0.75" data-run="" data-delta="">/);
  });

  it('haggle report on a run file with failures writes the section', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-report-failures-'));
    const run = join(dir, 'run.jsonl');
    const lines = [...finished, ...failed].map((s, index) =>
      JSON.stringify({ type: 'session', index, ...s }),
    );
    writeFileSync(run, `${lines.join('\n')}\n`);
    const io = captureIo();
    expect(await runCli(['report', run, '--resamples', '50'], io)).toBe(0);
    const html = readFileSync(join(dir, 'run.html'), 'utf8');
    expect(html).toContain('3 of 7 sessions failed (42.9%)');
    expect(html).toContain('data-failures="3"');
  });
});
