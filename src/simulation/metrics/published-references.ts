/**
 * Numbers published about the card's models, as named reference sets a run can be set beside
 * (`haggle report RUN.jsonl --reference card:qwen3-4b-negotiation-50k-ep3`). Each value says where it
 * comes from and which model and which sessions it describes. Values are facts from the sources; how a
 * run is measured against each one (which statistic, which sessions) is marked as haggle's reading.
 */

/** The statistic of a run that a published value is set beside. */
export type ReferenceStatistic =
  /** Deals over sessions that finished (errored and aborted sessions left out). */
  | 'deal-rate'
  /** Deals over finished sessions in which some turn carries a message. */
  | 'deal-rate-message-sessions'
  /** Finished sessions in which some turn carries a message, over finished sessions. */
  | 'message-session-share';

/** One number a source publishes, with where it comes from. */
export interface PublishedValue {
  /** Stable id within the set, e.g. `population-deal-rate`. */
  id: string;
  /** What a reader sees, e.g. `source population: deal rate`. */
  name: string;
  /** Who the number is about: `source population` or a model (its profile id where haggle has one). */
  subject: string;
  /** The built-in profile the number is about, when there is one: marks the row a run of that model matches. */
  profile?: string;
  statistic: ReferenceStatistic;
  /** A share, 0..1. */
  value: number;
  /** The source gives the number as approximate ("about 43%"). */
  approximate: boolean;
  /** The source's words for the number. */
  quote: string;
  /** Anything about the row that is haggle's reading of the source rather than the source itself. */
  assumed?: string;
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
  values: readonly PublishedValue[];
}

const CARD_SOURCE =
  'the model card of qwen3-4b-negotiation-50k-ep3 and qwen3-4b-negotiation-msg-sessions-ep4, as quoted in ' +
  "haggle's built-in model profiles (src/contract/model-profile.ts) and in haggle issue 15; the card " +
  'itself is not stored in this repository';

const MESSAGE_SESSION_READING =
  'a "message session" is read as a session in which at least one turn carries a non-empty message; the card\'s exact definition is not quoted';

/** The card's numbers: both models, the epoch-4 checkpoint and the source population. */
export const CARD_REFERENCE_SET: ReferenceSet = Object.freeze({
  id: 'card:qwen3-4b-negotiation-50k-ep3',
  aliases: ['card:qwen3-4b-negotiation-msg-sessions-ep4'],
  title: "The model card's published numbers",
  source: CARD_SOURCE,
  values: Object.freeze([
    {
      id: 'population-deal-rate',
      name: 'source population: deal rate',
      subject: 'source population',
      statistic: 'deal-rate',
      value: 0.43,
      approximate: true,
      quote: 'deal rate 38.2%; source population about 43%',
    },
    {
      id: '50k-ep3-deal-rate',
      name: 'qwen3-4b-negotiation-50k-ep3: deal rate',
      subject: 'qwen3-4b-negotiation-50k-ep3',
      profile: 'qwen3-4b-negotiation-50k-ep3',
      statistic: 'deal-rate',
      value: 0.382,
      approximate: false,
      quote: 'deal rate 38.2%; source population about 43%',
    },
    {
      id: '50k-epoch-4-deal-rate',
      name: '50k-session model at epoch 4: deal rate',
      subject: 'the 50k-session training at epoch 4 (no built-in profile)',
      statistic: 'deal-rate',
      value: 0.34,
      approximate: false,
      quote: 'epoch 4 34.0%',
      assumed:
        'read as the deal rate of the same 50k-session training after a 4th epoch; haggle ships no profile for that checkpoint',
    },
    {
      id: 'msg-sessions-ep4-deal-rate-message-sessions',
      name: 'qwen3-4b-negotiation-msg-sessions-ep4: deal rate on message sessions',
      subject: 'qwen3-4b-negotiation-msg-sessions-ep4',
      profile: 'qwen3-4b-negotiation-msg-sessions-ep4',
      statistic: 'deal-rate-message-sessions',
      value: 0.452,
      approximate: false,
      quote: 'msg-sessions model 45.2% on msg sessions',
      assumed: `read as a deal rate, like the card's other numbers; ${MESSAGE_SESSION_READING}`,
    },
    {
      id: 'population-message-session-share',
      name: 'source population: share of message sessions',
      subject: 'source population',
      statistic: 'message-session-share',
      value: 0.03,
      approximate: true,
      quote: '~3% message sessions',
      assumed: MESSAGE_SESSION_READING,
    },
  ] satisfies PublishedValue[]),
});

/** Every published reference set haggle knows. */
export const REFERENCE_SETS: readonly ReferenceSet[] = Object.freeze([CARD_REFERENCE_SET]);
