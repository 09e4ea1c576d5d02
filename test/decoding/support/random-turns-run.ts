// The long version of the random-logits property, run by hand (not in CI):
//   npx tsx test/decoding/support/random-turns-run.ts <turns> <temperature> <seed>
// Prints a JSON line per 500 turns and a final one; exits 1 on any invalid turn.
import { qwen3 } from './qwen3.js';
import { runRandomTurns, turnVariants } from './random-turns.js';

const [turns = 10_000, temperature = 1, seed = 1] = process.argv.slice(2).map(Number);
const q = await qwen3();
const variants = turnVariants(q);
const started = performance.now();
const total = { turns: 0, failures: 0, tokens: 0, forwardPasses: 0, finishedByBudget: 0 };
for (let chunk = 0; total.turns < turns; chunk++) {
  const r = await runRandomTurns(q, variants, {
    turns: Math.min(500, turns - total.turns),
    temperature,
    seed: seed * 10_000 + chunk,
  });
  total.turns += r.turns;
  total.failures += r.failures.length;
  total.tokens += r.tokens;
  total.forwardPasses += r.forwardPasses;
  total.finishedByBudget += r.finishedByBudget;
  for (const failure of r.failures) console.log(JSON.stringify({ failure }));
  console.log(
    JSON.stringify({ temperature, ...total, seconds: Math.round((performance.now() - started) / 1000) }),
  );
}
process.exitCode = total.failures === 0 ? 0 : 1;
