import { currencyDecimals } from '../contract/currency.js';
import type { Role } from '../contract/history.js';
import { CARD_EXAMPLE_LABELS } from '../contract/model-profile.js';
import type { Random } from '../internal/random.js';

/** The five labels the model card names; the population agent uses no others. */
type CardLabel = (typeof CARD_EXAMPLE_LABELS)[number];

/**
 * Short template messages per label. `{price}` is the offer the message comes with; templates
 * without it serve messages that carry no price. They stand in for real messages well enough to
 * exercise label metrics and prompts; nobody should read meaning into their wording.
 */
const TEMPLATES: Readonly<Record<Role, Partial<Record<CardLabel, readonly string[]>>>> = {
  buyer: {
    build_rapport: [
      "Hi! I've been looking for one of these for a while and yours looks great.",
      'Hello, lovely item. I would give it a good home.',
    ],
    request_information: [
      'Could you tell me a bit more about the condition? Any flaws I should know about?',
      'Does it come with everything shown in the photos?',
    ],
    justify_with_market_data: [
      "I've seen similar ones sell for around {price} recently.",
      'Comparable listings have been going for about {price}.',
      'Similar items have sold for less lately, so I hope this is fair.',
    ],
    invoke_compromise: [
      'How about we meet in the middle at {price}?',
      'Could we settle on {price}? Happy to pay right away.',
      "Let's meet halfway; I'm ready to buy today.",
    ],
  },
  seller: {
    declare_cost_limit_seller_firm: [
      "Sorry, that's below what I paid. {price} is as low as I can go.",
      "I can't go much lower than this; the price is already fair.",
    ],
    justify_with_market_data: [
      'Others are asking more for the same item; {price} is a good deal.',
      'This is priced below what similar listings ask.',
    ],
    build_rapport: [
      "Thanks for your interest! It's been well looked after.",
      'Thanks for the offer, it is a great piece.',
    ],
    invoke_compromise: ['I can meet you partway at {price}.', "Let's split the difference: {price}."],
    request_information: ['Where would this ship to? Shipping costs vary.'],
  },
};

export interface DraftMessage {
  labels: CardLabel[];
  message: string;
}

/**
 * A message of one or two labels. With a price it may quote it; without one (a `message_only` turn)
 * only templates without `{price}` are used.
 */
export function draftMessage(
  random: Random,
  role: Role,
  price: number | null,
  currency: string,
  preferred?: readonly CardLabel[],
): DraftMessage {
  const byLabel = TEMPLATES[role];
  const usable = (label: CardLabel) =>
    (byLabel[label] ?? []).filter((template) => price !== null || !template.includes('{price}'));
  const available = CARD_EXAMPLE_LABELS.filter((label) => usable(label).length > 0);
  const preferredUsable = preferred?.filter((label) => usable(label).length > 0) ?? [];
  const first = random.pick(preferredUsable.length > 0 ? preferredUsable : available);
  const labels: CardLabel[] = [first];
  // Real messages often mix strategies: greet, then argue.
  if (random.bernoulli(0.3)) {
    const second = random.pick(available);
    if (second !== first) labels.push(second);
  }
  const sentences = labels.map((label) => fill(random.pick(usable(label)), price, currency));
  return { labels, message: sentences.join(' ') };
}

function fill(template: string, price: number | null, currency: string): string {
  return price === null ? template : template.replaceAll('{price}', formatPrice(price, currency));
}

export function formatPrice(price: number, currency: string): string {
  const amount = price.toFixed(currencyDecimals(currency));
  return currency === 'USD' ? `$${amount}` : `${amount} ${currency}`;
}
