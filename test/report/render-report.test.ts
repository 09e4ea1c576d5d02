import { describe, expect, it } from 'vitest';
import { loadSessions, type SessionResult } from '../../src/index.js';
import { buildReportData, escapeHtml, renderBarChart, renderReport } from '../../src/report/index.js';

const FIXTURE = new URL('../simulation/fixtures/small-real-sessions.jsonl', import.meta.url).pathname;

function hostile(sessions: SessionResult[]): SessionResult[] {
  return sessions.map((s, i) =>
    i === 0
      ? {
          ...s,
          context: {
            ...s.context,
            item: { ...s.context.item, category: '</table><script>alert(1)</script>' },
          },
          negotiators: { ...s.negotiators, buyer: { kind: '"><iframe src="https://evil.example">' } },
        }
      : s,
  );
}

describe('renderReport', () => {
  const sessions = hostile(loadSessions(FIXTURE));
  const html = renderReport(
    buildReportData({ run: { name: 'real <sessions>', sessions }, bootstrap: { resamples: 50 } }),
  );

  it('escapes every untrusted string and holds no script, no external resource', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).toContain('&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('real &lt;sessions&gt;');
    // Nothing is fetched at view time: no src or href attribute at all, and a policy that forbids it.
    expect(html).not.toMatch(/<[^>]*\s(src|href)=/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it('without a reference, lists each metric of the run with its interval', () => {
    expect(html).toContain('data-table="metrics"');
    expect(html).toMatch(/<tr data-metric="deal-rate" data-run="0.75">/);
    // The fixture's two deals at 75-80% of list and one at 90-95%.
    const bars = [...html.matchAll(/data-chart="price-ratio"[\s\S]*?<\/figure>/g)][0]?.[0] ?? '';
    const values = [...bars.matchAll(/data-category="([^"]+)" data-value="([^"]+)"/g)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(values.filter(([, v]) => (v as number) > 0)).toEqual([
      ['75–80%', 2 / 3],
      ['90–95%', 1 / 3],
    ]);
  });

  it('with a reference, shows the comparison columns and both runs in every chart', () => {
    const withReference = renderReport(
      buildReportData({
        run: { name: 'model', sessions },
        reference: { name: 'source', sessions: sessions.slice(0, 2) },
        bootstrap: { resamples: 50 },
      }),
    );
    expect(withReference).toContain('<th>source</th><th>model</th><th>delta</th>');
    expect(withReference).toMatch(
      /data-metric="deal-rate" data-reference="0.5" data-run="0.75" data-delta="0.25"/,
    );
    expect(withReference).toMatch(/data-chart="deal-rate-by-tier"[\s\S]*data-series="reference"/);
  });

  it('draws bars to scale and skips missing values', () => {
    const svg = renderBarChart({
      id: 't',
      title: 'T',
      categories: ['a', 'b', 'c'],
      series: [{ key: 'run', name: 'run', color: '#000', values: [0.5, null, 1] }],
      format: String,
    });
    const heights = [...svg.matchAll(/data-value="([^"]*)"[^>]*height="([\d.]+)"/g)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(heights).toHaveLength(2);
    const [[, half], [, full]] = heights as [[string, number], [string, number]];
    expect(half / full).toBeCloseTo(0.5, 2);
    expect(escapeHtml(`<a href='x'>&"`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&quot;');
  });
});
