/**
 * Checks every quote of haggle's card-facts table (src/contract/model-card.ts) against a copy of the
 * model card's text: `npx tsx scripts/check-card-quotes.ts CARD.txt`. The card carries no licence
 * line, so its text is not in this repository and CI cannot run this; whoever edits the table runs it
 * with the card at hand. Exits 1 naming each quote that is not verbatim in the card, 2 on bad usage.
 */
import { readFileSync } from 'node:fs';
import { CARD_FACTS } from '../src/contract/model-card.js';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: npx tsx scripts/check-card-quotes.ts CARD.txt (the model card as text)\n');
  process.exit(2);
}
const card = readFileSync(path, 'utf8');
const missing: string[] = [];
for (const fact of CARD_FACTS) {
  const parts = [fact.quote, fact.sample?.quote].filter((q): q is string => q !== undefined);
  for (const quote of parts) if (!card.includes(quote)) missing.push(`${fact.id}: ${quote}`);
  if (fact.number && !fact.quote.includes(fact.number.written))
    missing.push(`${fact.id}: "${fact.number.written}" is not in its own quote`);
}
if (missing.length > 0) {
  process.stderr.write(`not verbatim in ${path}:\n${missing.map((m) => `  ${m}\n`).join('')}`);
  process.exit(1);
}
process.stdout.write(`all ${CARD_FACTS.length} facts quote ${path} verbatim\n`);
