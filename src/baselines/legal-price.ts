import { currencyDecimals } from '../contract/currency.js';
import { gridEnds, intersectInterval, type PriceInterval } from '../contract/legal-moves.js';
import type { ThreadView } from './thread-view.js';

/**
 * The prices a side may put on the table now, under Best Offer's price facts (which `BestOfferRules`
 * enforces): whole minor units of the listing's currency, above 0 and strictly below the list price
 * (at the list price an offer is a Buy It Now purchase); a seller's counter strictly above the buyer's
 * standing offer; a buyer's counter strictly below the seller's standing counter. Both ends of the
 * range are legal prices themselves; `null` when no price is (a buyer offer one cent below list leaves
 * the seller nothing to counter with), so the agent picks a move without a price instead.
 */
export interface LegalPriceRange {
  /** The lowest legal price. */
  min: number;
  /** The highest legal price. */
  max: number;
  /** Minor units per unit of the currency: 100 for cents. */
  scale: number;
}

export function legalPriceRange(view: ThreadView): LegalPriceRange | null {
  const scale = 10 ** currencyDecimals(view.currency);
  const standing = view.opponentStanding;
  const low = view.role === 'seller' && standing !== null ? standing : 0;
  const high =
    view.role === 'buyer' && standing !== null ? Math.min(standing, view.listPrice) : view.listPrice;
  // The same open interval and grid arithmetic as the rules' legal moves, so the two cannot disagree.
  return onGridRange(
    { min: low, minInclusive: false, max: high, maxInclusive: false, step: 1 / scale },
    scale,
  );
}

/** The legal price nearest to `price`: rounded to the currency's minor unit, then moved into the range. */
export function nearestLegalPrice(price: number, range: LegalPriceRange): number {
  const units = Math.round(price * range.scale);
  return Math.min(range.max, Math.max(range.min, units / range.scale));
}

/**
 * The range cut at a side's reservation: a buyer never offers above its budget, a seller never below
 * its floor. `null` when no legal price respects the reservation.
 */
export function withinReservationRange(
  range: LegalPriceRange,
  reservation: number,
  role: ThreadView['role'],
): LegalPriceRange | null {
  const { scale } = range;
  const closed: PriceInterval = {
    min: range.min,
    minInclusive: true,
    max: range.max,
    maxInclusive: true,
    step: 1 / scale,
  };
  const cut = intersectInterval(
    closed,
    role === 'buyer' ? { maxPrice: reservation } : { minPrice: reservation },
  );
  return onGridRange(cut, scale);
}

function onGridRange(interval: PriceInterval, scale: number): LegalPriceRange | null {
  const ends = gridEnds(interval);
  return ends && { min: ends.lowest, max: ends.highest, scale };
}
