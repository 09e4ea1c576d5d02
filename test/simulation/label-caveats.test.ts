import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compare, formatComparison } from '../../src/entries/metrics.js';
import { CARD_FACTS, loadSessions } from '../../src/index.js';
import { buildReportData, renderReport } from '../../src/report/index.js';
import { labelMetricCaveats } from '../../src/simulation/metrics/label-caveats.js';
import { writeCountedRun } from '../helpers/counted-run.js';

function run(profile?: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'haggle-label-caveats-')), 'run.jsonl');
  writeCountedRun(file, { sessions: 40, deals: 15, messages: 12, ...(profile ? { profile } : {}) });
  return loadSessions(file);
}

describe("haggle's M6 and M7 beside the card's caveat", () => {
  const caveat = CARD_FACTS.find((f) => f.id === 'label-metrics-unreliable')?.quote ?? '';

  it("a run of the 50k model: compare's table and the report carry the card's words verbatim", () => {
    const model = run('qwen3-4b-negotiation-50k-ep3');
    const comparison = compare(model, run(), { resamples: 50 });
    expect(comparison.rows.some((row) => row.family === 'label')).toBe(true);
    const [definitions, card] = comparison.labelCaveats;
    expect(definitions).toMatch(/^M6 and M7 are haggle's definitions/);
    expect(card).toContain(
      '“Label-conditioned deal propensity and opponent concession metrics are unreliable for this model.”',
    );
    expect(card).toContain('“weak (~1,500 msg sessions)”');
    // Every curly quote of the caveat is in the card's facts table.
    for (const quoted of (card ?? '').matchAll(/“([^”]+)”/g))
      expect(CARD_FACTS.some((f) => f.quote.includes(quoted[1] as string))).toBe(true);
    expect(caveat).toContain('unreliable for this model');
    const text = formatComparison(comparison);
    expect(text).toContain('unreliable for this model');
    expect(text).toContain("haggle's definitions");

    const html = renderReport(
      buildReportData({
        run: { name: 'model', sessions: model },
        transcripts: 0,
        bootstrap: { resamples: 50 },
      }),
    );
    expect(html).toContain('unreliable for this model');
    expect(html).toContain('M6 (haggle&#39;s definition)');
  });

  it('a run of other negotiators: M6 and M7 are still named as haggle’s, without the 50k caveat', () => {
    const comparison = compare(run(), run(), { resamples: 50 });
    expect(comparison.labelCaveats).toHaveLength(1);
    expect(comparison.labelCaveats[0]).toMatch(/haggle's definitions/);
    expect(labelMetricCaveats(['qwen3-4b-negotiation-msg-sessions-ep4'])).toHaveLength(1);
    expect(labelMetricCaveats(['qwen3-4b-negotiation-50k-ep3'])).toHaveLength(2);
  });
});
