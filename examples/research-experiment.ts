// For researchers: the same buyers against three sellers, 1,000 seeded sessions each, written to JSONL.
// Run: npx tsx examples/research-experiment.ts [outDir]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { boulware, conceder, generateContexts, type Negotiator, PopulationAgent, simulate } from 'haggle';

const outDir = process.argv[2] ?? 'runs/example';
mkdirSync(outDir, { recursive: true });

// One list of contexts for every arm: differences come from the sellers, not the listings.
const contexts = generateContexts({ count: 1000, seed: 7 });
const buyer = new PopulationAgent();
const sellers: Record<string, Negotiator> = {
  population: new PopulationAgent(),
  boulware: boulware(),
  conceder: conceder(),
};

console.log('seller      sessions  deal rate  mean turns  final/list p50');
for (const [name, seller] of Object.entries(sellers)) {
  const run = simulate({
    buyer,
    seller,
    contexts,
    seed: 7,
    concurrency: 16,
    out: join(outDir, `${name}.jsonl`),
    overwrite: true,
  });
  const s = await run.done();
  const p50 = s.finalPriceRatio.p50 === null ? '–' : `${(s.finalPriceRatio.p50 * 100).toFixed(1)}%`;
  // Rates stand on the sessions that finished; both are null when every session failed.
  const dealRate = s.dealRate === null ? '–' : `${(s.dealRate * 100).toFixed(1)}%`;
  const meanTurns = s.meanTurns === null ? '–' : s.meanTurns.toFixed(2);
  console.log(
    `${name.padEnd(10)}  ${String(s.sessions).padStart(8)}  ${dealRate.padStart(9)}  ${meanTurns.padStart(10)}  ${p50.padStart(14)}`,
  );
}
