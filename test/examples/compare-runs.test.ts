import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('compare-runs: two runs, a comparison table with intervals, and an HTML report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-example-compare-'));
  const out = await runExample('compare-runs.ts', dir);
  expect(out).toMatch(/^metric\s+source\s+model\s+delta\s+95% CI\s+Fisher p$/m);
  expect(out).toMatch(
    /^deal rate\s+\d+\.\d%\s+\d+\.\d%\s+[+−±]\d+\.\d pp\s+\[[+−±]\d+\.\d, [+−±]\d+\.\d\] pp\s+(< 0\.001|\d\.\d{3})$/m,
  );
  // A mean has no Fisher test.
  expect(out).toMatch(/^mean turns per session\s.*\s–$/m);
  expect(out).toMatch(/^Shares: exact intervals/m);
  expect(out.trim().split('\n')).toHaveLength(9);
  expect(out).toContain(`report: ${join(dir, 'report.html')}`);
  expect(existsSync(join(dir, 'model.jsonl'))).toBe(true);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  expect(html).toContain('<title>model (boulware seller) against source (population seller)</title>');
});
