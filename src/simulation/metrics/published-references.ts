/**
 * The card's numbers as a named reference set a run can be set beside
 * (`haggle compare RUN.jsonl --reference card:qwen3-4b-negotiation-50k-ep3`). Every value is a fact of
 * the card's table (src/contract/model-card.ts) with its words, place and sample; which statistic of a
 * run it is set beside is haggle's choice, named with the value.
 */
import {
  CARD_FACTS,
  CARD_MODELS,
  type CardFact,
  type CardNumber,
  type CardReading,
  type CardSample,
} from '../../contract/model-card.js';

/** The statistic of a run that a published value is set beside: a share of finished sessions. */
export type ReferenceStatistic =
  /** Deals over sessions that finished (errored and aborted sessions left out). */
  | 'deal-rate'
  /** Finished sessions in which some turn carries a message, over finished sessions. */
  | 'message-session-share';

/** One number the card publishes, with its words and what a run is measured by against it. */
export interface PublishedValue {
  /** The card fact's id, e.g. `50k-ep3-deal-rate`. */
  id: string;
  /** What a reader sees, e.g. `source population: deal rate`. */
  name: string;
  /** Who the number is about: `source population`, the epoch-4 checkpoint, or a model's profile id. */
  subject: string;
  /** The built-in profile the number is about, when there is one: marks the row a run of that model matches. */
  profile?: string;
  /** haggle's choice: the statistic of a run set beside the number. */
  statistic: ReferenceStatistic;
  /** A share, 0..1. */
  value: number;
  /** As the card writes it: `~43%`, `38.2%`. */
  written: string;
  /** The card marks it as approximate (`~`): compared by the range its rounding allows. */
  approximate: boolean;
  /** The step of the card's rounding, as a share. */
  precision: number;
  /** The sessions it was measured on, where the card gives them (or haggle reads them, see `sample.reading`). */
  sample?: CardSample;
  /** The card's words, verbatim. */
  quote: string;
  /** Where on the card the words stand. */
  where: string;
  /** What the number measures, as the card states it. */
  measures: string;
  /** haggle's readings of the card's fact, each with why. */
  readings: readonly CardReading[];
}

/** The numbers one source publishes (a model card), to set a run beside. */
export interface ReferenceSet {
  /** `card:<profile id>`. */
  id: string;
  /** Other ids that name the same set. */
  aliases: readonly string[];
  title: string;
  /** Where the numbers come from. */
  source: string;
  /** What the source's numbers were measured on, in its words: what a run is not, unless it holds those sessions. */
  population: string;
  /** Where those sessions come from, in the source's words (eBay, for the card). */
  domain: string;
  values: readonly PublishedValue[];
}

/** haggle's choice of statistic and name for each card number that a run can be measured against. */
const VALUES: readonly {
  fact: string;
  name: string;
  statistic: ReferenceStatistic;
  profile?: string;
}[] = [
  { fact: 'population-deal-rate', name: 'source population: deal rate', statistic: 'deal-rate' },
  {
    fact: '50k-ep3-deal-rate',
    name: `${CARD_MODELS['50k-ep3']}: deal rate`,
    statistic: 'deal-rate',
    profile: CARD_MODELS['50k-ep3'],
  },
  { fact: '50k-epoch-4-deal-rate', name: '50k training at epoch 4: deal rate', statistic: 'deal-rate' },
  {
    fact: 'msg-sessions-ep4-deal-rate',
    name: `${CARD_MODELS['msg-sessions-ep4']}: deal rate (sim)`,
    statistic: 'deal-rate',
    profile: CARD_MODELS['msg-sessions-ep4'],
  },
  {
    fact: 'population-message-share',
    name: 'source population: share of message sessions',
    statistic: 'message-session-share',
  },
];

function factById(id: string): CardFact & { number: CardNumber } {
  const fact = CARD_FACTS.find((f) => f.id === id);
  if (!fact?.number) throw new Error(`card fact "${id}" has no number`);
  return fact as CardFact & { number: CardNumber };
}

function publishedValue(entry: (typeof VALUES)[number]): PublishedValue {
  const fact = factById(entry.fact);
  return Object.freeze({
    id: fact.id,
    name: entry.name,
    subject: fact.about[0] ?? 'the card',
    ...(entry.profile ? { profile: entry.profile } : {}),
    statistic: entry.statistic,
    value: fact.number.share,
    written: fact.number.written,
    approximate: fact.number.approximate,
    precision: fact.number.precision,
    ...(fact.sample ? { sample: fact.sample } : {}),
    quote: fact.quote,
    where: fact.where,
    measures: fact.measures,
    readings: fact.readings,
  });
}

/** The card's numbers: both models, the epoch-4 checkpoint and the source population. */
export const CARD_REFERENCE_SET: ReferenceSet = Object.freeze({
  id: 'card:qwen3-4b-negotiation-50k-ep3',
  aliases: ['card:qwen3-4b-negotiation-msg-sessions-ep4'],
  title: "The model card's published numbers",
  source:
    'the model card of xinyang-hu-00/qwen3-4b-negotiation-50k-ep3 (which also reports the msg-sessions model), quoted verbatim in src/contract/model-card.ts',
  population: factById('50k-ep3-deal-rate').sample?.quote ?? '',
  domain: CARD_FACTS.find((f) => f.id === 'evaluation-domain')?.quote ?? '',
  values: Object.freeze(VALUES.map(publishedValue)),
});

/** Every published reference set haggle knows. */
export const REFERENCE_SETS: readonly ReferenceSet[] = Object.freeze([CARD_REFERENCE_SET]);
