import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_FACTS, type CardFact } from '../../src/contract/model-card.js';
import { MODEL_PROFILES } from '../../src/contract/model-profile.js';
import { curlyQuotes, profileProblems, unverifiedQuotes } from './card-quote-check.js';

// The card's text is not in the repository (it has no licence line), so its quotes are checked against
// haggle's card-facts table here, and the table against the card by scripts/check-card-quotes.ts.

const root = new URL('../..', import.meta.url).pathname;
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(root, file), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("the card's words", () => {
  it('every number of the table is written in its own quote', () => {
    for (const fact of CARD_FACTS) if (fact.number) expect(fact.quote).toContain(fact.number.written);
    expect(new Set(CARD_FACTS.map((f) => f.id)).size).toBe(CARD_FACTS.length);
  });

  it('every “…” quote in the docs is verbatim from the card table', () => {
    const found = docs.flatMap((file) => curlyQuotes(read(file)).map((q) => ({ file, q })));
    expect(found.length).toBeGreaterThan(5);
    const bad = docs.flatMap((file) =>
      unverifiedQuotes(curlyQuotes(read(file)), CARD_FACTS).map((q) => `${file}: “${q}”`),
    );
    expect(bad).toEqual([]);
  });

  it('fails when a quote in the docs is altered', () => {
    const metrics = read('docs/metrics.md');
    expect(metrics).toContain('“14k message-only sessions”');
    expect(metrics).toContain('“\\| Deal rate (sim) \\| 38.2% \\| 45.2% \\|”');
    const altered = metrics
      .replace('“14k message-only sessions”', '“14k message sessions”')
      .replace(
        '“\\| Deal rate (sim) \\| 38.2% \\| 45.2% \\|”',
        '“\\| Deal rate on msg sessions \\| 38.2% \\| 45.2% \\|”',
      );
    expect(unverifiedQuotes(curlyQuotes(altered), CARD_FACTS)).toEqual([
      '| Deal rate on msg sessions | 38.2% | 45.2% |',
      '14k message sessions',
    ]);
    // Code blocks are output, not quotes.
    expect(curlyQuotes('```text\n  “Does it come with everything?”\n```\n')).toEqual([]);
  });

  it('the built-in profiles mark as known only what the card states about that model, in its words', () => {
    for (const profile of Object.values(MODEL_PROFILES))
      expect(profileProblems(profile, CARD_FACTS)).toEqual([]);
    const ep4 = MODEL_PROFILES['qwen3-4b-negotiation-msg-sessions-ep4'];
    // The card gives the template and temperature 1.0 for the 50k model only.
    for (const subject of ['template', 'sampling'])
      expect(ep4.facts.find((f) => f.subject === subject)?.provenance).toBe('assumed');
  });

  it('fails when a profile quote is altered or is about the other model', () => {
    const altered: CardFact[] = CARD_FACTS.map((f) =>
      f.id === 'template' ? { ...f, quote: f.quote.replace('qwen3_nothink', 'qwen3') } : f,
    );
    expect(profileProblems(MODEL_PROFILES['qwen3-4b-negotiation-50k-ep3'], altered)).toEqual([
      'qwen3-4b-negotiation-50k-ep3 template: "| Template | qwen3_nothink (no thinking tokens in loss) |" is not in the card table',
    ]);
    const ep4 = MODEL_PROFILES['qwen3-4b-negotiation-msg-sessions-ep4'];
    const template = MODEL_PROFILES['qwen3-4b-negotiation-50k-ep3'].facts.find(
      (f) => f.subject === 'template',
    );
    const claimed = { ...ep4, facts: [...ep4.facts, { ...(template as (typeof ep4.facts)[number]) }] };
    expect(profileProblems(claimed, CARD_FACTS)).toEqual([
      'qwen3-4b-negotiation-msg-sessions-ep4 template: the card states "| Template | qwen3_nothink (no thinking tokens in loss) |" about qwen3-4b-negotiation-50k-ep3',
    ]);
  });

  it('no doc or source calls a number of the card a rate "on message sessions"', () => {
    // The card's 45.2% is a "Deal rate (sim)"; the card measures nothing "on message sessions".
    const hits = [...docs, ...sourceFiles('src')].flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (/on (message|msg) sessions/i.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
