import type { Outcome } from './issue-space.js';

/** An outcome with the utility it gives each side. */
export interface UtilityPoint {
  outcome: Outcome;
  buyer: number;
  seller: number;
}

/**
 * The Pareto frontier of a finite set of points: those no other point beats on one side without losing
 * on the other. Sorted by the seller's utility, descending. Of exact duplicates, the first is kept.
 */
export function paretoFrontier(points: readonly UtilityPoint[]): UtilityPoint[] {
  // Sort by seller utility desc, then buyer desc: a point is on the frontier exactly when its buyer
  // utility beats every point before it (all of which have at least its seller utility).
  const sorted = [...points].sort((a, b) => b.seller - a.seller || b.buyer - a.buyer);
  const frontier: UtilityPoint[] = [];
  let bestBuyer = Number.NEGATIVE_INFINITY;
  for (const point of sorted) {
    if (point.buyer > bestBuyer) {
      frontier.push(point);
      bestBuyer = point.buyer;
    }
  }
  return frontier;
}

/**
 * The Nash bargaining solution over a finite set: the point maximising
 * `(u_buyer - r_buyer) · (u_seller - r_seller)` among points both sides prefer to no deal (≥ reservation).
 * `null` when no such point exists (no zone of agreement). Ties go to the first point.
 */
export function nashPoint(
  points: readonly UtilityPoint[],
  reservation: { buyer: number; seller: number },
): UtilityPoint | null {
  let best: UtilityPoint | null = null;
  let bestProduct = Number.NEGATIVE_INFINITY;
  for (const point of points) {
    const gainBuyer = point.buyer - reservation.buyer;
    const gainSeller = point.seller - reservation.seller;
    if (gainBuyer < 0 || gainSeller < 0) continue;
    const product = gainBuyer * gainSeller;
    if (product > bestProduct) {
      best = point;
      bestProduct = product;
    }
  }
  return best;
}

/** Euclidean distance between two points in utility space. */
export function utilityDistance(
  a: { buyer: number; seller: number },
  b: { buyer: number; seller: number },
): number {
  return Math.hypot(a.buyer - b.buyer, a.seller - b.seller);
}

/** Distance from a point to the nearest point of the (discrete) Pareto frontier; 0 on the frontier. */
export function distanceToFrontier(
  point: { buyer: number; seller: number },
  frontier: readonly UtilityPoint[],
): number {
  let best = Number.POSITIVE_INFINITY;
  for (const candidate of frontier) best = Math.min(best, utilityDistance(point, candidate));
  return best;
}
