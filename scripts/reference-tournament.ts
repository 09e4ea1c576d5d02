/**
 * The reference tournament of docs/evaluation.md: every multi-issue baseline against every other (each in
 * both roles) on the default suite's scenarios, printed as a Markdown table per baseline, with the
 * fixed curves' and the learning strategies' averages side by side.
 *   npx tsx scripts/reference-tournament.ts [--seeds-per-pair 12] [--scenarios 48] [--out FILE]
 * The default suite is 48 scenarios × 12 seeds (seed 0). Every built-in baseline is deterministic (it
 * ignores the seed), so each of the 12 seeds replays the same match and `--seeds-per-pair 1` gives the
 * same averages in a twelfth of the time; the docs' table is made that way (the script says which).
 */
import { parseArgs } from 'node:util';
import { generateSuite } from '../src/evaluation/suite.js';
import { runTournament } from '../src/evaluation/tournament.js';
import {
  MULTI_ISSUE_BASELINE_NAMES,
  MULTI_ISSUE_BASELINES,
} from '../src/multi-issue/multi-issue-baseline-registry.js';
import type { MultiIssueNegotiator } from '../src/multi-issue/multi-issue-turn.js';

const { values } = parseArgs({
  options: {
    'seeds-per-pair': { type: 'string', default: '12' },
    scenarios: { type: 'string', default: '48' },
    out: { type: 'string' },
  },
});
const seedsPerPair = Number(values['seeds-per-pair']);
const scenarios = Number(values.scenarios);
const names: string[] = [...MULTI_ISSUE_BASELINE_NAMES];
const build = (): Record<string, MultiIssueNegotiator> =>
  Object.fromEntries(MULTI_ISSUE_BASELINE_NAMES.map((name) => [name, MULTI_ISSUE_BASELINES[name]()]));
const suite = generateSuite({ seed: 0, scenarios, seedsPerPair, opponents: names });
const results = await runTournament({
  suite,
  arms: build(),
  opponents: build(),
  armRoles: ['seller', 'buyer'],
  concurrency: 1,
  ...(values.out ? { out: values.out, overwrite: true } : {}),
}).done();

const FIXED = ['utility-boulware', 'utility-linear', 'utility-conceder', 'utility-tit-for-tat'];
interface Row {
  matches: number;
  deals: number;
  arm: number;
  joint: number;
  pareto: number;
  nash: number;
}
const empty = (): Row => ({ matches: 0, deals: 0, arm: 0, joint: 0, pareto: 0, nash: 0 });
const add = (row: Row, m: (typeof results.matches)[number]) => {
  row.matches++;
  row.arm += m.metrics.armUtility;
  row.joint += m.metrics.armUtility + m.metrics.opponentUtility;
  if (m.metrics.deal) {
    row.deals++;
    row.pareto += m.metrics.distanceToPareto ?? 0;
    row.nash += m.metrics.distanceToNash ?? 0;
  }
};
const f = (x: number) => x.toFixed(3);
const line = (label: string, row: Row) =>
  `| ${label} | ${row.matches} | ${f(row.deals / row.matches)} | ${f(row.arm / row.matches)} | ${f(row.joint / row.matches)} | ${row.deals ? f(row.pareto / row.deals) : '-'} | ${row.deals ? f(row.nash / row.deals) : '-'} |`;

const all = new Map(names.map((n) => [n, empty()]));
const vsFixed = new Map(names.map((n) => [n, empty()]));
for (const m of results.matches) {
  add(all.get(m.arm) as Row, m);
  if (FIXED.includes(m.opponent)) add(vsFixed.get(m.arm) as Row, m);
}
const header =
  '| arm | matches | deal rate | own utility | joint utility | distance to Pareto (deals) | distance to Nash (deals) |\n|---|---:|---:|---:|---:|---:|---:|';
console.log(
  `Suite ${suite.name} (id ${suite.id}), ${results.matches.length} matches, both roles, errors ${results.errors}.\n`,
);
console.log(`Against every baseline:\n\n${header}`);
for (const name of names) console.log(line(name, all.get(name) as Row));
console.log(`\nAgainst the fixed curves only (${FIXED.join(', ')}):\n\n${header}`);
for (const name of names) console.log(line(name, vsFixed.get(name) as Row));
console.log('\nDeal rate of each arm (row) against each opponent (column), both roles:\n');
console.log(`| arm \\ opponent | ${names.join(' | ')} |\n|---|${names.map(() => '---:').join('|')}|`);
for (const arm of names) {
  const cells = names.map((opponent) => {
    const ms = results.matches.filter((m) => m.arm === arm && m.opponent === opponent);
    return f(ms.filter((m) => m.metrics.deal).length / ms.length);
  });
  console.log(`| ${arm} | ${cells.join(' | ')} |`);
}
