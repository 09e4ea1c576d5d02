import { describe, expect, it } from 'vitest';
import { issuesFromZod } from '../../src/contract/errors.js';
import { HistorySchema } from '../../src/index.js';
import { bare, offer } from '../helpers/fixtures.js';

describe('HistorySchema', () => {
  it('accepts entries in time order', () => {
    const history = [
      { role: 'buyer', turn: offer(200), elapsedHours: 0 },
      { role: 'seller', turn: bare('accept'), elapsedHours: 5 },
    ];
    expect(HistorySchema.safeParse(history).success).toBe(true);
  });

  it('refuses time running backwards, with the entry named', () => {
    const history = [
      { role: 'buyer', turn: offer(200), elapsedHours: 6 },
      { role: 'seller', turn: bare('accept'), elapsedHours: 5 },
    ];
    const result = HistorySchema.safeParse(history);
    expect(result.success).toBe(false);
    if (!result.success) expect(issuesFromZod(result.error)[0]?.path).toBe('[1].elapsedHours');
  });

  it('refuses an unknown role and an invalid turn inside an entry', () => {
    const result = HistorySchema.safeParse([{ role: 'broker', turn: offer(-1), elapsedHours: 0 }]);
    expect(result.success).toBe(false);
    if (!result.success) {
      const paths = issuesFromZod(result.error).map((i) => i.path);
      expect(paths).toEqual(expect.arrayContaining(['[0].role', '[0].turn.price']));
    }
  });
});
