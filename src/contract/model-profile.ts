import * as z from 'zod';
import { InvalidInputError, issuesFromZod } from './errors.js';
import { cardFact } from './model-card.js';
import { TimeUnitSchema } from './time-unit.js';
import { MAX_LABEL_LENGTH, SNAKE_CASE } from './turn-rules.js';

// A known label must be one a turn may carry, so the same length bound as `TurnSchema`'s.
const LabelSchema = z
  .string()
  .regex(SNAKE_CASE, 'a label is a snake_case identifier')
  .max(MAX_LABEL_LENGTH, `a label has at most ${MAX_LABEL_LENGTH} characters`);

/**
 * A model's label vocabulary. `known`: the full list, enforced as an enum. `open`: the list is not
 * public, so any snake_case identifier is accepted; `examples` are labels known to exist, never enforced.
 */
export const LabelVocabularySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('known'), values: z.array(LabelSchema).min(1) }),
  z.strictObject({ kind: z.literal('open'), examples: z.array(LabelSchema).default([]) }),
]);
/** A model's message labels: a known list (an enum), or unknown (any snake_case identifier). */
export type LabelVocabulary = z.infer<typeof LabelVocabularySchema>;

/** Validates a profile's sampling defaults. */
export const SamplingDefaultsSchema = z.strictObject({
  temperature: z.number().min(0).max(2),
  topP: z.number().gt(0).max(1).optional(),
  topK: z.number().int().min(1).optional(),
  maxTokens: z.number().int().min(1).optional(),
});
/** The sampling a model is meant to be run with (the card's temperature, top-p, token limit). */
export type SamplingDefaults = z.infer<typeof SamplingDefaultsSchema>;

/** Whether a statement about a model comes from its card (`known`) or is our working guess (`assumed`). */
export const ProvenanceSchema = z.enum(['known', 'assumed']);

/** Validates one statement of a profile, with its provenance and, for a card fact, the card's words. */
export const ProfileFactSchema = z.strictObject({
  subject: z.string(),
  statement: z.string(),
  provenance: ProvenanceSchema,
  /** The card's words the statement rests on, verbatim (built-in profiles take them from `CARD_FACTS`). */
  quote: z.string().optional(),
});
/** One statement about a model, with whether it comes from its card (`known`) or is `assumed`. */
export type ProfileFact = z.infer<typeof ProfileFactSchema>;

/** What the SDK needs to know about a model that is not in its weights. */
export const ModelProfileSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().default(''),
  labels: LabelVocabularySchema,
  /** Unit of the model's `response_time` field. */
  responseTimeUnit: TimeUnitSchema,
  /** Prompt template id, e.g. `qwen3_nothink`. */
  template: z.string().min(1),
  sampling: SamplingDefaultsSchema,
  /** What is known from the model card and what is assumed, field by field. */
  facts: z.array(ProfileFactSchema).default([]),
});
/** What the SDK needs to know about a model that is not in its weights: labels, time unit, template, sampling. */
export type ModelProfile = z.infer<typeof ModelProfileSchema>;
/** A model profile as written by hand, before defaults are filled in. */
export type ModelProfileInput = z.input<typeof ModelProfileSchema>;

/** The five labels the model card names, of the 20 the model uses. Examples only: the list is not public. */
export const CARD_EXAMPLE_LABELS = [
  'build_rapport',
  'request_information',
  'justify_with_market_data',
  'declare_cost_limit_seller_firm',
  'invoke_compromise',
] as const;

/** A statement the card makes about the model, resting on the card fact `factId`'s words. */
function known(subject: string, statement: string, factId: string): ProfileFact {
  return { subject, statement, provenance: 'known', quote: cardFact(factId).quote };
}

function assumed(subject: string, statement: string): ProfileFact {
  return { subject, statement, provenance: 'assumed' };
}

/** Facts both profiles assume: the card states neither. */
const ASSUMED_FACTS: ProfileFact[] = [
  assumed(
    'label list',
    'the full list of 20 labels is not public: haggle found it in no source, so labels are open (any snake_case identifier)',
  ),
  assumed('responseTimeUnit', 'the card does not state the unit of response_time; hours is our assumption'),
  assumed(
    'prompt wording',
    'the wording of the training prompt is not public; the default template is our own',
  ),
];

