/**
 * The model card's facts, in one table: every statement haggle takes from the card of
 * `xinyang-hu-00/qwen3-4b-negotiation-50k-ep3` (which also compares the msg-sessions model), each with the
 * card's exact words, where on the card they stand, and what they measure as the card states it.
 * Anything haggle adds (which sessions a number counts, how precise "~43%" is) is a `reading`, marked
 * as haggle's and with its reason, never blended into the card's words.
 *
 * The card's page carries no licence line, so its text is not stored in this repository: a quote here
 * is checked against the card by `scripts/check-card-quotes.ts CARD.txt`, and the docs and profiles
 * are checked against this table (test/contract/card-quotes.test.ts).
 */

/** The card's two models (their ids on the card and haggle's built-in profile ids). */
export const CARD_MODELS = {
  '50k-ep3': 'qwen3-4b-negotiation-50k-ep3',
  'msg-sessions-ep4': 'qwen3-4b-negotiation-msg-sessions-ep4',
} as const;

/** What a fact is about: one of the card's models, the 50k training at epoch 4, or the source data. */
export type CardSubject =
  | (typeof CARD_MODELS)[keyof typeof CARD_MODELS]
  | 'the 50k training at epoch 4'
  | 'source population';

/** A number the card states: the share, how the card writes it, and how precisely. */
export interface CardNumber {
  /** The value as a share, 0..1. */
  share: number;
  /** The number exactly as the card writes it, e.g. `~43%`, `38.2%` (a part of `quote`). */
  written: string;
  /** The card marks it as approximate (`~`). */
  approximate: boolean;
  /** The step of the card's rounding, as a share: 0.01 for a whole percent, 0.001 for one decimal. */
  precision: number;
}

/** The sessions a number was measured on, where the card gives them. */
export interface CardSample {
  sessions: number;
  /** The card's words that give the count (a part of another fact's quote, or this one's). */
  quote: string;
  /** Set when the card does not tie the count to this number and haggle reads it so: why. */
  reading?: string;
}

/** haggle's reading of a fact: what haggle adds to the card's words, and why. Not the card's. */
export interface CardReading {
  reading: string;
  why: string;
}

/** One fact of the card. */
export interface CardFact {
  /** Stable id, e.g. `50k-ep3-deal-rate`. */
  id: string;
  /** Whom the fact is about: a number's one subject, or both models for a row of the comparison table. */
  about: readonly CardSubject[];
  /** The card's words, verbatim (a table row as the card's text gives it, pipes included). */
  quote: string;
  /** Where on the card: its section, and the table, column or line. */
  where: string;
  /** What the fact says or the number measures, in the card's own terms (no reading added). */
  measures: string;
  number?: CardNumber;
  sample?: CardSample;
  /** haggle's readings, each with why; empty when the fact is taken as the card states it. */
  readings: readonly CardReading[];
}

const EVALUATION_SET =
  'Evaluated via session rollout simulation on 2,000 held-out sessions from the 200k uniform pool (temperature=1.0).';

const ROUNDED_RANGE: CardReading = {
  reading: '"~43%" is read as the range its rounding allows, [42.5%, 43.5%)',
  why:
    'the card gives the value to the whole percent; its own Δ of −4.8 pp from 38.2% puts it at 43.0%, inside that range, ' +
    'and the sampling noise of a 200k-session pool (about ±0.2 pp) is well inside the rounding',
};

const MESSAGE_SESSION: CardReading = {
  reading:
    'a message session ("message-bearing session") is read as a session in which a turn that broke no rule carries a non-empty message',
  why: 'the card does not define "message-bearing"; a turn the rules refused was never read by the other side',
};

