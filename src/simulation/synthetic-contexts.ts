import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';
import type { ListingContext, ParticipantProfile } from '../contract/listing-context.js';
import { deriveSeed, Random } from '../internal/random.js';
import {
  CATEGORIES,
  type CategorySpec,
  CONDITION_PRICE_FACTOR,
  CONDITIONS,
  type Condition,
  DESCRIPTION_CLOSINGS,
  DESCRIPTION_OPENINGS,
  type ProductSpec,
} from './synthetic-catalog.js';

/** Options of `generateContexts`: how many and the seed. */
export interface GenerateContextsOptions {
  /** How many contexts; an integer from 0 to 1,000,000. */
  count: number;
  /** Seed of the set; context `i` depends only on the seed and `i`, never on `count`. */
  seed: number;
}

/** Price bands for slicing results, in the listing's currency. */
export const PRICE_TIERS = ['under-25', '25-100', '100-500', '500-plus'] as const;
/** A band of list prices that metrics segment by. */
export type PriceTier = (typeof PRICE_TIERS)[number];

const MAX_COUNT = 1_000_000;
/** List prices stay in the band where Best Offer haggling is common: about $5 to $2000. */
const MIN_LIST_PRICE = 5;
const MAX_LIST_PRICE = 2000;
/** eBay opened in 1995: no account is older than about 30 years. */
const MAX_ACCOUNT_AGE_DAYS = 30 * 365;

/** The tier a list price falls in: `under-25`, `25-100`, `100-500` or `500-plus` (lower bounds inclusive). */
export function priceTier(listPrice: number): PriceTier {
  if (!Number.isFinite(listPrice) || listPrice <= 0) {
    throw new InvalidInputError({
      subject: 'listPrice',
      issues: [{ path: '(root)', message: `must be a finite number above 0, got ${String(listPrice)}` }],
    });
  }
  if (listPrice < 25) return 'under-25';
  if (listPrice < 100) return '25-100';
  if (listPrice < 500) return '100-500';
  return '500-plus';
}

/**
 * Seeded synthetic listing contexts: a category, a product with a title and description built from
 * the category's templates, a condition, a right-skewed list price ($5 to $2000) and seller and buyer
 * profiles. The same seed gives the same contexts; context `i` is derived from `deriveSeed(seed, i)`,
 * so asking for more contexts never changes the first ones.
 */
export function generateContexts(options: GenerateContextsOptions): ListingContext[] {
  const { count, seed } = validateOptions(options);
  const contexts: ListingContext[] = new Array(count);
  for (let index = 0; index < count; index++) contexts[index] = generateContext(seed, index);
  return contexts;
}

function validateOptions(options: GenerateContextsOptions): GenerateContextsOptions {
  const issues: ValidationIssue[] = [];
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({
      subject: 'GenerateContextsOptions',
      issues: [{ path: '(root)', message: 'pass an object such as { count: 100, seed: 1 }' }],
    });
  }
  const { count, seed } = options;
  if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT) {
    issues.push({
      path: 'count',
      message: `must be an integer from 0 to ${MAX_COUNT.toLocaleString('en-US')}, got ${String(count)}`,
    });
  }
  if (!Number.isSafeInteger(seed) || seed < 0) {
    issues.push({ path: 'seed', message: `must be a non-negative safe integer, got ${String(seed)}` });
  }
  if (issues.length > 0) throw new InvalidInputError({ subject: 'GenerateContextsOptions', issues });
  return { count, seed };
}

/**
 * Context `index` of the synthetic set for `seed`: the same as `generateContexts({ count, seed })[index]`,
 * without building the ones before it (a long run makes each context when its session starts).
 */
export function syntheticContext(seed: number, index: number): ListingContext {
  validateOptions({ count: 0, seed });
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new InvalidInputError({
      subject: 'syntheticContext',
      issues: [{ path: 'index', message: 'must be a non-negative integer' }],
    });
  }
  return generateContext(seed, index);
}

function generateContext(seed: number, index: number): ListingContext {
  const random = new Random(deriveSeed(seed, index));
  const category = random.weighted(CATEGORIES.map((value) => ({ value, weight: value.weight })));
  const product = random.pick(category.products);
  const condition = pickCondition(random, category);
  const title = buildTitle(random, category, product);
  const listPrice = drawListPrice(
    random,
    product.medianPrice * CONDITION_PRICE_FACTOR[condition],
    product.sigma,
  );
  return {
    id: `ctx-${seed}-${index}`,
    item: {
      title,
      category: category.name,
      condition,
      description: buildDescription(random, category, title, condition),
    },
    listPrice,
    currency: 'USD',
    seller: sellerProfile(random),
    buyer: buyerProfile(random),
  };
}

