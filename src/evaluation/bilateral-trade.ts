import { InvalidInputError } from '../contract/errors.js';

/**
 * Single-issue price bargaining with private values: the seller's cost `c` and the buyer's value `v`.
 * Trade creates surplus `v - c`; a price `p` splits it.
 */
export interface PrivateValues {
  sellerCost: number;
  buyerValue: number;
}

/** How a price splits the surplus between a seller's cost and a buyer's value. */
export interface TradeScore {
  /** The seller's share of the surplus, `(p - c) / (v - c)`; below 0 or above 1 means a side lost. */
  sellerSurplusShare: number;
  buyerSurplusShare: number;
  /** The seller sold below cost. */
  sellerIrViolation: boolean;
  /** The buyer paid above value. */
  buyerIrViolation: boolean;
}

/** Scores an agreed price. Requires a zone of agreement (`buyerValue > sellerCost`). */
export function scoreTrade(price: number, values: PrivateValues): TradeScore {
  const { sellerCost: c, buyerValue: v } = values;
  if (!(Number.isFinite(price) && Number.isFinite(c) && Number.isFinite(v)) || v <= c) {
    throw new InvalidInputError({
      subject: 'PrivateValues',
      issues: [
        { path: 'buyerValue', message: 'must be above sellerCost: surplus shares need a zone of agreement' },
      ],
    });
  }
  const sellerSurplusShare = (price - c) / (v - c);
  return {
    sellerSurplusShare,
    buyerSurplusShare: 1 - sellerSurplusShare,
    sellerIrViolation: price < c,
    buyerIrViolation: price > v,
  };
}
