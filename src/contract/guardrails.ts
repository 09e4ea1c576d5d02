import * as z from 'zod';
import type { Role } from './history.js';

/** Prices a side will never offer or accept beyond. */
export const PriceBoundsSchema = z
  .strictObject({
    minPrice: z.number().finite().min(0).optional(),
    maxPrice: z.number().finite().positive().optional(),
  })
  .refine((b) => b.minPrice === undefined || b.maxPrice === undefined || b.minPrice <= b.maxPrice, {
    message: 'minPrice must not be above maxPrice',
  });
/** A minimum and/or maximum price one side's turns must respect. */
export type PriceBounds = z.infer<typeof PriceBoundsSchema>;

/**
 * Per-role price guardrails: typically a seller's floor (`seller.minPrice`) and a buyer's budget
 * (`buyer.maxPrice`). A turn that would offer or accept a price outside them is never returned.
 */
export const GuardrailsSchema = z.strictObject({
  seller: PriceBoundsSchema.optional(),
  buyer: PriceBoundsSchema.optional(),
});
/** Price bounds per role: a seller's floor, a buyer's budget. */
export type Guardrails = z.infer<typeof GuardrailsSchema>;

/** The price bounds that apply to `role` (none when there are no guardrails or no role). */
export function boundsFor(guardrails: Guardrails | undefined, role: Role | undefined): PriceBounds {
  if (!guardrails || !role) return {};
  return guardrails[role] ?? {};
}

/** Whether `price` respects `bounds`, ends included. */
export function priceWithinBounds(price: number, bounds: PriceBounds): boolean {
  if (bounds.minPrice !== undefined && price < bounds.minPrice) return false;
  if (bounds.maxPrice !== undefined && price > bounds.maxPrice) return false;
  return true;
}