function pickCondition(random: Random, category: CategorySpec): Condition {
  const choices = CONDITIONS.flatMap((value) => {
    const weight = category.conditions[value] ?? 0;
    return weight > 0 ? [{ value, weight }] : [];
  });
  return random.weighted(choices);
}

function buildTitle(random: Random, category: CategorySpec, product: ProductSpec): string {
  const words = [random.pick(product.brands ?? category.brands)];
  if (random.bernoulli(0.6)) words.push(random.pick(category.adjectives));
  words.push(product.noun);
  if (category.modelNumbers && random.bernoulli(0.5)) words.push(modelNumber(random));
  if (random.bernoulli(0.6)) words.push(random.pick(product.variants ?? category.variants));
  return words.join(' ');
}

/** A made-up model number such as `XR-340`: two letters, a dash, three digits. */
function modelNumber(random: Random): string {
  const letters = 'ABCDEFGHJKLMNPRSTVWXZ';
  const first = letters.charAt(random.int(0, letters.length - 1));
  const second = letters.charAt(random.int(0, letters.length - 1));
  return `${first}${second}-${random.int(100, 999)}`;
}

function buildDescription(
  random: Random,
  category: CategorySpec,
  title: string,
  condition: Condition,
): string {
  const opening = random.pick(DESCRIPTION_OPENINGS).replace('{title}', title);
  const details = pickDistinct(random, category.details, random.int(2, 3));
  const closing = random.pick(DESCRIPTION_CLOSINGS);
  return [opening, `Condition: ${condition}.`, ...details, closing].filter((part) => part !== '').join(' ');
}

function pickDistinct<T>(random: Random, items: readonly T[], n: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) {
    const [picked] = pool.splice(random.int(0, pool.length - 1), 1);
    if (picked !== undefined) out.push(picked);
  }
  return out;
}

/** A log-normal draw kept inside the band (redrawn, not clipped, so no price piles up at the bounds). */
function drawListPrice(random: Random, median: number, sigma: number): number {
  let price = random.logNormal(median, sigma);
  for (let attempt = 0; attempt < 8 && (price < MIN_LIST_PRICE || price > MAX_LIST_PRICE); attempt++) {
    price = random.logNormal(median, sigma);
  }
  return charmPrice(random, Math.min(Math.max(price, MIN_LIST_PRICE), MAX_LIST_PRICE));
}

/** Sellers list at prices ending in .99, .95 or whole dollars, rarely at an arbitrary number of cents. */
function charmPrice(random: Random, price: number): number {
  const ending = random.weighted([
    { value: 0.99, weight: 0.5 },
    { value: 0, weight: 0.3 },
    { value: 0.95, weight: 0.1 },
    { value: 0.5, weight: 0.1 },
  ]);
  const dollars = ending === 0 ? Math.round(price) : Math.floor(price);
  const charmed = Math.round((dollars + ending) * 100) / 100;
  return Math.min(charmed, MAX_LIST_PRICE - 0.01);
}

/**
 * Feedback counts are heavy-tailed (a few power sellers, many occasional ones) and the share of
 * positive feedback sits near 100% for almost everyone, so both are drawn skewed.
 */
function sellerProfile(random: Random): ParticipantProfile {
  const feedbackScore = random.bernoulli(0.03)
    ? 0
    : Math.min(500_000, Math.round(random.logNormal(250, 1.8)));
  return {
    feedbackScore,
    feedbackPercent: feedbackPercent(random, feedbackScore),
    accountAgeDays: accountAge(random, 1500, feedbackScore),
    pastDeals: Math.round(feedbackScore * random.uniform(0.02, 0.25)),
  };
}

function buyerProfile(random: Random): ParticipantProfile {
  const feedbackScore = random.bernoulli(0.08) ? 0 : Math.min(50_000, Math.round(random.logNormal(35, 1.6)));
  return {
    feedbackScore,
    feedbackPercent: feedbackPercent(random, feedbackScore),
    accountAgeDays: accountAge(random, 1800, feedbackScore),
    pastDeals: Math.round(feedbackScore * random.uniform(0, 0.15)),
  };
}

function feedbackPercent(random: Random, feedbackScore: number): number {
  // Nobody without ratings has negative ones; most accounts have none either.
  if (feedbackScore === 0 || random.bernoulli(0.45)) return 100;
  const shortfall = Math.min(20, -0.8 * Math.log(1 - random.next()));
  return Math.round((100 - shortfall) * 10) / 10;
}

function accountAge(random: Random, medianDays: number, feedbackScore: number): number {
  const age = Math.round(random.logNormal(medianDays, 0.9));
  // Feedback takes time to earn: a large score implies an account at least a few years old.
  const floor = Math.ceil(Math.sqrt(feedbackScore) * 10);
  return Math.min(MAX_ACCOUNT_AGE_DAYS, Math.max(1, age, floor));
}
