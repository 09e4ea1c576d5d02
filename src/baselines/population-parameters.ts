/**
 * Every parameter of the population policy (`PopulationAgent`), in one table: its value, the range a
 * caller may override it within, and its source. A source is either a citation, where a published
 * fact fixes the value, or the word `assumed`, where we chose or tuned the value ourselves (tuned
 * values say what they were tuned to reproduce in `why`).
 *
 * Calibration targets (checked by test/baselines/population-calibration.test.ts): self-play over
 * synthetic contexts under eBay Best Offer rules gives a deal rate near the card’s ~43% and about 3% of sessions (the card: ~3%)
 * with a message (the source population named on the model card), about a third of threads end in
 * immediate agreement (Backus et al. 2020), and buyers' first offers cluster at 50%, 2/3 and 75% of the
 * list price (this project's brief; assumed).
 */

/** Backus, Blake, Larsen & Tadelis, "Sequential Bargaining in the Field: Evidence from Millions of Online Bargaining Interactions", QJE 135(3), 2020. */
export const BACKUS_2020 = 'Backus, Blake, Larsen & Tadelis, QJE 2020';
/** eBay Developers Program, Trading API user guide: "Best Offers" and "Counteroffers". */
export const EBAY_BEST_OFFER_DOCS = 'eBay Trading API user guide, Best Offer and counteroffer rules';
/** The model card of the Qwen3-4B negotiation fine-tune (see DEFAULT_MODEL_PROFILE's facts). */
export const MODEL_CARD =
  'model card of qwen3-4b-negotiation (source population: deal rate ~43%; training data: ~3% message sessions)';

/** One row of `POPULATION_PARAMETER_TABLE`: a parameter's value, its allowed range and its source. */
export interface PopulationParameterSpec {
  value: number;
  /** Inclusive bounds an override must respect. */
  min: number;
  max: number;
  /** A citation, or `assumed` for anything we chose or tuned. */
  source: string;
  /** What the parameter does and why it has this value. */
  why: string;
}

