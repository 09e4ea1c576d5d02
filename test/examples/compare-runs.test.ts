import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('compare-runs: two runs, a comparison table with intervals, and an HTML report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-example-compare-'));
  const out = await runExample('compare-runs.ts', dir);
  expect(out).toMatch(/^metric\s+source\s+model\s+delta\s+95% CI\s+Fisher p\s+verdict$/m);
  expect(out).toMatch(
    /^deal rate\s+\d+\.\d%\s+\d+\.\d%\s+[+−±]\d+\.\d pp\s+\[[+−±]\d+\.\d, [+−±]\d+\.\d\] pp\s+(< 0\.001|\d\.\d{3})\s+(inconsistent|consistent \(±2\.5 pp\)|too few to tell|cannot tell)$/m,
  );
  // A mean has no Fisher test.
  expect(out).toMatch(/^mean turns per session\s.*\s–\s+\S.*$/m);
  expect(out).toMatch(/^Shares: exact intervals/m);
  // The table (header, five rows), the method note, the M6/M7 note, a blank line and the report's path.
  expect(out.trim().split('\n')).toHaveLength(10);
  expect(out).toMatch(/^M6 and M7 are haggle's definitions/m);
  expect(out).toContain(`report: ${join(dir, 'report.html')}`);
  expect(existsSync(join(dir, 'model.jsonl'))).toBe(true);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  expect(html).toContain('<title>model (boulware seller) against source (population seller)</title>');
});
