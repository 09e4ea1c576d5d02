import { describe, expect, it } from 'vitest';
import { BayesianOpponentModel } from '../../src/multi-issue/bayesian-opponent-model.js';
import { FrequencyOpponentModel } from '../../src/multi-issue/frequency-opponent-model.js';
import type { IssueSpace } from '../../src/multi-issue/issue-space.js';
import { learnFromHistory, type OpponentModel } from '../../src/multi-issue/opponent-model.js';
import type { SideUtility } from '../../src/multi-issue/utility.js';
import { scriptedConcessions } from './scripted-conceder.js';

const SPACE: IssueSpace = {
  issues: [
    { kind: 'price', name: 'price', min: 100, max: 200, steps: 21 },
    { kind: 'options', name: 'warranty', options: ['none', 'days_90', 'year_1'] },
    { kind: 'integer', name: 'delivery_days', min: 1, max: 10 },
  ],
};

function buyerWith(weights: Record<string, number>): SideUtility {
  return {
    weights,
    valuations: {
      price: { kind: 'linear', direction: 'decreasing' },
      warranty: { kind: 'table', values: { none: 0, days_90: 0.6, year_1: 1 } },
      delivery_days: { kind: 'linear', direction: 'decreasing' },
    },
    reservation: 0.3,
    discount: 1,
  };
}

/** Mean absolute error of estimated weights over the issues. */
function weightError(model: OpponentModel, truth: Record<string, number>): number {
  const estimate = model.weights();
  const names = Object.keys(truth);
  return (
    names.reduce((sum, name) => sum + Math.abs((estimate[name] ?? 0) - (truth[name] as number)), 0) /
    names.length
  );
}

/** Mean and worst weight error of a model over 20 seeded scripted opponents making `offers` offers each. */
function recovery(make: () => OpponentModel, truth: Record<string, number>, offers: number) {
  const errors: number[] = [];
  for (let seed = 0; seed < 20; seed++) {
    const model = make();
    scriptedConcessions(SPACE, buyerWith(truth), offers, seed).forEach((offer, k) => {
      model.update(offer, k / (offers - 1));
    });
    errors.push(weightError(model, truth));
  }
  return { mean: errors.reduce((a, b) => a + b, 0) / errors.length, worst: Math.max(...errors) };
}

// The stated errors of docs/evaluation.md ("Opponent models"): mean absolute weight error over 20 seeded
// scripted conceders after N = 20 offers. Guessing equal weights scores 0.178 and 0.111 on these two.
const PRICE_FIRST = { price: 0.6, warranty: 0.3, delivery_days: 0.1 };
const WARRANTY_FIRST = { price: 0.2, warranty: 0.5, delivery_days: 0.3 };

describe('opponent models recover the weights of a known utility from a conceding side’s offers', () => {
  it('Bayesian (Hindriks & Tykhonov): mean error ≤ 0.08 and every run ≤ 0.12 after 20 offers', () => {
    for (const truth of [PRICE_FIRST, WARRANTY_FIRST]) {
      const { mean, worst } = recovery(() => new BayesianOpponentModel(SPACE), truth, 20);
      expect(mean, JSON.stringify(truth)).toBeLessThanOrEqual(0.08);
      expect(worst, JSON.stringify(truth)).toBeLessThanOrEqual(0.12);
    }
  });

  it('Bayesian: learning helps — 20 offers beat 3', () => {
    const few = recovery(() => new BayesianOpponentModel(SPACE), PRICE_FIRST, 3);
    const many = recovery(() => new BayesianOpponentModel(SPACE), PRICE_FIRST, 20);
    expect(many.mean).toBeLessThan(few.mean);
  });

  it('frequency (HardHeaded): mean error ≤ 0.15 after 20 offers, below the equal-weights guess', () => {
    for (const truth of [PRICE_FIRST, WARRANTY_FIRST]) {
      const { mean } = recovery(() => new FrequencyOpponentModel(SPACE), truth, 20);
      expect(mean, JSON.stringify(truth)).toBeLessThanOrEqual(0.15);
      const equal = Object.values(truth).reduce((s, w) => s + Math.abs(w - 1 / 3), 0) / 3;
      expect(mean, JSON.stringify(truth)).toBeLessThan(equal);
    }
  });

  it('both rank the scripted side’s favourite value of an issue first', () => {
    for (const make of [() => new BayesianOpponentModel(SPACE), () => new FrequencyOpponentModel(SPACE)]) {
      const model = make();
      scriptedConcessions(SPACE, buyerWith(WARRANTY_FIRST), 20, 3).forEach((offer, k) => {
        model.update(offer, k / 19);
      });
      expect(model.valueEstimate('warranty', 'year_1')).toBeGreaterThan(
        model.valueEstimate('warranty', 'none'),
      );
      // and the utility it predicts orders the scripted side's best and worst outcomes
      const best = { price: 100, warranty: 'year_1', delivery_days: 1 };
      const worst = { price: 200, warranty: 'none', delivery_days: 10 };
      expect(model.utility(best)).toBeGreaterThan(model.utility(worst));
    }
  });

  it('weights always sum to 1; values outside the space teach nothing and break nothing', () => {
    for (const model of [new BayesianOpponentModel(SPACE), new FrequencyOpponentModel(SPACE)]) {
      model.update({ price: 150, warranty: 'year_1', delivery_days: 3 }, 0);
      model.update({ price: 9999, warranty: 'lifetime', delivery_days: -4 }, 0.5);
      model.update({ price: 140, warranty: 'days_90', delivery_days: 3 }, 1);
      const sum = Object.values(model.weights()).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(1, 9);
      expect(Number.isFinite(model.utility({ price: 120, warranty: 'none', delivery_days: 2 }))).toBe(true);
    }
  });

  it('learnFromHistory feeds only the other side’s offers', () => {
    const seen: string[] = [];
    const spy = {
      update: (offer: Record<string, number | string>) => seen.push(String(offer.price)),
      weights: () => ({}),
      valueEstimate: () => 0,
      utility: () => 0,
      describe: () => ({ kind: 'spy' }),
    };
    const offer = (price: number) => ({ action: 'offer' as const, offer: { price }, message: '' });
    learnFromHistory(
      spy,
      [
        { role: 'seller', turn: offer(200) },
        { role: 'buyer', turn: offer(100) },
        { role: 'seller', turn: offer(190) },
        { role: 'buyer', turn: offer(110) },
      ],
      'seller',
      10,
    );
    expect(seen).toEqual(['100', '110']);
  });
});