/** Every fact haggle takes from the card. */
export const CARD_FACTS: readonly CardFact[] = Object.freeze([
  {
    id: 'base-model',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| Base model | Qwen3-4B |',
    where: 'Training Details table',
    measures: 'the base model of the LoRA fine-tune',
    readings: [],
  },
  {
    id: 'lora-rank',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| LoRA rank | 64 |',
    where: 'Training Details table',
    measures: 'the rank of the LoRA fine-tune',
    readings: [],
  },
  {
    id: 'lora-alpha',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| LoRA alpha | 128 |',
    where: 'Training Details table',
    measures: 'the alpha (scaling numerator) of the LoRA fine-tune',
    readings: [],
  },
  {
    id: 'target-modules',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| Target modules | q, k, v, o, gate, up, down projections |',
    where: 'Training Details table',
    measures: 'the projections the LoRA fine-tune adapts',
    readings: [],
  },
  {
    id: 'framework',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| Framework | LLaMA Factory |',
    where: 'Training Details table',
    measures: 'the training framework',
    readings: [],
  },
  {
    id: 'template',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| Template | qwen3_nothink (no thinking tokens in loss) |',
    where: 'Training Details table',
    measures: 'the chat template the model was trained with',
    readings: [],
  },
  {
    id: 'checkpoint',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| Checkpoint | 9777 (epoch 3 of 3) |',
    where: 'Training Details table',
    measures: 'the released checkpoint',
    readings: [],
  },
  {
    id: 'temperature',
    about: [CARD_MODELS['50k-ep3']],
    quote:
      'Important: use temperature=1.0 for simulation rollouts. Greedy decoding (T=0) produces degenerate loops.',
    where: 'Usage section',
    measures: 'the sampling temperature for simulation rollouts',
    readings: [],
  },
  {
    id: 'actions',
    about: [CARD_MODELS['50k-ep3']],
    quote: 'Action types: offer, offer_with_message, accept, decline, message_only, no_response',
    where: 'Model Description',
    measures: 'the actions of a turn',
    readings: [],
  },
  {
    id: 'labels',
    about: [CARD_MODELS['50k-ep3']],
    quote:
      'Message labels: 20 negotiation strategy categories (e.g. build_rapport, request_information, justify_with_market_data, declare_cost_limit_seller_firm, etc.)',
    where: 'Model Description',
    measures: 'the message labels: 20 in all, 4 named',
    readings: [],
  },
  {
    id: 'task',
    about: [CARD_MODELS['50k-ep3']],
    quote:
      "Given a listing context (item, price, seller profile, buyer profile) and a conversation history, the model predicts the next participant's turn as a structured JSON object with five fields:",
    where: 'Model Description',
    measures: 'what the model predicts, from what',
    readings: [],
  },
  {
    id: 'example-labels',
    about: [CARD_MODELS['50k-ep3']],
    quote: '"message_labels": ["build_rapport", "invoke_compromise"],',
    where: 'Model Description, the example turn',
    measures: 'the labels of the card’s one example turn',
    readings: [],
  },
  {
    id: 'example-message',
    about: [CARD_MODELS['50k-ep3']],
    quote: '"message": "Hi, I\'ve been looking for this exact item...",',
    where: 'Model Description, the example turn',
    measures: 'the message of the card’s one example turn',
    readings: [],
  },
  {
    id: 'tokenizer-source',
    about: [CARD_MODELS['50k-ep3']],
    quote: 'tokenizer = AutoTokenizer.from_pretrained("xinyang-hu-00/qwen3-4b-negotiation-50k-ep3")',
    where: 'Usage section, the code',
    measures: 'where the card’s code loads the tokenizer from: the adapter repository, not the base model’s',
    readings: [],
  },
  {
    id: 'best-use',
    about: [CARD_MODELS['50k-ep3'], CARD_MODELS['msg-sessions-ep4']],
    quote: '| Best use case | Population-representative macro simulation | Message strategy analysis |',
    where:
      'Comparison with msg-sessions variant table, row "Best use case" (sft-50k-v2 ep3, then sft-msg-sessions ep4)',
    measures: 'what each of the two models is best used for',
    readings: [],
  },
  {
    id: 'training-data',
    about: [CARD_MODELS['50k-ep3'], CARD_MODELS['msg-sessions-ep4']],
    quote: '| Training data | 50k uniform sessions | 14k message-only sessions |',
    where: 'Comparison with msg-sessions variant table, row "Training data"',
    measures: 'the sessions each model was trained on',
    readings: [],
  },
  {
    id: 'evaluation-set',
    about: [CARD_MODELS['50k-ep3']],
    quote: EVALUATION_SET,
    where: 'Evaluation (Macro Simulation Metrics), the line above its table',
    measures:
      'how the model of this card was evaluated: rollouts on 2,000 held-out eBay sessions at temperature 1.0',
    readings: [],
  },
  {
    id: 'evaluation-domain',
    about: [CARD_MODELS['50k-ep3']],
    quote: 'Evaluated on eBay negotiation data; behavior on other negotiation domains is untested.',
    where: 'Limitations',
    measures: 'the data the model was evaluated on',
    readings: [],
  },
  {
    id: 'session-length',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| Session length | — | calibrated | — |',
    where: 'Evaluation table, row "Session length"',
    measures:
      'the session length of this card’s model, rated "calibrated" with no number, no source value and no Δ',
    readings: [],
  },
  {
    id: 'training-population-deal-rate',
    about: ['source population'],
    quote: 'Population deal rate: ~43%',
    where: 'Training Data, third item',
    measures: 'the deal rate of the population the 50,000 training sessions were sampled from',
    number: { share: 0.43, written: '~43%', approximate: true, precision: 0.01 },
    readings: [],
  },
  {
    id: 'deal-rate-limitation',
    about: [CARD_MODELS['50k-ep3']],
    quote:
      'Deal rate (38.2%) is ~5pp below source population (~43%) — the model under-estimates deal closure probability.',
    where: 'Limitations, first item',
    measures: 'the card’s reading of its deal rate: below the source population’s',
    readings: [],
  },
  {
    id: 'label-metrics-unreliable',
    about: [CARD_MODELS['50k-ep3']],
    quote:
      'Note on label metrics (M6/M7): with only ~1,500 message sessions in training data, message strategy label supervision is sparse. Label-conditioned deal propensity and opponent concession metrics are unreliable for this model.',
    where: 'Evaluation, the note on label metrics',
    measures:
      'the card’s caveat on its label metrics M6/M7 (label-conditioned deal propensity, opponent concession) for this model: unreliable',
    readings: [
      {
        reading:
          'haggle’s M6 and M7 are haggle’s own definitions (docs/metrics.md#m6-and-m7), named after the card’s metrics; the caveat is shown wherever they are shown',
        why: 'the card gives no formula for its M6/M7; it rates this model’s label metrics unreliable, and a run of it inherits that',
      },
    ],
  },
  {
    id: 'label-calibration-limitation',
    about: [CARD_MODELS['50k-ep3']],
    quote:
      'Message strategy label predictions are weakly calibrated due to sparse label supervision in training data (~1,500 message sessions out of 50k total).',
    where: 'Limitations, second item',
    measures: 'how well this model’s message labels are calibrated: weakly',
    readings: [],
  },
  {
    id: 'population-deal-rate',
    about: ['source population'],
    quote: '| Deal rate | ~43% | 38.2% | −4.8 pp |',
    where: 'Evaluation table, row "Deal rate", column "Source (200k uniform)"',
    measures: 'the deal rate of the source sessions (the 200k uniform pool)',
    number: { share: 0.43, written: '~43%', approximate: true, precision: 0.01 },
    sample: {
      sessions: 200_000,
      quote: 'Source (200k uniform)',
      reading:
        'the column header names the 200k uniform pool; the card does not say the rate was taken over all of it',
    },
    readings: [ROUNDED_RANGE],
  },
  {
    id: '50k-ep3-deal-rate',
    about: [CARD_MODELS['50k-ep3']],
    quote: '| Deal rate | ~43% | 38.2% | −4.8 pp |',
    where: 'Evaluation table, row "Deal rate", column "sft-50k-v2 ep3"',
    measures: 'the deal rate of simulated rollouts of this card’s model',
    number: { share: 0.382, written: '38.2%', approximate: false, precision: 0.001 },
    sample: { sessions: 2000, quote: EVALUATION_SET },
    readings: [
      {
        reading: '38.2% of 2,000 sessions is read as 764 deals',
        why: 'a two-sample test needs counts; the card gives the rate and the sample size',
      },
    ],
  },
  {
    id: '50k-epoch-4-deal-rate',
    about: ['the 50k training at epoch 4'],
    quote:
      'Epoch 3 outperforms epoch 4 (deal rate 34.0%) and is selected as the best checkpoint. Epoch 4 shows signs of overfitting on the training distribution.',
    where: 'Evaluation, the line below its table',
    measures: 'the deal rate of the epoch-4 checkpoint of the same training',
    number: { share: 0.34, written: '34.0%', approximate: false, precision: 0.001 },
    sample: {
      sessions: 2000,
      quote: EVALUATION_SET,
      reading:
        'the card gives no sample for 34.0%; it stands in the Evaluation section, so it is read as taken on the same 2,000 held-out sessions',
    },
    readings: [
      { reading: 'haggle ships no profile for this checkpoint', why: 'the card names no model id for it' },
    ],
  },
  {
    id: 'msg-sessions-ep4-deal-rate',
    about: [CARD_MODELS['msg-sessions-ep4']],
    quote: '| Deal rate (sim) | 38.2% | 45.2% |',
    where: 'Comparison with msg-sessions variant table, row "Deal rate (sim)", column "sft-msg-sessions ep4"',
    measures:
      'the simulated deal rate of the msg-sessions model; the card states neither its sessions nor their number',
    number: { share: 0.452, written: '45.2%', approximate: false, precision: 0.001 },
    readings: [
      {
        reading: 'without a sample, 45.2% is taken as exact: only the run’s own sampling noise is counted',
        why: 'a sample size would have to be invented; an "inconsistent" verdict against it can therefore be overstated',
      },
    ],
  },
  {
    id: 'message-rate',
    about: [CARD_MODELS['50k-ep3'], CARD_MODELS['msg-sessions-ep4']],
    quote: '| Message rate | ~3% (population-true) | ~100% (biased) |',
    where: 'Comparison with msg-sessions variant table, row "Message rate"',
    measures:
      'the message rate of each model’s side of the comparison; the card does not say of which sessions',
    readings: [],
  },
  {
    id: 'label-calibration',
    about: [CARD_MODELS['50k-ep3'], CARD_MODELS['msg-sessions-ep4']],
    quote: '| M6 label calibration | weak (~1,500 msg sessions) | strong (94% directional) |',
    where: 'Comparison with msg-sessions variant table, row "M6 label calibration"',
    measures:
      'how well each model’s message labels are calibrated, by the card’s M6 “label calibration” (weak for the 50k model, strong, 94% directional, for the msg-sessions model); haggle does not compute this score',
    readings: [],
  },
  {
    id: 'population-message-share',
    about: ['source population'],
    quote: '~3% message sessions (~1,500 message-bearing sessions) — matches true population rate',
    where: 'Training Data, first item',
    measures: 'the share of message sessions among the 50,000 training sessions',
    number: { share: 0.03, written: '~3%', approximate: true, precision: 0.01 },
    sample: {
      sessions: 50_000,
      quote: '50,000 sessions uniformly sampled from the full 5.9M eBay negotiation dataset',
    },
    readings: [
      {
        reading: '"~3%" is read as the range its rounding allows, [2.5%, 3.5%)',
        why: 'the card gives it to the whole percent; 1,500 of 50,000 is 3.0%',
      },
      MESSAGE_SESSION,
    ],
  },
] satisfies CardFact[]);

/** The fact with this id; throws on an unknown id (a programming error: the ids are ours). */
export function cardFact(id: string): CardFact {
  const fact = CARD_FACTS.find((f) => f.id === id);
  if (!fact) throw new Error(`no card fact "${id}"`);
  return fact;
}
