import { z } from 'zod';

/** ISO 4217 code, upper case (`USD`, `EUR`). */
export const CurrencySchema = z.string().regex(/^[A-Z]{3}$/, 'a currency is an ISO 4217 code such as USD');

/** What a marketplace shows about a participant. Every field is optional: marketplaces differ. */
export const ParticipantProfileSchema = z.strictObject({
  /** Feedback score: count of net positive ratings, as eBay shows it. */
  feedbackScore: z.number().int().min(0).optional(),
  /** Share of positive feedback, 0..100. */
  feedbackPercent: z.number().min(0).max(100).optional(),
  /** Age of the account in days. */
  accountAgeDays: z.number().int().min(0).optional(),
  /** Completed negotiated deals before this one. */
  pastDeals: z.number().int().min(0).optional(),
});
export type ParticipantProfile = z.infer<typeof ParticipantProfileSchema>;

export const ItemSchema = z.strictObject({
  title: z.string().trim().min(1, 'the item needs a title').max(500),
  category: z.string().min(1).max(200).optional(),
  condition: z.string().min(1).max(100).optional(),
  description: z.string().max(20_000).optional(),
});
export type Item = z.infer<typeof ItemSchema>;

/** Everything a negotiator knows about the listing before the first turn. */
export const ListingContextSchema = z.strictObject({
  /** Optional caller-side identifier, carried into run records. */
  id: z.string().max(200).optional(),
  item: ItemSchema,
  listPrice: z.number().finite().positive('the list price must be above 0'),
  currency: CurrencySchema.default('USD'),
  seller: ParticipantProfileSchema.optional(),
  buyer: ParticipantProfileSchema.optional(),
});
/** A validated listing context (defaults applied). */
export type ListingContext = z.infer<typeof ListingContextSchema>;
/** What a caller may pass: `currency` may be omitted. */
export type ListingContextInput = z.input<typeof ListingContextSchema>;
