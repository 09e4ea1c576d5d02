import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_FACTS, type CardFact } from '../../src/contract/model-card.js';
import { MODEL_PROFILES } from '../../src/contract/model-profile.js';
import {
  cardStraightQuotes,
  curlyQuotes,
  profileProblems,
  sourceComments,
  unverifiedQuotes,
} from './card-quote-check.js';

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

/** Every place that may quote the card: the docs, the CHANGELOG, and the comments of src. */
function quotingTexts(): { file: string; text: string }[] {
  return [
    ...[...docs, 'CHANGELOG.md'].map((file) => ({ file, text: read(file) })),
    ...sourceFiles('src').map((file) => ({ file, text: sourceComments(read(file)) })),
  ];
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

  it('every quote of the card in the CHANGELOG and in src comments, curly or straight, is verbatim', () => {
    const texts = quotingTexts();
    const straight = texts.flatMap(({ file, text }) => cardStraightQuotes(text).map((q) => ({ file, q })));
    expect(straight.length).toBeGreaterThan(3);
    const bad = texts.flatMap(({ file, text }) =>
      unverifiedQuotes([...curlyQuotes(text), ...cardStraightQuotes(text)], CARD_FACTS).map(
        (q) => `${file}: "${q}"`,
      ),
    );
    expect(bad).toEqual([]);
  });

  it('fails when a straight quote attributed to the card is not its words', () => {
    const comment = sourceComments(
      '/**\n * The card reports session length only as "calibrated"; the card\'s "deal rate on message sessions" is not.\n */\nconst x = "card \\"ignored\\"";',
    );
    expect(cardStraightQuotes(comment)).toEqual(['calibrated', 'deal rate on message sessions']);
    expect(unverifiedQuotes(cardStraightQuotes(comment), CARD_FACTS)).toEqual([
      'deal rate on message sessions',
    ]);
    // Inline code and code blocks are not prose.
    expect(cardStraightQuotes('the card `"x"` and\n```\ncard "y"\n```\n')).toEqual([]);
  });

  it('holds every card statement haggle uses, the caveats included, rated as the card rates them', () => {
    const ids = CARD_FACTS.map((f) => f.id);
    for (const id of [
      'session-length',
      'training-population-deal-rate',
      'deal-rate-limitation',
      'lora-alpha',
      'target-modules',
      'label-metrics-unreliable',
      'label-calibration',
      'label-calibration-limitation',
    ])
      expect(ids).toContain(id);
    expect(CARD_FACTS.find((f) => f.id === 'session-length')?.number).toBeUndefined();
    expect(CARD_FACTS.find((f) => f.id === 'label-metrics-unreliable')?.quote).toContain(
      'metrics are unreliable for this model.',
    );
    // The 50k profile carries the card's caveat and its weak calibration; haggle's M6/M7 are its own.
    const facts = MODEL_PROFILES['qwen3-4b-negotiation-50k-ep3'].facts;
    expect(facts.find((f) => f.subject === 'label metrics')?.quote).toContain('unreliable');
    expect(facts.find((f) => f.subject === 'label calibration')?.statement).toContain('weak');
    expect(facts.find((f) => f.subject === 'label list')?.provenance).toBe('assumed');
    expect(read('docs/metrics.md')).toMatch(/unreliable for this model/);
    expect(read('docs/metrics.md')).toMatch(/haggle's definitions/);
  });

  it('no doc, CHANGELOG entry or source calls a number of the card a rate "on message sessions"', () => {
    // The card's 45.2% is a "Deal rate (sim)"; the card measures nothing "on message sessions".
    const hits = [...docs, 'CHANGELOG.md', ...sourceFiles('src')].flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (/on (message|msg) sessions/i.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
