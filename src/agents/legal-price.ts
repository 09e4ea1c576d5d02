import { currencyDecimals } from '../contract/currency.js';
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
  return fromUnits(unitsAbove(low, scale), unitsBelow(high, scale), scale);
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
  const minUnits = Math.round(range.min * scale);
  const maxUnits = Math.round(range.max * scale);
  if (role === 'buyer')
    return fromUnits(minUnits, Math.min(maxUnits, unitsAtOrBelow(reservation, scale)), scale);
  return fromUnits(Math.max(minUnits, unitsAtOrAbove(reservation, scale)), maxUnits, scale);
}

function fromUnits(minUnits: number, maxUnits: number, scale: number): LegalPriceRange | null {
  // Beyond 2^53 minor units neighbouring prices are no longer distinct numbers: no price can be trusted.
  if (!Number.isSafeInteger(minUnits) || !Number.isSafeInteger(maxUnits) || minUnits > maxUnits) return null;
  return { min: minUnits / scale, max: maxUnits / scale, scale };
}

/*
 * Prices arrive as binary fractions (0.29 * 100 is 28.999999999999996), so a value within a few
 * rounding errors of a whole minor unit counts as that unit: the bounds below never let a price equal to a bound through.
 */
function wholeUnits(value: number, scale: number): { units: number; exact: boolean } {
  const scaled = value * scale;
  const nearest = Math.round(scaled);
  return {
    units: nearest,
    exact: Math.abs(scaled - nearest) <= 4 * Number.EPSILON * Math.max(1, Math.abs(scaled)),
  };
}

/** The smallest whole number of minor units strictly above `value`. */
function unitsAbove(value: number, scale: number): number {
  const { units, exact } = wholeUnits(value, scale);
  return exact ? units + 1 : Math.floor(value * scale) + 1;
}

/** The largest whole number of minor units strictly below `value`. */
function unitsBelow(value: number, scale: number): number {
  const { units, exact } = wholeUnits(value, scale);
  return exact ? units - 1 : Math.ceil(value * scale) - 1;
}

function unitsAtOrBelow(value: number, scale: number): number {
  const { units, exact } = wholeUnits(value, scale);
  return exact ? units : Math.floor(value * scale);
}

function unitsAtOrAbove(value: number, scale: number): number {
  const { units, exact } = wholeUnits(value, scale);
  return exact ? units : Math.ceil(value * scale);
}
