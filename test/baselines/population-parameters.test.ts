import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BACKUS_2020,
  DEFAULT_POPULATION_PARAMETERS,
  EBAY_BEST_OFFER_DOCS,
  MODEL_CARD,
  POPULATION_FACTS,
  POPULATION_PARAMETER_TABLE,
} from '../../src/baselines/population-parameters.js';

const CITATIONS = [BACKUS_2020, EBAY_BEST_OFFER_DOCS, MODEL_CARD];

describe('POPULATION_PARAMETER_TABLE', () => {
  const rows = Object.entries(POPULATION_PARAMETER_TABLE);

  it('gives every parameter a value within its range, a source and a reason', () => {
    expect(rows.length).toBeGreaterThan(20);
    for (const [name, row] of rows) {
      expect(row.value, name).toBeGreaterThanOrEqual(row.min);
      expect(row.value, name).toBeLessThanOrEqual(row.max);
      expect(row.source === 'assumed' || CITATIONS.includes(row.source), name).toBe(true);
      expect(row.why.length, name).toBeGreaterThan(10);
      expect(DEFAULT_POPULATION_PARAMETERS[name as keyof typeof DEFAULT_POPULATION_PARAMETERS]).toBe(
        row.value,
      );
    }
  });

  it('marks every tuned value as assumed', () => {
    for (const [name, row] of rows) if (/tuned/.test(row.why)) expect(row.source, name).toBe('assumed');
  });

  it('keeps the first-offer mixture a distribution', () => {
    const p = DEFAULT_POPULATION_PARAMETERS;
    const clusters = p.firstOfferHalfWeight + p.firstOfferTwoThirdsWeight + p.firstOfferThreeQuartersWeight;
    expect(clusters).toBeGreaterThan(0.3);
    expect(clusters).toBeLessThan(1);
    expect([p.firstOfferHalfRatio, p.firstOfferTwoThirdsRatio, p.firstOfferThreeQuartersRatio]).toEqual([
      0.5,
      2 / 3,
      0.75,
    ]);
  });

  it('cites only known sources for the marketplace facts', () => {
    for (const fact of POPULATION_FACTS) expect(CITATIONS).toContain(fact.source);
  });

  it('is rendered in docs/baseline-agents.md with the same values', () => {
    const doc = readFileSync(new URL('../../docs/baseline-agents.md', import.meta.url), 'utf8');
    // Table rows as trimmed cells, whatever padding a formatter gave them.
    const tableRows = doc
      .split('\n')
      .filter((line) => line.trimStart().startsWith('|'))
      .map((line) =>
        line
          .trim()
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((cell) => cell.trim()),
      );
    for (const [name, row] of rows) {
      const cells = tableRows.find((r) => r[0] === `\`${name}\``);
      expect(cells, `docs row for ${name}`).toBeDefined();
      expect(cells?.[1], name).toBe(formatValue(row.value));
      expect(cells?.[2], name).toBe(`${formatValue(row.min)}–${formatValue(row.max)}`);
      expect(cells?.[3], name).toBe(row.source);
    }
  });
});

/** How the docs print a value: up to four decimals, no trailing zeros. */
function formatValue(value: number): string {
  return String(Math.round(value * 10_000) / 10_000);
}
