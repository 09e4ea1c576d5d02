import { describe, expect, it } from 'vitest';
import {
  distanceToFrontier,
  enumerateOutcomes,
  type IssueSpace,
  nashPoint,
  paretoFrontier,
  parseSideUtility,
  type UtilityPoint,
  utilityOf,
} from '../../src/evaluation/index.js';
import { Random } from '../../src/internal/random.js';

function dominated(p: UtilityPoint, points: readonly UtilityPoint[]): boolean {
  return points.some(
    (q) => q.buyer >= p.buyer && q.seller >= p.seller && (q.buyer > p.buyer || q.seller > p.seller),
  );
}

function randomPoints(seed: number, count: number, grid: number): UtilityPoint[] {
  const random = new Random(seed);
  // A coarse grid makes ties and duplicates common, the cases a clever frontier gets wrong.
  return Array.from({ length: count }, (_, i) => ({
    outcome: { i },
    buyer: random.int(0, grid) / grid,
    seller: random.int(0, grid) / grid,
  }));
}

describe('Pareto frontier and Nash point against brute force', () => {
  it('the frontier is exactly the set of undominated utility pairs', () => {
    for (let seed = 0; seed < 200; seed++) {
      const points = randomPoints(seed, 1 + (seed % 40), seed % 2 === 0 ? 5 : 1000);
      const frontier = paretoFrontier(points);
      const key = (p: UtilityPoint) => `${p.buyer},${p.seller}`;
      const expected = new Set(points.filter((p) => !dominated(p, points)).map(key));
      expect(new Set(frontier.map(key))).toEqual(expected);
      expect(frontier.length).toBe(expected.size); // one point per undominated utility pair
    }
  });

  it('the Nash point maximises the product of gains over individually rational points', () => {
    for (let seed = 0; seed < 200; seed++) {
      const points = randomPoints(seed, 30, 20);
      const reservation = { buyer: (seed % 7) / 10, seller: (seed % 5) / 10 };
      const rational = points.filter((p) => p.buyer >= reservation.buyer && p.seller >= reservation.seller);
      const nash = nashPoint(points, reservation);
      if (rational.length === 0) {
        expect(nash).toBeNull();
        continue;
      }
      const best = Math.max(
        ...rational.map((p) => (p.buyer - reservation.buyer) * (p.seller - reservation.seller)),
      );
      expect(nash).not.toBeNull();
      expect(((nash?.buyer ?? 0) - reservation.buyer) * ((nash?.seller ?? 0) - reservation.seller)).toBe(
        best,
      );
      expect(distanceToFrontier(nash as UtilityPoint, paretoFrontier(points))).toBe(0);
    }
  });

  it('distance to the frontier is zero on it and positive below it', () => {
    const frontier = paretoFrontier([
      { outcome: {}, buyer: 1, seller: 0 },
      { outcome: {}, buyer: 0, seller: 1 },
    ]);
    expect(distanceToFrontier({ buyer: 1, seller: 0 }, frontier)).toBe(0);
    expect(distanceToFrontier({ buyer: 0.5, seller: 0 }, frontier)).toBeCloseTo(0.5, 12);
  });
});

describe('utilities on a small space', () => {
  const space: IssueSpace = {
    issues: [
      { kind: 'price', name: 'price', min: 50, max: 100, steps: 6 },
      { kind: 'options', name: 'warranty', options: ['none', 'year_1'] },
      { kind: 'integer', name: 'delivery_days', min: 1, max: 5 },
    ],
  };
  const seller = parseSideUtility(space, {
    weights: { price: 0.6, warranty: 0.3, delivery_days: 0.1 },
    valuations: {
      price: { kind: 'linear', direction: 'increasing' },
      warranty: { kind: 'table', values: { none: 1, year_1: 0.2 } },
      delivery_days: { kind: 'linear', direction: 'increasing' },
    },
    reservation: 0.3,
    discount: 0.9,
  });

  it('computes the weighted sum by hand, with the time discount', () => {
    const outcome = { price: 80, warranty: 'year_1', delivery_days: 2 };
    const expected = 0.6 * 0.6 + 0.3 * 0.2 + 0.1 * 0.25;
    expect(utilityOf(space, seller, outcome)).toBeCloseTo(expected, 12);
    expect(utilityOf(space, seller, outcome, 2)).toBeCloseTo(expected * 0.81, 12);
  });

  it('enumerates the grid: 6 prices x 2 options x 5 days', () => {
    const outcomes = enumerateOutcomes(space);
    expect(outcomes).toHaveLength(60);
    expect(outcomes[0]).toEqual({ price: 50, warranty: 'none', delivery_days: 1 });
    expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBe(60);
  });

  it('refuses utilities that do not fit the space, saying what to fix', () => {
    expect(() =>
      parseSideUtility(space, {
        weights: { price: 0.5, warranty: 0.3, delivery_days: 0.1 },
        valuations: seller.valuations,
        reservation: 0.3,
      }),
    ).toThrow(/must sum to 1/);
    expect(() =>
      parseSideUtility(space, {
        weights: seller.weights,
        valuations: { ...seller.valuations, warranty: { kind: 'table', values: { none: 1 } } },
        reservation: 0.3,
      }),
    ).toThrow(/valuations\.warranty\.values\.year_1: missing/);
    expect(() =>
      parseSideUtility(space, {
        weights: seller.weights,
        valuations: { ...seller.valuations, price: { kind: 'table', values: {} } },
        reservation: 0.3,
      }),
    ).toThrow(/needs a linear valuation/);
  });
});
