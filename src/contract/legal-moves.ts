import * as z from 'zod';
import { type Action, ActionSchema, isPricedAction } from './action.js';

/**
 * The prices a move may carry: an interval with open or closed ends, on a grid of `step` (the
 * currency's smallest unit). A price is inside when it is above `min` (or equal, if `minInclusive`),
 * below `max` (or equal, if `maxInclusive`), and a whole multiple of `step`.
 */
export const PriceIntervalSchema = z.strictObject({
  min: z.number().finite().min(0),
  minInclusive: z.boolean(),
  max: z.number().finite().positive(),
  maxInclusive: z.boolean(),
  /** The price grid: 0.01 for cents. */
  step: z.number().finite().positive(),
});
/** The prices an offer may carry: bounds, open or closed ends, and the currency's grid step. */
export type PriceInterval = z.infer<typeof PriceIntervalSchema>;

/**
 * One thing a side may do next, as the rules say: the action, the prices an offer may carry, and how
 * long the move may take. `Rules.legalMoves` answers these; a `NegotiationAgent` turns them into the
 * turn's JSON Schema, so a model's turn is legal by construction.
 */
export const LegalMoveSchema = z
  .strictObject({
    action: ActionSchema,
    /** For `offer` and `offer_with_message` only: where the price must lie. */
    price: PriceIntervalSchema.optional(),
    /** For `accept` only: the price the deal closes at (the standing offer's). */
    dealPrice: z.number().finite().positive().optional(),
    /**
     * The latest the move may land, in hours from the last turn: the time left before the listing ends
     * or the other side's standing offer lapses. Absent: no bound but the contract's 30 days.
     */
    maxResponseHours: z.number().finite().min(0).optional(),
  })
  .superRefine((move, ctx) => {
    if (isPricedAction(move.action) && move.price === undefined) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: `"${move.action}" needs its price interval` });
    }
    if (!isPricedAction(move.action) && move.price !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: `"${move.action}" carries no price` });
    }
    if (move.dealPrice !== undefined && move.action !== 'accept') {
      ctx.addIssue({ code: 'custom', path: ['dealPrice'], message: 'only an accept has a deal price' });
    }
  });
/** One thing a side may do next: the action, its price interval and its response-time bound. */
export type LegalMove = z.infer<typeof LegalMoveSchema>;

/** Validates the legal moves of a turn: at least one, each action once. */
export const LegalMovesSchema = z
  .array(LegalMoveSchema)
  .min(1, 'at least one move must be legal')
  .superRefine((moves, ctx) => {
    const seen = new Set<Action>();
    moves.forEach((move, index) => {
      if (seen.has(move.action)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'action'],
          message: `"${move.action}" is listed twice`,
        });
      }
      seen.add(move.action);
    });
  });

/** Whether `price` lies inside the interval and on its grid. */
export function priceInInterval(price: number, interval: PriceInterval): boolean {
  if (!Number.isFinite(price)) return false;
  if (interval.minInclusive ? price < interval.min : price <= interval.min) return false;
  if (interval.maxInclusive ? price > interval.max : price >= interval.max) return false;
  return onGrid(price, interval.step);
}

/** Whether `price` is a whole multiple of `step`, read through decimals (0.07 is 7 cents). */
export function onGrid(price: number, step: number): boolean {
  return wholeSteps(price, step).exact;
}

/**
 * `value / step` as a whole number of steps when it is one up to binary rounding (0.07 / 0.01 is
 * 7.000000000000001): a few ulps relative, so a price a cent off a large bound is never taken for it.
 */
function wholeSteps(value: number, step: number): { units: number; exact: boolean } {
  const scaled = value / step;
  const units = Math.round(scaled);
  return { units, exact: Math.abs(scaled - units) <= 4 * Number.EPSILON * Math.max(1, Math.abs(scaled)) };
}

/**
 * The lowest and highest grid prices inside the interval, or `null` when it holds none (or when its
 * ends lie beyond 2^53 steps, where neighbouring prices are no longer distinct numbers).
 */
export function gridEnds(interval: PriceInterval): { lowest: number; highest: number } | null {
  const { step } = interval;
  const low = wholeSteps(interval.min, step);
  const lowUnit = low.exact ? low.units + (interval.minInclusive ? 0 : 1) : Math.ceil(interval.min / step);
  const high = wholeSteps(interval.max, step);
  const highUnit = high.exact
    ? high.units - (interval.maxInclusive ? 0 : 1)
    : Math.floor(interval.max / step);
  if (!Number.isSafeInteger(lowUnit) || !Number.isSafeInteger(highUnit) || lowUnit > highUnit) return null;
  return { lowest: stepsToPrice(lowUnit, step), highest: stepsToPrice(highUnit, step) };
}

/**
 * `units × step` spelled as its decimal: for a power-of-ten step, divided by the whole scale (7 / 100
 * is 0.07, where 7 × 0.01 is 0.07000000000000001); any other step (0.5) multiplies exactly enough.
 */
function stepsToPrice(units: number, step: number): number {
  const scale = Math.round(1 / step);
  return Math.abs(scale * step - 1) < 1e-12 ? units / scale : units * step;
}

/** Describes an interval for error messages: `(12.5, 300)` with brackets for closed ends. */
export function describeInterval(interval: PriceInterval): string {
  return `${interval.minInclusive ? '[' : '('}${interval.min}, ${interval.max}${interval.maxInclusive ? ']' : ')'} in steps of ${interval.step}`;
}

/** Narrows an interval by another bound set (a guardrail): the tighter end wins on each side. */
export function intersectInterval(
  interval: PriceInterval,
  bounds: { minPrice?: number | undefined; maxPrice?: number | undefined },
): PriceInterval {
  const next = { ...interval };
  if (bounds.minPrice !== undefined && bounds.minPrice >= next.min) {
    next.minInclusive = bounds.minPrice > next.min ? true : next.minInclusive;
    next.min = bounds.minPrice;
  }
  if (bounds.maxPrice !== undefined && bounds.maxPrice <= next.max) {
    next.maxInclusive = bounds.maxPrice < next.max ? true : next.maxInclusive;
    next.max = bounds.maxPrice;
  }
  return next;
}
