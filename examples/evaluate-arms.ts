// For researchers: two seller arms on the same 1,152 multi-issue negotiations, with a paired test.
// Run: npx tsx examples/evaluate-arms.ts
import {
  compareArms,
  generateSuite,
  grpoGroups,
  runTournament,
  UtilityTitForTatNegotiator,
  utilityBoulware,
  utilityConceder,
  utilityLinear,
} from 'haggle/evaluation';

// 48 scenarios x 2 opponents x 12 seeds (haggle's default shape); the id names this exact suite in a
// paper. The opponents carry the CLI's names, so `haggle suite --seed 2026` writes this very suite.
const suite = generateSuite({ seed: 2026, opponents: ['utility-conceder', 'utility-tit-for-tat'] });
console.log(`suite ${suite.id.slice(0, 16)}…: ${suite.scenarios.length} scenarios`);

const results = await runTournament({
  suite,
  arms: { boulware: utilityBoulware(), linear: utilityLinear() },
  opponents: {
    'utility-conceder': utilityConceder(),
    'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
  },
  concurrency: 16,
}).done();

for (const s of results.scores.filter((score) => score.opponent === '*')) {
  const u = s.armUtility;
  console.log(
    `${s.arm.padEnd(9)} matches ${s.matches}  deal rate ${(s.dealRate.mean * 100).toFixed(1)}%  utility ${u.mean.toFixed(3)} [${u.low.toFixed(3)}, ${u.high.toFixed(3)}]`,
  );
}
console.log(compareArms(results, 'boulware', 'linear').verdict);

// GRPO-ready groups: the rollouts of one setting across seeds, each with the programmatic reward.
const groups = grpoGroups(suite, results.matches);
console.log(`${groups.length} GRPO groups of ${groups[0]?.rollouts.length} rollouts`);
