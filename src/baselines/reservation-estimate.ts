import type { Role } from '../contract/history.js';

/** The concession ratio assumed when only one concession has been seen (haggle's choice). */
export const DEFAULT_CONCESSION_RATIO = 0.5;
/** Concession ratios are capped here, so a side conceding evenly does not extrapolate far (haggle's choice). */
const MAX_CONCESSION_RATIO = 0.5;

/**
 * An estimate of the other side's reservation price (a buyer's budget, a seller's floor) from its offers,
 * oldest first: a negotiator's concessions shrink as it nears its limit, so the limit is where its
 * concessions would add up to if each were the last one times the ratio of its last two,
 * `p_k ± d_k · q / (1 - q)` (a geometric series). `otherRole` is the role of the side that made the offers.
 *
 * haggle's choice, in the spirit of learning the other side's reservation price from its offers (Zeng &
 * Sycara 1998 do that by Bayesian updating over hypotheses; this extrapolates instead, which needs no
 * prior over prices): a ratio of 0.5 when only one concession has been seen, ratios capped at 0.5 (a side conceding evenly is expected to make one more such step, no more),
 * moves away from the other side not counted as concessions. `null` before the other side has conceded
 * at all: a single offer says nothing of how far it will go.
 */
export function estimateReservationPrice(offers: readonly number[], otherRole: Role): number | null {
  // A buyer concedes upwards, a seller downwards: measure concessions in that direction.
  const sign = otherRole === 'buyer' ? 1 : -1;
  const concessions: number[] = [];
  for (let i = 1; i < offers.length; i++)
    concessions.push(Math.max(0, sign * ((offers[i] as number) - (offers[i - 1] as number))));
  const last = concessions.at(-1);
  const latest = offers.at(-1);
  if (last === undefined || latest === undefined || !concessions.some((d) => d > 0)) return null;
  if (last === 0) return latest; // it stopped moving: its latest offer is where it stands
  const before = concessions.at(-2);
  const ratio =
    before === undefined || before === 0
      ? DEFAULT_CONCESSION_RATIO
      : Math.min(MAX_CONCESSION_RATIO, last / before);
  return latest + (sign * last * ratio) / (1 - ratio);
}