/** Every parameter of the population baseline with its value, allowed range and where the value comes from. */
export const POPULATION_PARAMETER_TABLE = {
  // Buyer: the first offer. A mixture of round-number focal points and a continuous remainder.
  firstOfferHalfRatio: {
    value: 0.5,
    min: 0.01,
    max: 1,
    source: 'assumed',
    why: 'focal first offer at half the list price; the focal fractions are this project’s brief, not read off the paper’s figures',
  },
  firstOfferHalfWeight: {
    value: 0.2,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'share of first offers at exactly half the list price',
  },
  firstOfferTwoThirdsRatio: {
    value: 2 / 3,
    min: 0.01,
    max: 1,
    source: 'assumed',
    why: 'focal first offer at two thirds of the list price (see firstOfferHalfRatio)',
  },
  firstOfferTwoThirdsWeight: {
    value: 0.14,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'share of first offers at two thirds of the list price',
  },
  firstOfferThreeQuartersRatio: {
    value: 0.75,
    min: 0.01,
    max: 1,
    source: 'assumed',
    why: 'focal first offer at three quarters of the list price (see firstOfferHalfRatio)',
  },
  firstOfferThreeQuartersWeight: {
    value: 0.16,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'share of first offers at three quarters of the list price; the rest come from the continuous remainder',
  },
  firstOfferRemainderMean: {
    value: 0.78,
    min: 0.01,
    max: 1,
    source: 'assumed',
    why: 'mean ratio (offer / list) of first offers off the focal points: a truncated normal',
  },
  firstOfferRemainderSd: {
    value: 0.11,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'spread of the continuous remainder of first offers',
  },
  firstOfferRemainderMin: {
    value: 0.3,
    min: 0.01,
    max: 1,
    source: 'assumed',
    why: 'lowest first-offer ratio the remainder draws',
  },
  firstOfferRemainderMax: {
    value: 0.97,
    min: 0.01,
    max: 1,
    source: 'assumed',
    why: 'highest first-offer ratio the remainder draws (an offer at list price is a purchase, not a haggle)',
  },
  buyerOpeningMessageProbability: {
    value: 0.015,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance the first offer carries a message (offer_with_message); tuned with the other message probabilities so that about 3% of self-play sessions carry a message, the share the model card gives for its training data (~3%, ~1,500 of 50,000 sessions)',
  },

  // Buyer: answering a seller's counteroffer.
  buyerAcceptGapMidpoint: {
    value: 0.1,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'gap (counter − own last offer) / counter at which a buyer accepts half the time; tuned with the seller side to the card’s ~43% deal rate',
  },
  buyerAcceptGapScale: {
    value: 0.05,
    min: 0.001,
    max: 1,
    source: 'assumed',
    why: 'steepness of that logistic: acceptance rises as the counter nears the buyer’s last offer',
  },
  buyerCounterProbability: {
    value: 0.35,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a buyer who does not accept makes another offer (while the offer cap allows); otherwise they walk away; tuned to the card’s ~43% deal rate',
  },
  buyerCounterMessageProbability: {
    value: 0.03,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a buyer’s later offer carries a message; tuned with the other message probabilities to the card’s ~3% message sessions (see buyerOpeningMessageProbability)',
  },
  buyerReofferAfterMessageProbability: {
    value: 0.4,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a buyer raises their offer after a seller’s message that carries no price',
  },
  buyerReplyMessageProbability: {
    value: 0.3,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a buyer who does not raise answers the seller’s message with one of their own, instead of going silent',
  },

  // Both sides: how offers move.
  splitDifferenceProbability: {
    value: 0.5,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a new offer splits the difference exactly between the two most recent positions; Backus et al. (2020) report a preference for such offers, the rate is ours',
  },
  concessionShareMin: {
    value: 0.25,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'otherwise the offer moves this share of the gap at least: gradual concessions',
  },
  concessionShareMax: {
    value: 0.6,
    min: 0,
    max: 1,
    source: 'assumed',
    why: '… and at most this share of the gap',
  },
  walkAwayDeclineShare: {
    value: 0.5,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'when a side walks away, the chance it says so (decline) rather than going silent (no_response)',
  },

  // Seller: answering a buyer's offer.
  sellerAcceptGapMidpoint: {
    value: 0.2425,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'gap (ask − offer) / ask at which a seller accepts half the time, ask being the list price or the seller’s last counter; tuned so that about a third of threads end in immediate agreement and, with the buyer side, to the card’s ~43% deal rate',
  },
  sellerAcceptGapScale: {
    value: 0.05,
    min: 0.001,
    max: 1,
    source: 'assumed',
    why: 'steepness of that logistic: acceptance rises with offer / list',
  },
  sellerLowballRatio: {
    value: 0.6,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'offers below this fraction of the list price count as lowball',
  },
  sellerLowballDeclineProbability: {
    value: 0.55,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a seller declines a lowball offer outright instead of countering',
  },
  sellerCounterProbability: {
    value: 0.55,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a seller who neither accepts nor rejects a lowball counters (once per buyer offer); otherwise they walk away',
  },
  sellerCounterMessageProbability: {
    value: 0.03,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a counteroffer carries a message; tuned with the other message probabilities to the card’s ~3% message sessions (see buyerOpeningMessageProbability)',
  },
  sellerIgnoreProbability: {
    value: 0.06,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a seller ignores an offer (no_response)',
  },
  sellerMessageProbability: {
    value: 0.006,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a seller answers an offer with a message only (a question, a firm price) and decides later; tuned with the other message probabilities to the card’s ~3% message sessions (see buyerOpeningMessageProbability)',
  },
  sellerReplyMessageProbability: {
    value: 0.5,
    min: 0,
    max: 1,
    source: 'assumed',
    why: 'chance a seller answers a buyer’s message with a message; otherwise silence',
  },

  // Timing: response times in hours, log-normal, with a small tail past the 48-hour offer lifetime.
  buyerResponseMedianHours: {
    value: 5,
    min: 0,
    max: 1000,
    source: 'assumed',
    why: 'median hours a buyer takes to answer',
  },
  buyerResponseSigma: {
    value: 1.2,
    min: 0,
    max: 5,
    source: 'assumed',
    why: 'log-scale spread of buyer response times; about 3% exceed 48 h, so some counteroffers expire (eBay: offers lapse after 48 h)',
  },
  sellerResponseMedianHours: {
    value: 6,
    min: 0,
    max: 1000,
    source: 'assumed',
    why: 'median hours a seller takes to answer',
  },
  sellerResponseSigma: {
    value: 1.2,
    min: 0,
    max: 5,
    source: 'assumed',
    why: 'log-scale spread of seller response times; about 4% exceed 48 h, so some offers expire',
  },
} as const satisfies Record<string, PopulationParameterSpec>;

/** The name of one parameter of `POPULATION_PARAMETER_TABLE`. */
export type PopulationParameterName = keyof typeof POPULATION_PARAMETER_TABLE;

/** The parameter values the policy runs on. */
export type PopulationParameters = { [K in PopulationParameterName]: number };

/** The default values, read off the table. */
export const DEFAULT_POPULATION_PARAMETERS: Readonly<PopulationParameters> = Object.freeze(
  Object.fromEntries(
    Object.entries(POPULATION_PARAMETER_TABLE).map(([name, spec]) => [name, spec.value]),
  ) as PopulationParameters,
);

/**
 * Facts of the marketplace the policy is built around; the rules (`BestOfferRules`) enforce them and
 * the policy reads them from the legal actions rather than holding its own copy.
 */
export const POPULATION_FACTS = [
  {
    fact: 'About one third of bargaining threads end in immediate agreement (the seller accepts the first offer).',
    source: BACKUS_2020,
  },
  {
    fact: 'Concessions are reciprocal and gradual; offers that split the difference between the two most recent offers are favoured.',
    source: BACKUS_2020,
  },
  {
    fact: 'An offer or counteroffer not acted on lapses after 48 hours.',
    source: EBAY_BEST_OFFER_DOCS,
  },
  {
    fact: 'A seller with a counteroffer out cannot counter again until the buyer counters back, and never above the fixed price.',
    source: EBAY_BEST_OFFER_DOCS,
  },
  {
    fact: 'A buyer’s number of offers is capped; eBay sets the cap per category (1 to 10 or more). The policy reads the cap from the legal actions; BestOfferRules defaults to 3, which is assumed.',
    source: EBAY_BEST_OFFER_DOCS,
  },
  { fact: 'The source population’s deal rate is ~43%.', source: MODEL_CARD },
  {
    fact: '~3% of the 50,000 training sessions sampled from the source population carry a message (~1,500 message-bearing sessions).',
    source: MODEL_CARD,
  },
] as const;
