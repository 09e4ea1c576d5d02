// Counts, in run files of the fixture model (bench/turn-bounds-ab.ts's, or any `haggle simulate --out`),
// the turns that break a bound or a rule, judged apart from the Session's own verdict: every turn
// replayed against the legal moves at its point (action, price interval, time bound: what is left of the
// listing or of a standing offer), labels over 48 characters, messages over 500, response times over
// 30 days, illegal-turn endings and errors (test/helpers/legal-run-checks.ts).
//   npx tsx bench/turn-bounds-check.ts RUN.jsonl [RUN.jsonl ...]
import { BestOfferRules } from '../src/rules/best-offer-rules.js';
import { loadSessions } from '../src/simulation/run-file.js';
import { legalityProblems } from '../test/helpers/legal-run-checks.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npx tsx bench/turn-bounds-check.ts RUN.jsonl [RUN.jsonl ...]');
  process.exit(2);
}
const sessions = files.flatMap((file) => loadSessions(file));
const problems = legalityProblems(sessions, new BestOfferRules());
const turns = sessions.reduce((sum, s) => sum + s.turns.length, 0);
const illegal = sessions.reduce((sum, s) => sum + s.turns.filter((t) => t.violation).length, 0);
console.log(
  `${files.length} files, ${sessions.length} sessions, ${turns} turns: ${illegal} illegal turns, ${problems.length} problems`,
);
for (const problem of problems) console.log(`  ${problem}`);
process.exit(problems.length === 0 && illegal === 0 ? 0 : 1);
