// For researchers: two runs on the same listings, compared metric by metric (with 95% confidence
// intervals: exact ones and Fisher's test for shares, bootstrap ones for means), and an HTML report
// with charts. The "source" here is the population playing
// itself; with real data, load your sessions from JSONL (the same record format) as the reference.
// Run: npx tsx examples/compare-runs.ts [outDir]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { boulware, generateContexts, loadSessions, PopulationAgent, simulate } from 'haggle';
import { compare, formatComparison } from 'haggle/metrics';
import { writeReport } from 'haggle/report';

const outDir = process.argv[2] ?? 'runs/compare';
mkdirSync(outDir, { recursive: true });

const contexts = generateContexts({ count: 1000, seed: 11 });
const buyer = new PopulationAgent();
const arms = { source: new PopulationAgent(), model: boulware() };
for (const [name, seller] of Object.entries(arms)) {
  await simulate({
    buyer,
    seller,
    contexts,
    seed: 11,
    out: join(outDir, `${name}.jsonl`),
    overwrite: true,
  }).done();
}

const source = loadSessions(join(outDir, 'source.jsonl'));
const model = loadSessions(join(outDir, 'model.jsonl'));
const comparison = compare(model, source, { resamples: 1000, seed: 1 });
// The headline rows; the report shows all of them.
const headline = [
  'deal-rate',
  'session-length/mean',
  'price/first-offer',
  'price/final',
  'response-time/mean',
];
console.log(
  formatComparison({ ...comparison, rows: comparison.rows.filter((r) => headline.includes(r.id)) }),
);

const report = writeReport({
  run: join(outDir, 'model.jsonl'),
  reference: join(outDir, 'source.jsonl'),
  out: join(outDir, 'report.html'),
  runName: 'model (boulware seller)',
  referenceName: 'source (population seller)',
});
console.log(`report: ${report.out}`);
