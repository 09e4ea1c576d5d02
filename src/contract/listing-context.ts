import * as z from 'zod';
import { currencyDecimals, fitsCurrency } from './currency.js';
import { MAX_PRICE } from './turn-rules.js';

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
/** What is known of a buyer or seller: feedback score and percentage, account age, past deals. */
export type ParticipantProfile = z.infer<typeof ParticipantProfileSchema>;

/** Validates the item of a listing: title, and optionally category, condition and description. */
export const ItemSchema = z.strictObject({
  title: z.string().trim().min(1, 'the item needs a title').max(500),
  category: z.string().min(1).max(200).optional(),
  condition: z.string().min(1).max(100).optional(),
  description: z.string().max(20_000).optional(),
});
/** The item of a listing: title, category, condition, description. */
export type Item = z.infer<typeof ItemSchema>;

/** Everything a negotiator knows about the listing before the first turn. */
export const ListingContextSchema = z
  .strictObject({
    /** Optional caller-side identifier, carried into run records. */
    id: z.string().max(200).optional(),
    item: ItemSchema,
    /** In the currency's units, with at most its decimals (cents for USD), above 0 and at most `MAX_PRICE`. */
    listPrice: z
      .number('the list price must be a number')
      .finite('the list price must be a finite number')
      .positive('the list price must be above 0')
      .max(MAX_PRICE, `the list price must be at most ${MAX_PRICE}`),
    currency: CurrencySchema.default('USD'),
    seller: ParticipantProfileSchema.optional(),
    buyer: ParticipantProfileSchema.optional(),
  })
  .superRefine((context, ctx) => {
    // A list price of 19.999 cannot be paid; the legal price intervals are built on the currency's grid.
    if (Number.isFinite(context.listPrice) && !fitsCurrency(context.listPrice, context.currency)) {
      const decimals = currencyDecimals(context.currency);
      ctx.addIssue({
        code: 'custom',
        path: ['listPrice'],
        message: `a ${context.currency} price has at most ${decimals} decimal(s); got ${context.listPrice}`,
      });
    }
  });
/** A validated listing context (defaults applied). */
export type ListingContext = z.infer<typeof ListingContextSchema>;
/** What a caller may pass: `currency` may be omitted. */
export type ListingContextInput = z.input<typeof ListingContextSchema>;
