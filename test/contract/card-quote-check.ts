import type { CardFact } from '../../src/contract/model-card.js';
import type { ModelProfile } from '../../src/contract/model-profile.js';

/**
 * The docs' convention for the card's words: a phrase in curly double quotes (“…”) in the prose of
 * README.md and docs/*.md is a quotation of the model card, and must be verbatim from the card-facts
 * table (src/contract/model-card.ts). Fenced code blocks are left out (they show program output, such
 * as a transcript's messages).
 */
export function curlyQuotes(markdown: string): string[] {
  const prose = markdown.replace(/^( {0,3})(`{3,})[^\n]*\n[\s\S]*?^\1?\2\s*$/gm, '');
  // A quote inside a Markdown table escapes the card's pipes (\|); a quote may wrap across lines.
  return [...prose.matchAll(/“([^”]+)”/g)].map((m) =>
    (m[1] as string).replace(/\\\|/g, '|').replace(/\s*\n\s*/g, ' '),
  );
}

/** The comments of a TypeScript source, as prose (block comments' leading `*` and `//` taken off). */
export function sourceComments(source: string): string {
  return (source.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [])
    .map((comment) =>
      comment
        .replace(/^\/\*+|\*+\/$/g, '')
        .replace(/^\s*\* ?/gm, '')
        .replace(/^\/\/ ?/, ''),
    )
    .join('\n');
}

/**
 * Phrases in straight double quotes ("…") that prose attributes to the card: a quote that follows the
 * word "card" (the card, the card's, a card's row) in the same sentence, within 80 characters. Code
 * blocks and inline code are left out. haggle's docs write the card's words in curly quotes; this
 * catches the places (src comments, the CHANGELOG, older docs) that quote it straight.
 */
export function cardStraightQuotes(text: string): string[] {
  const prose = text
    .replace(/^( {0,12})(`{3,})[^\n]*\n[\s\S]*?^\s*\2\s*$/gm, '')
    .replace(/`[^`\n]*`/g, '``')
    .replace(/\s+/g, ' ');
  return [...prose.matchAll(/\bcard(?:'s|’s)?\b([^.;:"]{0,80}?)"([^"]{1,300})"/gi)].map((m) =>
    (m[2] as string).replace(/\\\|/g, '|'),
  );
}

/** Every words of the table: each fact's quote and its sample's. */
function tableQuotes(facts: readonly CardFact[]): string[] {
  return facts.flatMap((f) => [f.quote, ...(f.sample ? [f.sample.quote] : [])]);
}

/** The quoted phrases that are no part of any quote of the table. */
export function unverifiedQuotes(phrases: readonly string[], facts: readonly CardFact[]): string[] {
  const quotes = tableQuotes(facts);
  // “…” alone is the convention's own example (docs/testing.md, docs/metrics.md), not a quote.
  return phrases.filter((phrase) => phrase !== '…' && !quotes.some((quote) => quote.includes(phrase)));
}

const PERCENT = /\d+(?:\.\d+)?%/g;

/**
 * What is wrong with a built-in profile's claims to the card: a `known` fact without the card's words,
 * with words the table does not hold, or about another model; a percentage in its description or
 * statements that none of its known facts' quotes contains.
 */
export function profileProblems(profile: ModelProfile, facts: readonly CardFact[]): string[] {
  const problems: string[] = [];
  const known = profile.facts.filter((f) => f.provenance === 'known');
  for (const fact of known) {
    // One row of the card can hold facts about several subjects (the Deal rate row: population and model).
    const sources = facts.filter((f) => f.quote === fact.quote);
    const about = sources.flatMap((f) => f.about as readonly string[]);
    if (!fact.quote) problems.push(`${profile.id} ${fact.subject}: known without the card's words`);
    else if (sources.length === 0)
      problems.push(`${profile.id} ${fact.subject}: "${fact.quote}" is not in the card table`);
    else if (!about.includes(profile.id))
      problems.push(
        `${profile.id} ${fact.subject}: the card states "${fact.quote}" about ${about.join(', ')}`,
      );
  }
  const quotes = known.map((f) => f.quote ?? '').join('\n');
  const texts = [profile.description, ...profile.facts.map((f) => f.statement)];
  for (const text of texts)
    for (const number of text.match(PERCENT) ?? [])
      if (!quotes.includes(number))
        problems.push(`${profile.id}: ${number} in "${text}" is in none of its quotes`);
  return problems;
}