const FACTS_50K_EP3: ProfileFact[] = [
  known('base', 'Qwen3-4B', 'base-model'),
  known('fine-tune', 'a LoRA fine-tune, rank 64', 'lora-rank'),
  known('checkpoint', 'checkpoint 9777, epoch 3 of 3', 'checkpoint'),
  known('framework', 'trained with LLaMA Factory', 'framework'),
  known('template', 'trained with the qwen3_nothink template: no thinking tokens in the loss', 'template'),
  known(
    'sampling',
    'rolled out at temperature 1.0 for simulation; greedy decoding (T=0) produces degenerate loops',
    'temperature',
  ),
  known('labels', 'uses 20 strategy labels, 4 of them named in the card’s list', 'labels'),
  known(
    'example labels',
    'the card’s one example turn carries build_rapport and invoke_compromise',
    'example-labels',
  ),
  known(
    'label metrics',
    'the card calls this model’s label-conditioned deal propensity and opponent concession metrics (its M6/M7) unreliable; haggle’s M6/M7 are haggle’s own definitions',
    'label-metrics-unreliable',
  ),
  known('label calibration', 'M6 label calibration weak (~1,500 msg sessions)', 'label-calibration'),
  known('session length', 'session length rated calibrated, with no number', 'session-length'),
  known('trainingData', '50k uniform sessions', 'training-data'),
  known('use', 'best for population-representative macro simulation', 'best-use'),
  known(
    'dealRate',
    'deal rate 38.2% in rollouts on 2,000 held-out sessions; the source sessions ~43%',
    '50k-ep3-deal-rate',
  ),
  ...ASSUMED_FACTS,
];

const FACTS_MSG_SESSIONS_EP4: ProfileFact[] = [
  known('trainingData', '14k message-only sessions', 'training-data'),
  known('use', 'best for message strategy analysis', 'best-use'),
  known('labels', 'M6 label calibration strong (94% directional)', 'label-calibration'),
  known(
    'dealRate',
    'deal rate (sim) 45.2%; the card states neither the sessions it was measured on nor their number',
    'msg-sessions-ep4-deal-rate',
  ),
  assumed(
    'base',
    'Qwen3-4B with a LoRA fine-tune, as its name says; the card states the base only for the 50k model',
  ),
  assumed('template', 'qwen3_nothink, as the 50k model; the card states the template only for the 50k model'),
  assumed(
    'sampling',
    'temperature 1.0, as the card says for the 50k model’s rollouts; not stated for this model',
  ),
  assumed(
    'label count',
    'the 20 labels of the 50k model; the card states the label list only for the 50k model',
  ),
  ...ASSUMED_FACTS,
];

function builtIn(input: ModelProfileInput): ModelProfile {
  return ModelProfileSchema.parse(input);
}

/** Built-in profiles for the two models of the card. */
export const MODEL_PROFILES = {
  'qwen3-4b-negotiation-50k-ep3': builtIn({
    id: 'qwen3-4b-negotiation-50k-ep3',
    description:
      'Trained on 50k uniform sessions, checkpoint of epoch 3 of 3; the card’s pick for population-representative macro simulation (deal rate 38.2% in simulated rollouts, source population ~43%).',
    labels: { kind: 'open', examples: [...CARD_EXAMPLE_LABELS] },
    responseTimeUnit: 'hours',
    template: 'qwen3_nothink',
    sampling: { temperature: 1.0 },
    facts: FACTS_50K_EP3,
  }),
  'qwen3-4b-negotiation-msg-sessions-ep4': builtIn({
    id: 'qwen3-4b-negotiation-msg-sessions-ep4',
    description:
      'Trained on 14k message-only sessions (the card’s sft-msg-sessions ep4); the card’s pick for message strategy analysis (deal rate (sim) 45.2%).',
    labels: { kind: 'open', examples: [...CARD_EXAMPLE_LABELS] },
    responseTimeUnit: 'hours',
    template: 'qwen3_nothink',
    sampling: { temperature: 1.0 },
    facts: FACTS_MSG_SESSIONS_EP4,
  }),
} as const satisfies Record<string, ModelProfile>;

/** The id of a profile in `MODEL_PROFILES`. */
export type BuiltInProfileId = keyof typeof MODEL_PROFILES;

/** The profile used when none is given. */
export const DEFAULT_MODEL_PROFILE: ModelProfile = MODEL_PROFILES['qwen3-4b-negotiation-50k-ep3'];

/** Returns a built-in profile by id, or validates a user's own profile object. */
export function resolveModelProfile(profile: string | ModelProfileInput | undefined): ModelProfile {
  if (profile === undefined) return DEFAULT_MODEL_PROFILE;
  if (typeof profile === 'string') {
    const found = (MODEL_PROFILES as Record<string, ModelProfile>)[profile];
    if (!found) {
      throw new InvalidInputError({
        subject: 'ModelProfile',
        issues: [
          {
            path: '(root)',
            message: `unknown profile "${profile}"; built-in profiles are ${Object.keys(MODEL_PROFILES).join(', ')}`,
          },
        ],
      });
    }
    return found;
  }
  const parsed = ModelProfileSchema.safeParse(profile);
  if (!parsed.success)
    throw new InvalidInputError({ subject: 'ModelProfile', issues: issuesFromZod(parsed.error) });
  return parsed.data;
}
