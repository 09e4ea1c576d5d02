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
export type PriceBounds = z.infer<typeof PriceBoundsSchema>;

/**
 * Per-role price guardrails: typically a seller's floor (`seller.minPrice`) and a buyer's budget
 * (`buyer.maxPrice`). A turn that would offer or accept a price outside them is never returned.
 */
export const GuardrailsSchema = z.strictObject({
  seller: PriceBoundsSchema.optional(),
  buyer: PriceBoundsSchema.optional(),
});
export type Guardrails = z.infer<typeof GuardrailsSchema>;

export function boundsFor(guardrails: Guardrails | undefined, role: Role | undefined): PriceBounds {
  if (!guardrails || !role) return {};
  return guardrails[role] ?? {};
}

export function priceWithinBounds(price: number, bounds: PriceBounds): boolean {
  if (bounds.minPrice !== undefined && price < bounds.minPrice) return false;
  if (bounds.maxPrice !== undefined && price > bounds.maxPrice) return false;
  return true;
}
